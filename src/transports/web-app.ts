// The reference web app (web/, built by Vite into dist/web) at /app: its files under a strict
// Content-Security-Policy, its service worker (sw.js, for Web Push), what the app needs to know
// to sign in (an identity provider's client, OIDC_WEB_APP) and to subscribe to pushes (the VAPID
// public key), and, on a development server
// that made its own secret, a token for a user name. The app itself holds no secret.
import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import type { TokenVerifier } from '../security/auth';
import { SERVICE_ROLE } from '../security/auth';
import type { RequestGate } from '../security/request-gate';
import type { WebAppSignIn } from '../security/oidc/settings';
import { AppError } from '../common/errors';
import { validName } from '../common/validation';
import { admit, sendError } from './http';
import { precompressed } from './precompressed';

export interface WebAppOptions {
  /** The built app (dist/web); a missing folder answers 404 WEB_APP_NOT_BUILT. */
  dir: string;
  gate: RequestGate;
  verifier: TokenVerifier;
  /** True only on a server that is not production and generated its own secret. */
  devSignIn: boolean;
  /** The identity provider the app signs in with (OIDC_WEB_APP), if any. */
  providerSignIn?: WebAppSignIn | undefined;
  /** The VAPID public key browsers subscribe with, when Web Push is set up (PUSH_VAPID_*). */
  webPushPublicKey?: string | undefined;
}

/** dist/web beside the compiled code, whether this runs from dist/ or from src/ (tests). */
export const DEFAULT_WEB_APP_DIR = path.resolve(__dirname, '..', '..', 'dist', 'web');

const DEV_TOKEN_SECONDS = 12 * 3600;

/**
 * Only the app's own files and the API on the same origin: no inline script or style, no other
 * host, no framing. Vite's build and uPlot need nothing more (uPlot styles through the CSSOM).
 * With provider sign-in, the app also fetches from the provider: its discovery document, and its
 * token endpoint for the code and for renewals. Going to its login and logout pages is a
 * navigation, which CSP does not govern. The service worker (sw.js, for Web Push) is the app's
 * own script too; worker-src names it, though default-src would allow it already, so that the
 * policy says so and stays so if default-src is ever narrowed.
 */
function webAppCsp(providerSignIn: WebAppSignIn | undefined): string {
  const provider = providerSignIn ? [new URL(providerSignIn.issuer).origin, ...providerSignIn.origins] : [];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ['connect-src', "'self'", ...new Set(provider)].join(' '),
    "font-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export function webAppRoutes(options: WebAppOptions): Router {
  const router = express.Router();
  const csp = webAppCsp(options.providerSignIn);
  router.use((_req, res, next) => {
    res.setHeader('content-security-policy', csp);
    next();
  });

  // What the sign-in page offers, and the key a browser subscribes to pushes with; no secret in
  // it (the web app is a public client, and the VAPID public key is public by design).
  const provider = options.providerSignIn;
  const offered = {
    devSignIn: options.devSignIn,
    provider: provider
      ? { issuer: provider.issuer, clientId: provider.clientId, scope: provider.scope, params: provider.params }
      : null,
    push: options.webPushPublicKey === undefined ? null : { webPushPublicKey: options.webPushPublicKey },
  };
  router.get('/session.json', (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.json(offered);
  });

  router.post('/dev-token', admit(options.gate), express.json({ limit: 1024 }), (req, res) => {
    res.setHeader('cache-control', 'no-store');
    if (!options.devSignIn) {
      sendError(res, 404, 'NOT_FOUND', 'Sign-in by user name exists only on a development server with its own secret');
      return;
    }
    // Minting tokens is for the person at this machine (the banner's tokens are theirs too),
    // not for anyone who can reach a development server that listens on a wider address.
    if (!isLoopback(req.socket.remoteAddress)) {
      sendError(res, 403, 'FORBIDDEN', 'Sign-in by user name is only offered to this machine (loopback)');
      return;
    }
    const body = req.body as { user?: unknown; service?: unknown } | undefined;
    try {
      if (typeof body?.user !== 'string') throw new AppError('BAD_USER_INPUT', 'user must be a string');
      const user = validName(body.user, 'user');
      const roles = body.service === true ? [SERVICE_ROLE] : [];
      const token = options.verifier.sign(user, roles, DEV_TOKEN_SECONDS);
      res.json({ token, user, roles, expiresAt: Date.now() + DEV_TOKEN_SECONDS * 1000 });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      sendError(res, 400, error.code, error.message, error.details);
    }
  });

  // Hashed file names: cached for good. index.html names them, so it is never cached. Each is
  // sent as the build compressed it when the client accepts that (precompressed.ts).
  const assets = path.join(options.dir, 'assets');
  const forGood = { immutable: true, maxAge: '365d' };
  router.use('/assets', precompressed(assets, forGood), express.static(assets, forGood));
  router.get(['/', '/index.html'], (req, res, next) => {
    if (req.originalUrl.split('?')[0] === '/app') {
      res.redirect(301, '/app/'); // relative asset URLs resolve under /app/
      return;
    }
    const index = path.join(options.dir, 'index.html');
    if (!fs.existsSync(index)) {
      sendError(res, 404, 'WEB_APP_NOT_BUILT', 'The web app is not built: run `npm run build`');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    next();
  });
  router.get(['/', '/index.html'], precompressed(options.dir, { file: 'index.html' }), (_req, res) =>
    res.sendFile(path.join(options.dir, 'index.html')),
  );
  // The service worker keeps its name (a registration is tied to its script's URL), so it is
  // revalidated on each check: a browser must see a new build's worker. The static handlers below
  // send it, keeping this header; the scope it is registered with, /app/, is its own folder.
  router.get('/sw.js', (_req, res, next) => {
    res.setHeader('cache-control', 'no-cache');
    next();
  });
  router.use(precompressed(options.dir), express.static(options.dir, { index: false }));
  return router;
}
