// Task queue dashboard, for operators: pick a queue, see its counts by state and its tasks, pause
// or resume it, retry, cancel or remove tasks. The task operations are for service callers only,
// so other users are told how to get in rather than shown FORBIDDEN.
import { useState, type FormEvent } from 'react';
import { useSession } from '../context';
import { QueueDashboard } from './tasks/dashboard';
import { QUEUE_NAME_MAX, recentQueues, rememberQueue } from './tasks/recent';
import './tasks/tasks.css';

export function TasksPage() {
  const session = useSession();
  if (!session.service) {
    return (
      <>
        <h2>Tasks</h2>
        <p className="panel" role="note">
          Task queues are for operators: sign in as operator (service role) to see and manage them.
        </p>
      </>
    );
  }
  return <Queues />;
}

function Queues() {
  const [recent, setRecent] = useState(recentQueues);
  const [queue, setQueue] = useState<string | null>(recent[0] ?? null);
  const [typed, setTyped] = useState('');
  const open = (name: string): void => {
    setRecent(rememberQueue(name));
    setQueue(name);
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const name = typed.trim().normalize('NFC');
    if (name === '') return;
    open(name);
    setTyped('');
  };
  return (
    <>
      <h2>Tasks</h2>
      <form className="inline" onSubmit={submit} aria-label="Open a queue">
        <label>
          Queue <input value={typed} maxLength={QUEUE_NAME_MAX} required onChange={(e) => setTyped(e.target.value)} />
        </label>
        <button type="submit">Open</button>
        {recent.length > 0 && (
          <span className="recent" aria-label="Recent queues" role="group">
            <span className="muted">Recent:</span>
            {recent.map((name) => (
              <button
                key={name}
                type="button"
                aria-pressed={name === queue}
                onClick={() => open(name)}
                className="link-button"
              >
                {name}
              </button>
            ))}
          </span>
        )}
      </form>
      {queue === null ? (
        <p className="muted">Name a queue to see its tasks.</p>
      ) : (
        <QueueDashboard key={queue} queue={queue} />
      )}
    </>
  );
}
