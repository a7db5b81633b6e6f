// Releases a lease held elsewhere (another tab, a process that logged its token and died) by
// its secret: the lock's token or the semaphore slot's id, the only thing that frees it.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { AppReleaseLockDocument, AppReleaseSemaphoreDocument } from '../../ops';
import { held, type LeaseKind } from './held';
import { LeaseError } from './operator';
import { NAME_MAX } from './limits';

/** Tokens and ids are 128 random bits in hex; a little room for other formats. */
const SECRET_MAX = 64;

export function ReleaseForm({ kind: initialKind, name: initialName }: { kind: LeaseKind; name: string }) {
  const [kind, setKind] = useState<LeaseKind>(initialKind);
  const [name, setName] = useState(initialName);
  const [secret, setSecret] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [releaseLock, lockCall] = useMutation(AppReleaseLockDocument);
  const [releaseSemaphore, semaphoreCall] = useMutation(AppReleaseSemaphoreDocument);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setOutcome(null);
    setError(null);
    const given = secret.trim();
    try {
      const freed =
        kind === 'lock'
          ? (await releaseLock({ variables: { name, token: given } })).data?.releaseLock
          : (await releaseSemaphore({ variables: { name, id: given } })).data?.releaseSemaphore;
      held.forget({ kind, name, secret: given });
      setOutcome(
        freed
          ? `Released the ${kind === 'lock' ? 'lock' : 'slot'} of “${name}”.`
          : `Nothing released: no such ${kind === 'lock' ? 'token' : 'slot id'} holds “${name}” (wrong, or already lapsed).`,
      );
      setSecret('');
    } catch (e) {
      setError(e);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Release by token or id" className="panel">
      <h3>Release a lease held elsewhere</h3>
      <div className="row">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as LeaseKind)}>
            <option value="lock">lock</option>
            <option value="semaphore">semaphore</option>
          </select>
        </label>
        <label>
          Name of the lease
          <input value={name} maxLength={NAME_MAX} required onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="grow">
          Token or slot id
          <input
            value={secret}
            maxLength={SECRET_MAX}
            required
            spellCheck={false}
            onChange={(e) => setSecret(e.target.value)}
          />
        </label>
        <button type="submit" disabled={lockCall.loading || semaphoreCall.loading}>
          Release
        </button>
      </div>
      {outcome !== null && (
        <p role="status" data-testid="release-outcome">
          {outcome}
        </p>
      )}
      <LeaseError error={error} />
    </form>
  );
}
