// One lock: its holder and waiters, live, and a form to take it from here.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { AppAcquireLockDocument, AppLockDocument, AppLockReleasedDocument } from '../../ops';
import { useReconnect } from '../../context';
import { Holders } from './holders';
import { held } from './held';
import { clockTime } from './format';
import { LeaseError } from './operator';
import { TimingFields } from './timing-fields';
import { HOLD_DEFAULT_MS, PULL_EVERY_MS } from './limits';

type Outcome = { acquired: true; fencingToken: number; expiresAt: number } | { acquired: false; waitedMs: number };

export function LockView({ name }: { name: string }) {
  const { data, error, refetch } = useQuery(AppLockDocument, { variables: { name }, pollInterval: PULL_EVERY_MS });
  const pull = (): void => void refetch().catch(() => undefined);
  useSubscription(AppLockReleasedDocument, { variables: { name }, onData: pull });
  useReconnect(pull);
  const state = data?.lock;

  return (
    <section className="panel lease" aria-label={`Lock ${name}`}>
      <h3>Lock “{name}”</h3>
      {state && (
        <p data-testid="lease-summary">
          {state.holder ? 'Held' : 'Free'} · {state.waiting} waiting · last fencing token{' '}
          {state.lastFencingToken ?? 'none'}
        </p>
      )}
      <LeaseError error={error} />
      {state && (
        <Holders
          kind="lock"
          name={name}
          holders={state.holder ? [state.holder] : []}
          lastFencingToken={state.lastFencingToken}
          pull={pull}
        />
      )}
      <AcquireLock name={name} pull={pull} />
    </section>
  );
}

function AcquireLock({ name, pull }: { name: string; pull: () => void }) {
  const [holdMs, setHoldMs] = useState(HOLD_DEFAULT_MS);
  const [waitMs, setWaitMs] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [acquire, { loading, error }] = useMutation(AppAcquireLockDocument);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setOutcome(null);
    try {
      const { data } = await acquire({ variables: { name, lockTimeoutMs: holdMs, acquireTimeoutMs: waitMs } });
      const lock = data?.acquireLock;
      if (lock) {
        held.keep({
          kind: 'lock',
          name,
          secret: lock.token,
          fencingToken: lock.fencingToken,
          expiresAt: lock.expiresAt,
        });
        setOutcome({ acquired: true, fencingToken: lock.fencingToken, expiresAt: lock.expiresAt });
      } else {
        setOutcome({ acquired: false, waitedMs: waitMs });
      }
    } catch {
      // Shown by the mutation's error.
    }
    pull();
  };

  return (
    <form className="inline" onSubmit={(e) => void submit(e)} aria-label="Acquire the lock">
      <TimingFields holdMs={holdMs} setHoldMs={setHoldMs} waitMs={waitMs} setWaitMs={setWaitMs} />
      <button type="submit" disabled={loading}>
        {loading && waitMs > 0 ? 'Waiting for the lock…' : 'Acquire lock'}
      </button>
      {outcome && (
        <p role="status" data-testid="lease-outcome" className={outcome.acquired ? 'ok' : 'refused'}>
          {outcome.acquired
            ? `Acquired: fencing token ${outcome.fencingToken}, held until ${clockTime(outcome.expiresAt)} unless refreshed.`
            : `Not acquired: the lock is held${outcome.waitedMs > 0 ? ` (waited ${outcome.waitedMs} ms)` : ''}.`}
        </p>
      )}
      <LeaseError error={error} />
    </form>
  );
}
