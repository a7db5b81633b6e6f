// One Apollo Client per session: queries and mutations over HTTP, subscriptions over graphql-ws.
// Subscriptions only say that something changed; pages pull the data. When the socket comes
// back after a drop, every page that listens pulls again (onReconnect), so nothing sent while
// the network was down is missed.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { deviceId } from './pages/chats/device';
import { createClient, type Client } from 'graphql-ws';
import { OperationTypeNode } from 'graphql';
import { Refusals, registeredHash, registeredSubscriptions } from './subscriptions';

/** `refused`: the socket is open, but the server refused a subscription a page asked for. */
type LinkState = 'connecting' | 'live' | 'refused' | 'offline';

export interface LinkStatus {
  state: LinkState;
  /** The operations refused (`refused`), to say which notices are missing. */
  refused: readonly string[];
}

export interface Connection {
  client: ApolloClient;
  /** Called with the state now and with each change of it. */
  onState(listener: (status: LinkStatus) => void): () => void;
  /** Called each time the socket is open again after it closed. */
  onReconnect(listener: () => void): () => void;
  dispose(): void;
}

/** `token` is read for each request and each connection, so a renewed token is used from then on. */
export function connect(token: () => string): Connection {
  const stateListeners = new Set<(status: LinkStatus) => void>();
  const reconnectListeners = new Set<() => void>();
  let socketState: LinkState = 'connecting';
  const status = (): LinkStatus => {
    const refused = refusals.names();
    return { state: socketState === 'live' && refused.length > 0 ? 'refused' : socketState, refused };
  };
  const publish = (): void => stateListeners.forEach((listener) => listener(status()));
  const refusals = new Refusals(publish);
  const setState = (state: LinkState): void => {
    socketState = state;
    publish();
  };
  let connectedBefore = false;

  // A browser keeps a WebSocket open through a lost network (Chromium holds its frames until the
  // network is back), and graphql-ws's keep-alive pings wait for no pong: the socket is dropped
  // when the browser says it is offline or a pong is late, and tried again once it is online.
  let pongDue: ReturnType<typeof setTimeout> | undefined;
  const ws: Client = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    // Read at each (re)connection: the server closes a socket when its token expires (4403), and
    // the retry opens it again with the renewed one.
    // The device too, so that while this tab listens the server tells it here and does not push it.
    connectionParams: () => ({ authorization: `Bearer ${token()}`, device: deviceId() }),
    // Mobile-style: keep trying for as long as the page is open, with graphql-ws's backoff (capped
    // at about half a minute), and at once when the browser is online again.
    retryAttempts: Number.MAX_SAFE_INTEGER,
    shouldRetry: () => true,
    retryWait: (retries) => untilOnline(2 ** Math.min(retries, 5) * 1000 + 300 + Math.random() * 2700),
    keepAlive: 10_000,
    lazy: false,
    on: {
      connecting: () => setState('connecting'),
      connected: () => {
        setState('live');
        if (connectedBefore) reconnectListeners.forEach((listener) => listener());
        connectedBefore = true;
      },
      closed: () => {
        clearTimeout(pongDue);
        setState('offline');
      },
      ping: (received) => {
        if (!received) pongDue = setTimeout(() => ws.terminate(), PONG_WAIT_MS);
      },
      pong: (received) => {
        if (received) clearTimeout(pongDue);
      },
    },
  });
  const wentOffline = (): void => ws.terminate();
  window.addEventListener('offline', wentOffline);

  const http = new HttpLink({ uri: '/graphql' });
  const bearer = new ApolloLink((operation, forward) => {
    operation.setContext(({ headers }: { headers?: Record<string, string> }) => ({
      headers: { ...headers, authorization: `Bearer ${token()}` },
    }));
    return forward(operation);
  });
  // Over HTTP the app sends only the hash of each operation: every one of them is in the
  // server's trusted manifest (codegen writes both), so the server runs it on its fast path for
  // registered documents, and a server with TRUSTED_DOCUMENTS=require accepts it.
  const registered = new PersistedQueryLink({ generateHash: registeredHash });
  // Over the WebSocket too: by hash (subscriptions.ts).
  const link = ApolloLink.split(
    ({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION,
    registeredSubscriptions(ws, refusals),
    ApolloLink.from([bearer, registered, http]),
  );
  const client = new ApolloClient({
    link,
    cache: new InMemoryCache(),
    // A notice means "ask again": a pull asked for while the same query is on the way must not
    // be answered with that request's reply, which may be from before the change.
    queryDeduplication: false,
    // Redis is the source of truth: pages ask it, and show what it said last while they wait.
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
    // A request carries the operation's hash and variables, not Apollo's name and version too.
    enhancedClientAwareness: { transport: false },
  });

  return {
    client,
    onState(listener) {
      stateListeners.add(listener);
      listener(status());
      return () => stateListeners.delete(listener);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    dispose() {
      window.removeEventListener('offline', wentOffline);
      client.stop();
      void ws.dispose();
    },
  };
}

const PONG_WAIT_MS = 5_000;

/** Waits `ms` (the backoff), or while the browser is offline, until it is online again. */
function untilOnline(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      resolve();
    };
    const timer = navigator.onLine ? setTimeout(done, ms) : undefined;
    window.addEventListener('online', done);
  });
}
