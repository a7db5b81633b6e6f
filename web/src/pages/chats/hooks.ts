// Small hooks for notices: the latest callback, and pulls that never ride on an earlier request.
import { useCallback, useEffect, useRef, type RefObject } from 'react';

/** A ref to the latest `value`, for callbacks that effects and notices call later. */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

/**
 * Runs `pull` after each call, one at a time: a call while one runs gets one more run after it,
 * which starts after the call and so sees what the call was told of.
 */
export function useSerialPull(pull: () => Promise<unknown>): () => void {
  const latest = useLatest(pull);
  const state = useRef({ running: false, again: false });
  return useCallback(() => {
    const now = state.current;
    if (now.running) {
      now.again = true;
      return;
    }
    now.running = true;
    void (async () => {
      do {
        now.again = false;
        // A failed pull shows on the query's own error; the next notice pulls again.
        await latest.current().catch(() => undefined);
      } while (now.again);
      now.running = false;
    })();
  }, [latest]);
}
