// Sign-in through the identity provider the server names (OIDC_WEB_APP): authorization code with
// PKCE by oidc-client-ts, the access token renewed with the refresh token a minute before it
// expires, and sign-out at the provider. The app is a public client: it holds no secret. What
// oidc-client-ts keeps (the pending sign-in, the tokens) is in this tab's sessionStorage, as the
// other sign-ins keep theirs.
import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { AppViewerDocument } from './ops';
import type { Session } from './session';
import { registeredHash } from './subscriptions';

export interface ProviderInfo {
  issuer: string;
  clientId: string;
  scope: string;
  /** More parameters of the authorization request (Auth0's `audience`, a `resource`). */
  params: Record<string, string>;
}

/** Seconds before the access token expires that renewal starts; failed attempts are retried. */
const RENEW_BEFORE_S = 60;
const RETRY_MS = 10_000;

type Renewal = 'renewed' | 'failed' | 'impossible';

/** Where the provider sends the browser back, after signing in and after signing out. */
const returnUri = (): string => `${location.origin}/app/`;

export class ProviderSignIn {
  private readonly manager: UserManager;

  constructor(info: ProviderInfo) {
    const store = new WebStorageStateStore({ store: sessionStorage });
    this.manager = new UserManager({
      authority: info.issuer,
      client_id: info.clientId,
      redirect_uri: returnUri(),
      post_logout_redirect_uri: returnUri(),
      scope: info.scope,
      extraQueryParams: info.params,
      response_mode: 'query',
      userStore: store,
      stateStore: store,
      // Renewal is ours (renew below): oidc-client-ts's own would fall back to a hidden frame at the
      // provider when there is no refresh token, which the app's CSP and browsers' cookie rules stop.
      automaticSilentRenew: false,
      accessTokenExpiringNotificationTimeInSeconds: RENEW_BEFORE_S,
      loadUserInfo: false,
      monitorSession: false,
    });
    this.manager.events.addAccessTokenExpiring(this.expiring);
  }

  /**
   * Renewal: the refresh token traded for a new access token when this one is about to expire,
   * again every RETRY_MS while that fails (the provider down), and once more when it has expired
   * (a laptop that slept through the minute before). One trade at a time: oidc-client-ts re-arms
   * its "expiring" timer to one second whenever the user is read in the last minute, and a
   * refresh token sent twice is taken for a stolen one by providers that rotate them (they revoke
   * the whole grant).
   */
  private renewing: Promise<Renewal> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;

  private renewOnce(): Promise<Renewal> {
    this.renewing ??= this.trade().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async trade(): Promise<Renewal> {
    const user = await this.manager.getUser();
    if (!user?.refresh_token) return 'impossible';
    try {
      await this.manager.signinSilent();
      return 'renewed';
    } catch {
      return 'failed';
    }
  }

  private readonly expiring = (): void => {
    if (this.renewing !== undefined || this.retry !== undefined) return;
    void this.renewOnce().then((renewal) => {
      if (renewal !== 'failed') return;
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.expiring();
      }, RETRY_MS);
    });
  };

  /** Goes to the provider's login page; the browser comes back to /app/ with a code. */
  begin(): Promise<void> {
    return this.manager.signinRedirect();
  }

  /**
   * The session of the user the provider just sent back (`?code=&state=`, or `?error=` which
   * throws the provider's message), or null when this page load is not a return from it. The code
   * and state are taken out of the address bar and history either way.
   */
  async finish(): Promise<Session | null> {
    const user = await this.returned();
    if (user === null) return null;
    try {
      return await providerSession(user.access_token);
    } catch (error) {
      // The API refused the token (a provider or audience it is not configured for): no tokens
      // are kept, and nothing renews them.
      await this.forget();
      throw error;
    }
  }

  private async returned(): Promise<User | null> {
    const params = new URLSearchParams(location.search);
    if (!params.has('state')) return null;
    const clean = (): void => history.replaceState(null, '', location.pathname + location.hash);
    try {
      if (params.has('code') || params.has('error')) return await this.manager.signinRedirectCallback();
      // Back from signing out: forget the request's state.
      await this.manager.signoutRedirectCallback().catch(() => undefined);
      return null;
    } finally {
      clean();
    }
  }

  /**
   * The user kept in this tab, with an access token that is still good (renewed first if it
   * expired while the page was away); renewal runs from then on. Null, with the tokens
   * forgotten, when there is none.
   */
  async current(): Promise<User | null> {
    const user = await this.manager.getUser();
    if (user === null || !user.expired) return user;
    if ((await this.renewOnce()) === 'renewed') return this.manager.getUser();
    await this.forget();
    return null;
  }

  /** Each renewed access token. */
  onRenewed(listener: (token: string) => void): () => void {
    const loaded = (user: User): void => listener(user.access_token);
    this.manager.events.addUserLoaded(loaded);
    return () => this.manager.events.removeUserLoaded(loaded);
  }

  /**
   * The access token expired and one more renewal failed (the provider refused the refresh
   * token, or is unreachable): the tokens are forgotten, then `listener` is told.
   */
  onEnded(listener: () => void): () => void {
    const expired = (): void =>
      void this.renewOnce().then(async (renewal) => {
        if (renewal === 'renewed') return;
        await this.forget();
        listener();
      });
    this.manager.events.addAccessTokenExpired(expired);
    return () => this.manager.events.removeAccessTokenExpired(expired);
  }

  /** Forgets the tokens here and stops renewing them. */
  async forget(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.manager.removeUser();
  }

  /**
   * Forgets the tokens and signs out at the provider too (its session would sign the next
   * sign-in straight in). A provider without an end-session endpoint only loses the tokens here.
   */
  async signOut(): Promise<void> {
    const user = await this.manager.getUser();
    clearTimeout(this.retry);
    this.retry = undefined;
    this.manager.events.removeAccessTokenExpiring(this.expiring);
    try {
      await this.manager.signoutRedirect({ id_token_hint: user?.id_token });
    } catch {
      await this.manager.removeUser();
    }
  }
}

/**
 * A provider's access token as this API reads it: the user id it acts as (the provider's claim,
 * with the prefix the server puts before it), which the token alone does not tell the app.
 */
export async function providerSession(token: string): Promise<Session> {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      operationName: 'AppViewer',
      variables: {},
      extensions: { persistedQuery: { version: 1, sha256Hash: registeredHash(AppViewerDocument) } },
    }),
  });
  const body = (await response.json()) as {
    data?: { viewer?: { userId: string; service: boolean } } | null;
    errors?: { message: string; extensions?: { code?: string; reason?: string } }[];
  };
  const viewer = body.data?.viewer;
  if (viewer === undefined) {
    const error = body.errors?.[0];
    const code = error?.extensions?.reason ?? error?.extensions?.code ?? response.status;
    throw new Error(`The API refused the sign-in: ${error?.message ?? 'no answer'} (${code})`);
  }
  return { token, user: viewer.userId, service: viewer.service, provider: true };
}
