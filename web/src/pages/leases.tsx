// Locks & semaphores for operators: look one up by name, see its holders live (a release is
// announced; expiries are not, so the page also reads again every few seconds), acquire and
// release from here, and release a lease held elsewhere by its secret.
import { useState, type FormEvent } from 'react';
import { useSession } from '../context';
import { LockView } from './leases/lock';
import { SemaphoreView } from './leases/semaphore';
import { ReleaseForm } from './leases/release-form';
import { OperatorOnly } from './leases/operator';
import { NAME_MAX } from './leases/limits';
import type { LeaseKind } from './leases/held';
import './leases.css';

export function LeasesPage() {
  const session = useSession();
  const [kind, setKind] = useState<LeaseKind>('semaphore');
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ kind: LeaseKind; name: string } | null>(null);

  if (!session.service) {
    return (
      <>
        <h2>Locks & semaphores</h2>
        <OperatorOnly />
      </>
    );
  }

  const lookUp = (event: FormEvent): void => {
    event.preventDefault();
    setShown({ kind, name: name.normalize('NFC') });
  };

  return (
    <>
      <h2>Locks & semaphores</h2>
      <form className="inline" onSubmit={lookUp} aria-label="Look up">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as LeaseKind)}>
            <option value="semaphore">semaphore</option>
            <option value="lock">lock</option>
          </select>
        </label>
        <label>
          Name
          <input value={name} maxLength={NAME_MAX} required onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit">Look up</button>
      </form>
      {shown === null ? (
        <p className="muted">Look up a lock or a semaphore by name to see who holds it.</p>
      ) : shown.kind === 'lock' ? (
        <LockView key={`lock:${shown.name}`} name={shown.name} />
      ) : (
        <SemaphoreView key={`semaphore:${shown.name}`} name={shown.name} />
      )}
      <ReleaseForm
        key={shown ? `${shown.kind}:${shown.name}` : ''}
        kind={shown?.kind ?? kind}
        name={shown?.name ?? ''}
      />
    </>
  );
}
