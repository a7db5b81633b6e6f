// The identity provider of the GraphQL benchmark, inside the bench process: one ES256 and one RS256
// key made with jose, their public halves served as a key set on loopback, tokens signed with them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type KeyLike } from 'jose';
import { benchTokens } from '../harness';

export const TOKEN_KINDS = ['HS256', 'ES256', 'RS256'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
const ISSUER = 'http://127.0.0.1/bench-provider';
const AUDIENCE = 'bench-graphql';
const keys = new Map<TokenKind, KeyLike>();

/** Serves the key set until `close`; `env` makes a server take the provider's tokens, "service" role included. */
export async function startProvider() {
  const jwks: JWK[] = [];
  for (const alg of TOKEN_KINDS.slice(1)) {
    const { publicKey, privateKey } = await generateKeyPair(alg);
    keys.set(alg, privateKey);
    jwks.push({ ...(await exportJWK(publicKey)), kid: alg, alg, use: 'sig' });
  }
  const body = JSON.stringify({ keys: jwks });
  const server = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  const provider = { issuer: ISSUER, audience: AUDIENCE, jwksUri, rolesClaim: 'roles', serviceRoles: ['service'] };
  // Patience: a server starting beside four others on one core can miss the 5 s default, then wait out a cooldown.
  const env = { OIDC_PROVIDERS: JSON.stringify([provider]), OIDC_FETCH_TIMEOUT_MS: '60000', OIDC_KEYS_COOLDOWN_S: '1' };
  return { env, close: () => server.close().closeAllConnections() };
}

/** A day's token for `sub`: HS256 with the bench's secret, else the provider's (iss, aud, sub, exp). */
export const signToken = async (kind: TokenKind, sub: string, roles: string[] = []): Promise<string> =>
  kind === 'HS256'
    ? benchTokens.sign(sub, roles, 86_400)
    : new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub, roles, exp: Math.floor(Date.now() / 1000) + 86_400 })
        .setProtectedHeader({ alg: kind, kid: kind })
        .sign(keys.get(kind)!);
