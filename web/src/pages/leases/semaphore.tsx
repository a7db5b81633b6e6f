// One semaphore: its limit, holders and waiters, live, and a form to take a slot from here.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { AppAcquireSemaphoreDocument, AppSemaphoreDocument, AppSemaphoreReleasedDocument } from '../../ops';
import { useReconnect } from '../../context';
import { Holders } from './holders';
import { held } from './held';
import { clockTime } from './format';
import { LeaseError } from './operator';
import { TimingFields } from './timing-fields';
import { HOLD_DEFAULT_MS, LIMIT_MAX, PULL_EVERY_MS } from './limits';

type Outcome = { acquired: true; fencingToken: number; expiresAt: number } | { acquired: false; limit: number };

export function SemaphoreView({ name }: { name: string }) {
  const { data, error, refetch } = useQuery(AppSemaphoreDocument, {
    variables: { name },
    pollInterval: PULL_EVERY_MS,
  });
  const pull = (): void => void refetch().catch(() => undefined);
  useSubscription(AppSemaphoreReleasedDocument, { variables: { name }, onData: pull });
  useReconnect(pull);
  const state = data?.semaphore;

  return (
    <section className="panel lease" aria-label={`Semaphore ${name}`}>
      <h3>Semaphore “{name}”</h3>
      {state && (
        <p data-testid="lease-summary">
          {state.holders.length} of {state.limit ?? '–'} slots held · {state.waiting} waiting · last fencing token{' '}
          {state.lastFencingToken ?? 'none'}
        </p>
      )}
      <LeaseError error={error} />
      {state && (
        <Holders
          kind="semaphore"
          name={name}
          holders={state.holders}
          lastFencingToken={state.lastFencingToken}
          pull={pull}
        />
      )}
      <AcquireSlot name={name} lastLimit={state?.limit ?? null} pull={pull} />
    </section>
  );
}

function AcquireSlot({ name, lastLimit, pull }: { name: string; lastLimit: number | null; pull: () => void }) {
  const [limit, setLimit] = useState<number | null>(null);
  const [holdMs, setHoldMs] = useState(HOLD_DEFAULT_MS);
  const [waitMs, setWaitMs] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [acquire, { loading, error }] = useMutation(AppAcquireSemaphoreDocument);
  const shownLimit = limit ?? lastLimit ?? 1;

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setOutcome(null);
    try {
      const { data } = await acquire({ variables: { name, limit: shownLimit, timeoutMs: holdMs, waitMs } });
      const lease = data?.acquireSemaphore;
      if (lease) {
        held.keep({
          kind: 'semaphore',
          name,
          secret: lease.id,
          fencingToken: lease.fencingToken,
          expiresAt: lease.expiresAt,
        });
        setOutcome({ acquired: true, fencingToken: lease.fencingToken, expiresAt: lease.expiresAt });
      } else {
        setOutcome({ acquired: false, limit: shownLimit });
      }
    } catch {
      // Shown by the mutation's error.
    }
    pull();
  };

  return (
    <form className="inline" onSubmit={(e) => void submit(e)} aria-label="Acquire a slot">
      <label>
        Limit
        <input
          type="number"
          min={1}
          max={LIMIT_MAX}
          required
          value={shownLimit}
          onChange={(e) => setLimit(e.target.valueAsNumber)}
        />
      </label>
      <TimingFields holdMs={holdMs} setHoldMs={setHoldMs} waitMs={waitMs} setWaitMs={setWaitMs} />
      <button type="submit" disabled={loading}>
        {loading && waitMs > 0 ? 'Waiting for a slot…' : 'Acquire slot'}
      </button>
      {outcome && (
        <p role="status" data-testid="lease-outcome" className={outcome.acquired ? 'ok' : 'refused'}>
          {outcome.acquired
            ? `Acquired: fencing token ${outcome.fencingToken}, held until ${clockTime(outcome.expiresAt)} unless refreshed.`
            : `Not acquired: all ${outcome.limit} slots are held (or callers wait ahead).`}
        </p>
      )}
      <LeaseError error={error} />
    </form>
  );
}
