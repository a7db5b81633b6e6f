// What every page may use: the session (who is signed in) and the live connection.
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { Connection, LinkStatus } from './apollo';
import type { Session } from './session';

export const SessionContext = createContext<{ session: Session; connection: Connection } | null>(null);

function useApp(): { session: Session; connection: Connection } {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('outside a signed-in app');
  return value;
}

export function useSession(): Session {
  return useApp().session;
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
