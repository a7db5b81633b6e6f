// How long to hold a lease and how long to wait for one: the same two fields for a lock and a
// semaphore slot, with the server's bounds.
import { HOLD_MAX_MS, WAIT_MAX_MS } from './limits';

export function TimingFields(props: {
  holdMs: number;
  setHoldMs: (ms: number) => void;
  waitMs: number;
  setWaitMs: (ms: number) => void;
}) {
  return (
    <>
      <label>
        Hold for (ms)
        <input
          type="number"
          min={1}
          max={HOLD_MAX_MS}
          required
          value={props.holdMs}
          onChange={(e) => props.setHoldMs(e.target.valueAsNumber)}
        />
      </label>
      <label>
        Wait up to (ms)
        <input
          type="number"
          min={0}
          max={WAIT_MAX_MS}
          required
          value={props.waitMs}
          onChange={(e) => props.setWaitMs(e.target.valueAsNumber)}
        />
      </label>
    </>
  );
}
