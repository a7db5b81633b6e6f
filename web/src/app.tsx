// The shell: sign-in (provider.ts, session.ts), then a page per building block, chosen by the URL's fragment (#/chats).
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApolloProvider } from '@apollo/client/react';
import { connect } from './apollo';
import { SessionContext, useLinkState, useSession } from './context';
import { errorText } from './errors';
import type { ProviderSignIn } from './provider';
import { useWorkerMessages } from './service-worker';
import { loadSession, saveSession, serverInfo, takeFragmentToken, type ServerInfo, type Session } from './session';
import { SignIn } from './sign-in';

// Each page is its own chunk, loaded when first opened: the chart library only with the counters.
const ChatsPage = lazy(() => import('./pages/chats').then((m) => ({ default: m.ChatsPage })));
const CountersPage = lazy(() => import('./pages/counters').then((m) => ({ default: m.CountersPage })));
const TasksPage = lazy(() => import('./pages/tasks').then((m) => ({ default: m.TasksPage })));
const LeasesPage = lazy(() => import('./pages/leases').then((m) => ({ default: m.LeasesPage })));
const MarketPage = lazy(() => import('./pages/market').then((m) => ({ default: m.MarketPage })));
const LocationsPage = lazy(() => import('./pages/locations').then((m) => ({ default: m.LocationsPage })));

const PAGES: { path: string; title: string; render: () => ReactNode }[] = [
  { path: 'chats', title: 'Chats', render: () => <ChatsPage /> },
  { path: 'counters', title: 'Counters', render: () => <CountersPage /> },
  { path: 'tasks', title: 'Tasks', render: () => <TasksPage /> },
  { path: 'leases', title: 'Locks & semaphores', render: () => <LeasesPage /> },
  { path: 'market', title: 'Market', render: () => <MarketPage /> },
  { path: 'locations', title: 'Locations', render: () => <LocationsPage /> },
];

interface Start {
  info: ServerInfo;
  provider: ProviderSignIn | null;
  session: Session | null;
  /** Why the sign-in page shows instead of the app (the provider or the API refused a sign-in). */
  notice: string | null;
}

/**
 * Who is signed in when the page loads: back from the provider with a code, a token handed over
 * in the fragment, or the session this tab kept (a provider's with its newest token, if it is
 * still good). Once per page load, also under StrictMode: a code can be exchanged only once.
 */
async function start(): Promise<Start> {
  const handed = takeFragmentToken();
  const info = await serverInfo().catch((): ServerInfo => ({ devSignIn: false, provider: null, push: null }));
  let provider: ProviderSignIn | null = null;
  let session = handed;
  let notice: string | null = null;
  try {
    // Its own chunk: oidc-client-ts is a third of the app's size, and only needed with a provider.
    if (info.provider !== null) provider = new (await import('./provider')).ProviderSignIn(info.provider);
    session = (await provider?.finish()) ?? session;
  } catch (error) {
    notice = `Sign-in did not complete: ${errorText(error)}`;
  }
  session ??= loadSession();
  if (session?.provider) {
    const user = await provider?.current().catch(() => null);
    session = user ? { ...session, token: user.access_token } : null;
  }
  saveSession(session);
  return { info, provider, session, notice };
}
let starting: Promise<Start> | undefined;

export function App() {
  const [begun, setBegun] = useState<Start | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    const failed = (error: unknown): Start => ({
      info: { devSignIn: false, provider: null, push: null },
      provider: null,
      session: null,
      notice: `The app could not start: ${errorText(error)}`,
    });
    void (starting ??= start().catch(failed)).then((started) => {
      setBegun(started);
      setSession(started.session);
      setNotice(started.notice);
    });
  }, []);
  const signIn = (next: Session | null, why: string | null = null): void => {
    saveSession(next);
    setSession(next);
    setNotice(why);
  };

  // A provider's session: each renewed token is used from then on; one that expired unrenewed ends it.
  const provider = begun?.provider ?? null;
  const byProvider = session?.provider === true;
  useEffect(() => {
    if (provider === null || !byProvider) return undefined;
    const stopRenewed = provider.onRenewed((token) =>
      setSession((now) => {
        const next = now && { ...now, token };
        saveSession(next);
        return next;
      }),
    );
    const stopEnded = provider.onEnded(() =>
      signIn(null, 'Your sign-in expired and could not be renewed: sign in again.'),
    );
    return () => {
      stopRenewed();
      stopEnded();
    };
  }, [provider, byProvider]);

  if (begun === null) return <p className="muted">Loading…</p>;
  if (session === null) return <SignIn info={begun.info} provider={provider} notice={notice} onSignIn={signIn} />;
  const signOut = (): void => {
    signIn(null);
    if (byProvider) void provider?.signOut();
  };
  return <SignedIn key={session.user} session={session} server={begun.info} onSignOut={signOut} />;
}

interface SignedInProps {
  session: Session;
  server: ServerInfo;
  onSignOut: () => void;
}

function SignedIn({ session, server, onSignOut }: SignedInProps) {
  // The connection lives as long as the person is signed in; a renewed token replaces the old one in it.
  const token = useRef(session.token);
  token.current = session.token;
  const connection = useMemo(() => connect(() => token.current), []);
  useEffect(() => () => connection.dispose(), [connection]);
  const page = useFragmentPage();
  // A click on a notification (web/sw/sw.ts) brings this window to the front: show its chat.
  useWorkerMessages((message) => {
    if (message.type === 'open') location.hash = message.chatId === null ? '#/chats' : `#/chats/${message.chatId}`;
  });
  return (
    <SessionContext.Provider value={{ session, connection, server }}>
      <ApolloProvider client={connection.client}>
        <header className="top">
          <strong>Redis in Action</strong>
          <nav>
            {PAGES.map((p) => (
              <a key={p.path} href={`#/${p.path}`} aria-current={p.path === page.path ? 'page' : undefined}>
                {p.title}
              </a>
            ))}
          </nav>
          <Account onSignOut={onSignOut} />
        </header>
        <main data-page={page.path}>
          <Suspense fallback={<p className="muted">Loading…</p>}>{page.render()}</Suspense>
        </main>
      </ApolloProvider>
    </SessionContext.Provider>
  );
}

function Account({ onSignOut }: { onSignOut: () => void }) {
  const session = useSession();
  const { state, refused } = useLinkState();
  const missing = refused.length > 0 ? `No notices: the server refused ${refused.join(', ')}` : undefined;
  return (
    <div className="account">
      <span className={`link link-${state}`} data-testid="link-state" title={missing}>
        {state}
      </span>
      <span data-testid="signed-in-as">
        {session.user}
        {session.service ? ' (service)' : ''}
      </span>
      <button type="button" onClick={onSignOut}>
        Sign out
      </button>
    </div>
  );
}

function useFragmentPage(): (typeof PAGES)[number] {
  const read = (): string => /^#\/([a-z-]+)/.exec(location.hash)?.[1] ?? 'chats';
  const [path, setPath] = useState(read);
  useEffect(() => {
    const changed = (): void => setPath(read());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return PAGES.find((p) => p.path === path) ?? PAGES[0];
}
