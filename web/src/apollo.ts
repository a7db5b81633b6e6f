// One Apollo Client per session: queries and mutations over HTTP, subscriptions over graphql-ws.
// Subscriptions only say that something changed; pages pull the data. When the socket comes
// back after a drop, every page that listens pulls again (onReconnect), so nothing sent while
// the network was down is missed.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { createClient, type Client } from 'graphql-ws';
import { OperationTypeNode } from 'graphql';
import type { Session } from './session';

export type LinkState = 'connecting' | 'live' | 'offline';

export interface Connection {
  client: ApolloClient;
  /** Called with each change of the WebSocket's state. */
  onState(listener: (state: LinkState) => void): () => void;
  /** Called each time the socket is open again after it closed. */
  onReconnect(listener: () => void): () => void;
  dispose(): void;
}

export function connect(session: Session): Connection {
  const stateListeners = new Set<(state: LinkState) => void>();
  const reconnectListeners = new Set<() => void>();
  const setState = (state: LinkState): void => stateListeners.forEach((listener) => listener(state));
  let connectedBefore = false;

  const ws: Client = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: { authorization: `Bearer ${session.token}` },
    // Mobile-style: keep trying for as long as the page is open, with graphql-ws's backoff.
    retryAttempts: Number.MAX_SAFE_INTEGER,
    shouldRetry: () => true,
    keepAlive: 10_000,
    lazy: false,
    on: {
      connecting: () => setState('connecting'),
      connected: () => {
        setState('live');
        if (connectedBefore) reconnectListeners.forEach((listener) => listener());
        connectedBefore = true;
      },
      closed: () => setState('offline'),
    },
  });

  const http = new HttpLink({
    uri: '/graphql',
    headers: { authorization: `Bearer ${session.token}` },
  });
  const link = ApolloLink.split(
    ({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION,
    new GraphQLWsLink(ws),
    http,
  );
  const client = new ApolloClient({
    link,
    cache: new InMemoryCache(),
    // Redis is the source of truth: pages ask it, and show what it said last while they wait.
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
  });

  return {
    client,
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    dispose() {
      client.stop();
      void ws.dispose();
    },
  };
}
