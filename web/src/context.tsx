// What every page may use: the session (who is signed in), the live connection, and what the
// server offers (session.json).
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { Connection, LinkStatus } from './apollo';
import type { ServerInfo, Session } from './session';

interface AppContext {
  session: Session;
  connection: Connection;
  server: ServerInfo;
}

export const SessionContext = createContext<AppContext | null>(null);

function useApp(): AppContext {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('outside a signed-in app');
  return value;
}

export function useSession(): Session {
  return useApp().session;
}

export function useServerInfo(): ServerInfo {
  return useApp().server;
}

/** Runs `pull` each time the WebSocket is back after a drop (notices sent meanwhile were missed). */
export function useReconnect(pull: () => void): void {
  const { connection } = useApp();
  const latest = useRef(pull);
  latest.current = pull;
  useEffect(() => connection.onReconnect(() => latest.current()), [connection]);
}

export function useLinkState(): LinkStatus {
  const { connection } = useApp();
  const [status, setStatus] = useState<LinkStatus>({ state: 'connecting', refused: [] });
  useEffect(() => connection.onState(setStatus), [connection]);
  return status;
}
