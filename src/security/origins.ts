// Which browser pages may call the API. A request without an Origin header is not from a
// browser page (a mobile app, a backend, curl) and passes; a page on this server's own origin
// (Apollo Sandbox) passes; any other origin must be in ALLOWED_ORIGINS, and gets CORS headers.
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

function isSameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/** The Origin header of a request, if it sent exactly one. */
export function originOf(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  return typeof origin === 'string' ? origin : undefined;
}

const ALLOWED_HEADERS = 'authorization, content-type, apollo-require-preflight, x-apollo-operation-name, x-request-id';

/** Refuses foreign origins with 403, and answers CORS (preflights included) for allowed ones. */
export function originPolicy(
  allowed: readonly string[],
  refuse: (res: Parameters<RequestHandler>[1]) => void,
): RequestHandler {
  return (req, res, next) => {
    const origin = originOf(req);
    if (!originAllowed(origin, req.headers.host, allowed)) return refuse(res);
    if (origin !== undefined && !isSameOrigin(origin, req.headers.host)) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'Origin');
      res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
      res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
      res.setHeader('access-control-max-age', '600');
      res.setHeader('access-control-expose-headers', 'retry-after, x-request-id');
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
    }
    next();
  };
}
