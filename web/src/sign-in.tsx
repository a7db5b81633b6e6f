// Sign-in: a user name on a development server (which mints the token), else a bearer token
// the host application issued (pasted here, or handed over as #token=... in the URL).
import { useEffect, useState, type FormEvent } from 'react';
import { devSignIn, serverInfo, sessionFromToken, type ServerInfo, type Session } from './session';
import { errorText } from './errors';

export function SignIn({ onSignIn }: { onSignIn: (session: Session) => void }) {
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [user, setUser] = useState('');
  const [service, setService] = useState(false);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    serverInfo().then(setInfo, () => setInfo({ devSignIn: false }));
  }, []);

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
      {info?.devSignIn && (
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
