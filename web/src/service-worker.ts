// Messages from the app's service worker (web/sw/sw.ts) to this window: a push came (pages pull
// as on a subscription notice), or a notification was clicked (show its chat).
import { useEffect, useRef } from 'react';
import type { WorkerMessage } from './worker-messages';

/** Calls `listener` with each message the service worker posts to this window while mounted. */
export function useWorkerMessages(listener: (message: WorkerMessage) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    // Absent where service workers are not offered (an insecure origin, some private modes).
    if (!('serviceWorker' in navigator)) return undefined;
    const container = navigator.serviceWorker;
    const heard = (event: MessageEvent<unknown>): void => {
      if (isWorkerMessage(event.data)) latest.current(event.data);
    };
    container.addEventListener('message', heard);
    return () => container.removeEventListener('message', heard);
  }, []);
}

function isWorkerMessage(data: unknown): data is WorkerMessage {
  const type = (data as { type?: unknown } | null)?.type;
  return type === 'pushed' || type === 'open';
}
