// Notices can come in bursts (a worker settling tasks, a busy counter): each one only says "pull
// again", so a page pulls at once on the first and at most once per interval after it, always
// once more after the last notice of a burst so that the newest state is shown.
import { useCallback, useEffect, useRef } from 'react';

export function useThrottledPull(pull: () => void, intervalMs = 1000): () => void {
  const latest = useRef(pull);
  latest.current = pull;
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current !== null) return; // a pull is due already; it will see this change too
    const run = (): void => {
      timer.current = null;
      last.current = Date.now();
      latest.current();
    };
    const wait = last.current + intervalMs - Date.now();
    if (wait <= 0) run();
    else timer.current = setTimeout(run, wait);
  }, [intervalMs]);
}
