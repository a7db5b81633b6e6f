// Sign-in: through the identity provider the server names, a user name on a development server
// (which mints the token), or a bearer token the host application issued (pasted here, or handed
// over as #token=... in the URL).
import { useEffect, useState, type FormEvent } from 'react';
import { devSignIn, sessionFromToken, type ServerInfo, type Session } from './session';
import type { ProviderSignIn } from './provider';
import { errorText } from './errors';

interface SignInProps {
  info: ServerInfo;
  provider: ProviderSignIn | null;
  /** Why the app is here again (a sign-in the provider or the API refused, a session that ended). */
  notice: string | null;
  onSignIn: (session: Session) => void;
}

export function SignIn({ info, provider, notice, onSignIn }: SignInProps) {
  const [user, setUser] = useState('');
  const [service, setService] = useState(false);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(notice);
  const [leaving, setLeaving] = useState(false);
  // Back from the provider's page, the browser may show this page as it was left: usable again.
  useEffect(() => {
    const shown = (event: PageTransitionEvent): void => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  const withProvider = (): void => {
    setError(null);
    setLeaving(true);
    provider?.begin().catch((e: unknown) => {
      setLeaving(false);
      setError(`The identity provider cannot be reached: ${errorText(e)}`);
    });
  };

  const byName = (event: FormEvent): void => {
    event.preventDefault();
    setError(null);
    devSignIn(user, service).then(onSignIn, (e: unknown) => setError(errorText(e)));
  };
  const byToken = (event: FormEvent): void => {
    event.preventDefault();
    const session = sessionFromToken(token);
    if (session === null) setError('That is not a bearer token (a JWT with a subject)');
    else onSignIn(session);
  };

  return (
    <main className="sign-in">
      <h1>Redis in Action</h1>
      {provider !== null && info.provider !== null && (
        <section aria-label="Provider sign-in">
          <p>Sign in with your organisation's account ({new URL(info.provider.issuer).host}).</p>
          <button type="button" onClick={withProvider} disabled={leaving}>
            Sign in with your account
          </button>
        </section>
      )}
      {info.devSignIn && (
        <form onSubmit={byName} aria-label="Development sign-in">
          <p>Development server: a user name is enough.</p>
          <label>
            User name <input name="user" value={user} onChange={(e) => setUser(e.target.value)} required />
          </label>
          <label className="check">
            <input type="checkbox" checked={service} onChange={(e) => setService(e.target.checked)} /> operator (service
            role)
          </label>
          <button type="submit">Sign in</button>
        </form>
      )}
      <form onSubmit={byToken} aria-label="Token sign-in">
        <p>A bearer token from your application:</p>
        <label>
          Token <textarea name="token" value={token} onChange={(e) => setToken(e.target.value)} rows={3} required />
        </label>
        <button type="submit">Use token</button>
      </form>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}
