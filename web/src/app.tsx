// The shell: sign-in, then a page per building block, chosen by the URL's fragment (#/chats).
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApolloProvider } from '@apollo/client/react';
import { connect } from './apollo';
import { SessionContext, useLinkState, useSession } from './context';
import { loadSession, saveSession, takeFragmentToken, type Session } from './session';
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

export function App() {
  const [session, setSession] = useState<Session | null>(() => {
    const handed = takeFragmentToken();
    if (handed !== null) saveSession(handed);
    return handed ?? loadSession();
  });
  const signIn = (next: Session | null): void => {
    saveSession(next);
    setSession(next);
  };
  if (session === null) return <SignIn onSignIn={signIn} />;
  return <SignedIn key={session.token} session={session} onSignOut={() => signIn(null)} />;
}

function SignedIn({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const connection = useMemo(() => connect(session), [session]);
  useEffect(() => () => connection.dispose(), [connection]);
  const page = useFragmentPage();
  return (
    <SessionContext.Provider value={{ session, connection }}>
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
