// The web app's files in the coding the client asks for: the brotli (`x.js.br`) or gzip
// (`x.js.gz`) copy made at build time (web/precompress.mts), so no request spends CPU on
// compression, or the file itself. Content-Type is the file's whichever is sent, and each
// coding has validators of its own (the ETag and Last-Modified of the copy sent).
import fs from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

type Coding = 'br' | 'gzip';

/** Preferred first: brotli is the smaller of the two. */
const CODINGS: readonly { coding: Coding; suffix: string }[] = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
];

/**
 * The coding to send among `available` for an Accept-Encoding header (RFC 9110, 12.5.3), or
 * undefined for the file itself. A coding the header does not name (nor `*`) is not acceptable;
 * q=0 refuses one. Identity is acceptable unless `identity;q=0` or `*;q=0` says otherwise, at the
 * lowest quality listed (as Node's `negotiator` does), so a coding as wanted wins over it. When
 * nothing is acceptable the file itself is sent all the same: better than a 406 for a script.
 */
function chooseCoding(header: string | undefined, available: readonly Coding[]): Coding | undefined {
  if (header === undefined) return undefined;
  const quality = new Map<string, number>();
  let lowest = 1;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((token) => token.trim().toLowerCase());
    if (name === '') continue;
    const qParam = params.find((param) => /^q\s*=/.test(param));
    const q = qParam === undefined ? 1 : Number(qParam.replace(/^q\s*=\s*/, ''));
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    const coding = name === 'x-gzip' ? 'gzip' : name;
    quality.set(coding, Math.max(quality.get(coding) ?? 0, q));
    lowest = Math.min(lowest, q);
  }
  const star = quality.get('*');
  const identity = quality.get('identity') ?? star ?? lowest;
  let best: { coding: Coding; q: number } | undefined;
  for (const coding of available) {
    const q = quality.get(coding) ?? star ?? 0;
    if (q > 0 && (best === undefined || q > best.q)) best = { coding, q };
  }
  return best !== undefined && best.q >= identity ? best.coding : undefined;
}

export interface PrecompressedOptions {
  /** Cache-Control as express.static sets it (`maxAge`, `immutable`); a header set earlier wins. */
  maxAge?: string | number;
  immutable?: boolean;
  /** The file to send whatever the path (index.html); else the request's path under `root`. */
  file?: string;
}

/**
 * Sends the compressed copy of a file under `root` that the client accepts; passes the request
 * on (to express.static or sendFile, which send the file itself) when there is none. A file with
 * copies gets `Vary: Accept-Encoding` either way, so a shared cache keeps one reply per coding.
 */
export function precompressed(root: string, options: PrecompressedOptions = {}): RequestHandler {
  const base = path.resolve(root);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const relative = options.file ?? decodedPath(req.path);
    const file = relative === undefined ? undefined : path.resolve(base, `.${path.sep}${relative}`);
    if (file === undefined || !file.startsWith(base + path.sep)) return next();
    void copiesOf(file).then((copies) => {
      if (copies.length === 0) return next();
      res.vary('Accept-Encoding');
      const chosen = CODINGS.find(({ coding }) => coding === chooseCoding(req.headers['accept-encoding'], copies));
      if (chosen === undefined) return next();
      res.setHeader('Content-Encoding', chosen.coding);
      res.type(path.extname(file));
      const sendOptions = { root: base, maxAge: options.maxAge, immutable: options.immutable };
      res.sendFile(path.relative(base, file) + chosen.suffix, sendOptions, (error?: Error & { status?: number }) => {
        if (error === undefined || res.headersSent) return;
        // The copy went away after it was found (a rebuild): the file itself then.
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        next(error.status === 404 ? undefined : error);
      });
    }, next);
  };
}

/** The codings with a copy beside `file`, in order of preference. */
async function copiesOf(file: string): Promise<Coding[]> {
  const found = await Promise.all(
    CODINGS.map(({ coding, suffix }) =>
      fs.promises.stat(file + suffix).then(
        (stat) => (stat.isFile() ? coding : undefined),
        () => undefined,
      ),
    ),
  );
  return found.filter((coding) => coding !== undefined);
}

/** The path asked for, or undefined for one with `..` in it, which express.static refuses too. */
function decodedPath(urlPath: string): string | undefined {
  try {
    const decoded = decodeURIComponent(urlPath);
    return decoded.includes('\0') || /(?:^|[\\/])\.\.(?:[\\/]|$)/.test(decoded) ? undefined : decoded;
  } catch {
    return undefined;
  }
}
