// Who holds a lock or semaphore, as the server last said, with this tab's own leases marked:
// their secret (the lock token or slot id, which releases them) and buttons to refresh or
// release them. A lease of this tab that the server no longer lists is forgotten, with a note.
import { useEffect, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import {
  AppRefreshLockDocument,
  AppRefreshSemaphoreDocument,
  AppReleaseLockDocument,
  AppReleaseSemaphoreDocument,
  type AppSemaphoreQuery,
} from '../../ops';
import { ErrorLine } from '../../errors';
import { held, useHeld, type HeldLease, type LeaseKind } from './held';
import { clockTime, seconds } from './format';

type Holder = AppSemaphoreQuery['semaphore']['holders'][number];

interface Props {
  kind: LeaseKind;
  name: string;
  holders: readonly Holder[];
  /** Of the state these holders came from: a lease granted after it may not be listed yet. */
  lastFencingToken: number | null;
  /** Pull the state again. */
  pull: () => void;
}

export function Holders({ kind, name, holders, lastFencingToken, pull }: Props) {
  const mine = useHeld(kind, name);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [releaseLock] = useMutation(AppReleaseLockDocument);
  const [releaseSemaphore] = useMutation(AppReleaseSemaphoreDocument);
  const [refreshLock] = useMutation(AppRefreshLockDocument);
  const [refreshSemaphore] = useMutation(AppRefreshSemaphoreDocument);
  const slot = kind === 'lock' ? 'Lock' : 'Slot';

  // A lease granted at or before the state's last grant and missing from its holders is gone.
  useEffect(() => {
    const listed = new Set(holders.map((holder) => holder.fencingToken));
    const gone = mine.filter(
      (lease) => lastFencingToken !== null && lease.fencingToken <= lastFencingToken && !listed.has(lease.fencingToken),
    );
    if (gone.length === 0) return;
    gone.forEach((lease) => held.forget(lease));
    setNote(
      `${slot} with fencing token ${gone.map((lease) => lease.fencingToken).join(', ')} is no longer held (released elsewhere or lapsed).`,
    );
  }, [holders, lastFencingToken, mine, slot]);

  const release = async (lease: HeldLease): Promise<void> => {
    setError(null);
    try {
      const freed =
        kind === 'lock'
          ? (await releaseLock({ variables: { name, token: lease.secret } })).data?.releaseLock
          : (await releaseSemaphore({ variables: { name, id: lease.secret } })).data?.releaseSemaphore;
      held.forget(lease);
      setNote(
        freed
          ? `Released ${slot.toLowerCase()} with fencing token ${lease.fencingToken}.`
          : `${slot} with fencing token ${lease.fencingToken} had already lapsed.`,
      );
    } catch (e) {
      setError(e);
    }
    pull();
  };

  const refresh = async (lease: HeldLease): Promise<void> => {
    setError(null);
    try {
      const fresh =
        kind === 'lock'
          ? (await refreshLock({ variables: { name, token: lease.secret } })).data?.refreshLock
          : (await refreshSemaphore({ variables: { name, id: lease.secret } })).data?.refreshSemaphore;
      if (fresh) {
        held.keep({ ...lease, expiresAt: fresh.expiresAt });
        setNote(`Refreshed fencing token ${lease.fencingToken}: held until ${clockTime(fresh.expiresAt)}.`);
      } else {
        held.forget(lease);
        setNote(`${slot} with fencing token ${lease.fencingToken} was lost (it lapsed): stop using it.`);
      }
    } catch (e) {
      setError(e);
    }
    pull();
  };

  const ownOf = (token: number): HeldLease | undefined => mine.find((lease) => lease.fencingToken === token);
  return (
    <>
      {holders.length === 0 ? (
        <p className="muted">Nobody holds it.</p>
      ) : (
        <table aria-label="Holders">
          <thead>
            <tr>
              <th>Fencing token</th>
              <th>Owner</th>
              <th>Expires</th>
              <th>Time left</th>
              <th>{kind === 'lock' ? 'Token' : 'Slot id'} (this tab's)</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {holders.map((holder) => {
              const own = ownOf(holder.fencingToken);
              return (
                <tr key={holder.fencingToken} data-testid="holder">
                  <td>{holder.fencingToken}</td>
                  <td>{holder.owner}</td>
                  <td>{clockTime(holder.expiresAt)}</td>
                  <td>{seconds(holder.timeLeftMs)}</td>
                  <td>
                    {own ? <code className="secret">{own.secret}</code> : <span className="muted">elsewhere</span>}
                  </td>
                  <td>
                    {own && (
                      <span className="actions">
                        <button type="button" onClick={() => void refresh(own)}>
                          Refresh {holder.fencingToken}
                        </button>
                        <button type="button" onClick={() => void release(own)}>
                          Release {holder.fencingToken}
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {note !== null && (
        <p role="status" data-testid="holders-note">
          {note}
        </p>
      )}
      <ErrorLine error={error} />
    </>
  );
}
