// One queue: its counts, a page of its tasks in one state, and what an operator may do to them.
// Notices come per task (taskChanged): the page watches the tasks it lists and those it acted
// on, and pulls counts and the page again on a notice (throttled), after the socket is back,
// and every few seconds, since no notice tells of a task being added.
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import {
  AppCancelTaskDocument,
  AppPauseQueueDocument,
  AppQueueDocument,
  AppRemoveTaskDocument,
  AppResumeQueueDocument,
  AppRetryTaskDocument,
  AppTaskChangedDocument,
  AppTasksDocument,
  type TaskOrder,
  type TaskState,
} from '../../ops';
import { useReconnect } from '../../context';
import { ErrorLine } from '../../errors';
import { useThrottledPull } from '../throttled-pull';
import { QueueCounts } from './queue-counts';
import { TaskTable, type TaskAction } from './task-table';

/** Tasks per page; each listed task holds a subscription, and a socket runs 50 operations at most. */
const PAGE = 20;
/** Tasks acted on that stay watched after they leave the page (a retried task runs again). */
const KEEP_ACTED = 5;
/** How often counts and the page are read again without a notice: new tasks announce nothing. */
const REFRESH_MS = 5000;

const STATES: { state: TaskState; label: string }[] = [
  { state: 'WAITING', label: 'Waiting' },
  { state: 'DELAYED', label: 'Delayed' },
  { state: 'ACTIVE', label: 'Active' },
  { state: 'FAILED', label: 'Failed' },
  { state: 'COMPLETED', label: 'Completed' },
  { state: 'CANCELLED', label: 'Cancelled' },
];

export function QueueDashboard({ queue }: { queue: string }) {
  const [state, setState] = useState<TaskState>('WAITING');
  const [order, setOrder] = useState<TaskOrder>('OLDEST_FIRST');
  // The cursors of the pages walked so far: Previous goes back one, a new state or order restarts.
  const [afters, setAfters] = useState<(string | null)[]>([null]);
  const [acted, setActed] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<{ error?: unknown; note?: string }>({});
  const stats = useQuery(AppQueueDocument, { variables: { name: queue } });
  const page = useQuery(AppTasksDocument, {
    variables: { queue, state, order, first: PAGE, after: afters[afters.length - 1] },
  });
  const [pause] = useMutation(AppPauseQueueDocument);
  const [resume] = useMutation(AppResumeQueueDocument);
  const [retry] = useMutation(AppRetryTaskDocument);
  const [cancel] = useMutation(AppCancelTaskDocument);
  const [remove] = useMutation(AppRemoveTaskDocument);

  // Errors of a pull show through the queries' `error`; the rejection itself is not news.
  const pull = (): void => {
    stats.refetch().catch(() => undefined);
    page.refetch().catch(() => undefined);
  };
  const notice = useThrottledPull(pull, 1000);
  useReconnect(pull);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') notice();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [notice]);

  const choose = (next: { state?: TaskState; order?: TaskOrder }): void => {
    if (next.state) setState(next.state);
    if (next.order) setOrder(next.order);
    setAfters([null]);
  };
  const act = async (action: TaskAction, id: string): Promise<void> => {
    setActed((previous) => [id, ...previous.filter((other) => other !== id)].slice(0, KEEP_ACTED));
    setOutcome({});
    try {
      const variables = { variables: { id } };
      if (action === 'retry') {
        const { data } = await retry(variables);
        if (data?.retryTask === null) setOutcome({ note: `${id} is gone (finished tasks are forgotten in time)` });
      } else if (action === 'cancel') {
        const { data } = await cancel(variables);
        if (data?.cancelTask === false) setOutcome({ note: `${id} had started or finished: not cancelled` });
      } else {
        const { data } = await remove(variables);
        if (data?.removeTask === false) setOutcome({ note: `${id} is gone already` });
      }
    } catch (error) {
      setOutcome({ error });
    }
    pull();
  };
  const setPaused = async (paused: boolean): Promise<void> => {
    setOutcome({});
    try {
      await (paused ? pause : resume)({ variables: { name: queue } });
    } catch (error) {
      setOutcome({ error });
    }
    pull();
  };

  const tasks = page.data?.tasks;
  const listed = tasks?.tasks.map((task) => task.id) ?? [];
  const watched = [...new Set([...listed, ...acted])];
  return (
    <section aria-label={`Queue ${queue}`}>
      <ErrorLine error={stats.error} />
      {stats.data && <QueueCounts counts={stats.data.queue} onPause={(paused) => void setPaused(paused)} />}
      <ErrorLine error={outcome.error} />
      {outcome.note && (
        <p className="muted" role="status">
          {outcome.note}
        </p>
      )}
      <div className="tabs" role="tablist" aria-label="Task state">
        {STATES.map(({ state: one, label }) => (
          <button
            key={one}
            type="button"
            role="tab"
            aria-selected={one === state}
            onClick={() => choose({ state: one })}
          >
            {label}
          </button>
        ))}
        <label className="order">
          Order{' '}
          <select value={order} onChange={(e) => choose({ order: e.target.value as TaskOrder })}>
            <option value="OLDEST_FIRST">oldest first</option>
            <option value="NEWEST_FIRST">newest first</option>
          </select>
        </label>
      </div>
      <div role="tabpanel" aria-label={`${STATES.find((s) => s.state === state)!.label} tasks`}>
        <ErrorLine error={page.error} />
        {tasks && <TaskTable state={state} tasks={tasks.tasks} onAct={(action, id) => void act(action, id)} />}
        <nav className="pager" aria-label="Pages">
          <button type="button" disabled={afters.length === 1} onClick={() => setAfters(afters.slice(0, -1))}>
            Previous page
          </button>
          <button
            type="button"
            disabled={!tasks?.hasMore || !tasks.cursor}
            onClick={() => setAfters([...afters, tasks!.cursor!])}
          >
            Next page
          </button>
          <span className="muted">Page {afters.length}</span>
        </nav>
      </div>
      {watched.map((id) => (
        <TaskNotices key={id} id={id} onNotice={notice} />
      ))}
    </section>
  );
}

/** A notice says only that the task changed: the page pulls (throttled). */
function TaskNotices({ id, onNotice }: { id: string; onNotice: () => void }) {
  const { error } = useSubscription(AppTaskChangedDocument, {
    variables: { id },
    fetchPolicy: 'no-cache',
    onData: () => onNotice(),
  });
  return <ErrorLine error={error} />;
}
