// Who the app is signed in as. The token lives in sessionStorage (this tab only, gone when it
// closes). It comes from the identity provider the server names (provider.ts), from the host
// application (a `#token=` fragment, which no server sees, or a token pasted on the sign-in
// page) or, on a development server, from /app/dev-token.
import type { ProviderInfo } from './provider';

export interface Session {
  token: string;
  user: string;
  service: boolean;
  /** Signed in through the provider: renewed by it, and signed out there too. */
  provider?: true;
}

export interface ServerInfo {
  /** The server mints tokens for a user name (development with its own secret only). */
  devSignIn: boolean;
  /** The identity provider to sign in with, if the server names one. */
  provider: ProviderInfo | null;
  /** The VAPID key to subscribe to pushes with, when the server sends Web Push. */
  push: { webPushPublicKey: string } | null;
}

const KEY = 'ria.session';

export function loadSession(): Session | null {
  const stored = sessionStorage.getItem(KEY);
  if (stored === null) return null;
  try {
    const session = JSON.parse(stored) as Session;
    return isExpired(session.token) ? null : session;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify(session));
}

/** A token handed over in the URL's fragment: taken, then removed from the address bar and history. */
export function takeFragmentToken(): Session | null {
  const match = /^#token=([A-Za-z0-9\-_.]+)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', location.pathname + location.search);
  return sessionFromToken(match[1]);
}

/** The token's claims, read (not verified: the server does that) to show who is signed in. */
export function sessionFromToken(token: string): Session | null {
  const claims = readClaims(token.trim());
  if (claims === null || typeof claims.sub !== 'string') return null;
  const roles = Array.isArray(claims.roles) ? claims.roles : [];
  return { token: token.trim(), user: claims.sub, service: roles.includes('service') };
}

export async function serverInfo(): Promise<ServerInfo> {
  const response = await fetch('/app/session.json', { headers: { accept: 'application/json' } });
  if (!response.ok) return { devSignIn: false, provider: null, push: null };
  const info = (await response.json()) as Partial<ServerInfo>;
  const key = info.push?.webPushPublicKey;
  return {
    devSignIn: info.devSignIn === true,
    provider: info.provider ?? null,
    push: typeof key === 'string' && key !== '' ? { webPushPublicKey: key } : null,
  };
}

export async function devSignIn(user: string, service: boolean): Promise<Session> {
  const response = await fetch('/app/dev-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, service }),
  });
  const body = (await response.json()) as {
    token?: string;
    user?: string;
    errors?: { message: string }[];
  };
  if (!response.ok || body.token === undefined || body.user === undefined) {
    throw new Error(body.errors?.[0]?.message ?? `Sign-in failed (${response.status})`);
  }
  return { token: body.token, user: body.user, service };
}

function readClaims(token: string): { sub?: unknown; roles?: unknown; exp?: unknown } | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const bytes = Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as { sub?: unknown; roles?: unknown; exp?: unknown };
  } catch {
    return null;
  }
}

function isExpired(token: string): boolean {
  const exp = readClaims(token)?.exp;
  return typeof exp === 'number' && exp * 1000 <= Date.now();
}
