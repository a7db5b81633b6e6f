// An operator counts by hand (updateCounter is for service callers): handy for a demo, and a
// way to see the notice come back and the chart move.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { AppUpdateCounterDocument } from '../../ops';
import { ErrorLine } from '../../errors';

/** The server's default COUNTER_MAX_INCREMENT; a server set lower answers BAD_USER_INPUT. */
const MAX_INCREMENT = 1_000_000;

export function CountForm({ suggested, onCounted }: { suggested: string; onCounted: (name: string) => void }) {
  const [name, setName] = useState('');
  const [count, setCount] = useState('1');
  const [update, { error, loading }] = useMutation(AppUpdateCounterDocument);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const counter = (name.trim() || suggested).normalize('NFC');
    update({ variables: { name: counter, count: Number(count) } }).then(
      () => onCounted(counter),
      () => undefined, // shown by ErrorLine
    );
  };
  return (
    <form className="inline panel" onSubmit={submit} aria-label="Count">
      <label>
        Counter to count{' '}
        <input
          value={name}
          placeholder={suggested}
          maxLength={128}
          required={suggested === ''}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label>
        By{' '}
        <input
          type="number"
          value={count}
          min={-MAX_INCREMENT}
          max={MAX_INCREMENT}
          step={1}
          required
          onChange={(e) => setCount(e.target.value)}
        />
      </label>
      <button type="submit" disabled={loading || Number(count) === 0}>
        Count
      </button>
      <ErrorLine error={error} />
    </form>
  );
}
