// A page of tasks in one state, with what may be done to each: retry a FAILED one, cancel one
// that has not started, remove a finished one.
import type { AppTaskRowFragment, TaskState } from '../../ops';

export type TaskAction = 'retry' | 'cancel' | 'remove';

const ACTIONS: Record<TaskState, { action: TaskAction; label: string }[]> = {
  WAITING: [{ action: 'cancel', label: 'Cancel' }],
  DELAYED: [{ action: 'cancel', label: 'Cancel' }],
  ACTIVE: [],
  FAILED: [
    { action: 'retry', label: 'Retry' },
    { action: 'remove', label: 'Remove' },
  ],
  COMPLETED: [{ action: 'remove', label: 'Remove' }],
  CANCELLED: [{ action: 'remove', label: 'Remove' }],
};
/** Long errors and progress reports are cut on screen; the API keeps them whole. */
const ERROR_SHOWN = 200;
const PROGRESS_SHOWN = 80;

export function TaskTable({
  state,
  tasks,
  onAct,
}: {
  state: TaskState;
  tasks: AppTaskRowFragment[];
  onAct: (action: TaskAction, id: string) => void;
}) {
  if (tasks.length === 0) return <p className="muted">No {state.toLowerCase()} tasks on this page.</p>;
  const finished = state === 'COMPLETED' || state === 'FAILED' || state === 'CANCELLED';
  return (
    <table className="tasks">
      <thead>
        <tr>
          <th scope="col">Id</th>
          <th scope="col">Name</th>
          <th scope="col">State</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last error</th>
          <th scope="col">Progress</th>
          <th scope="col">{finished ? 'Finished' : 'Runs at'}</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => {
          const when = finished ? task.finishedAt : task.runAt;
          return (
            <tr key={task.id} data-testid={`task ${task.id}`}>
              <th scope="row">{task.id}</th>
              <td>
                {task.name}
                {task.priority !== 'NORMAL' && <span className="muted"> ({task.priority.toLowerCase()})</span>}
              </td>
              <td data-testid="state">{task.state}</td>
              <td data-testid="attempts">
                {task.attempts} / {task.maxAttempts}
                {task.retries > 0 && <span className="muted"> ({task.retries} retried)</span>}
              </td>
              <td className="task-error" data-testid="error">
                {cut(task.error ?? '', ERROR_SHOWN)}
              </td>
              <td data-testid="progress">
                {task.progress === null || task.progress === undefined
                  ? ''
                  : cut(JSON.stringify(task.progress), PROGRESS_SHOWN)}
              </td>
              <td>{when === null ? '' : new Date(when * 1000).toLocaleString()}</td>
              <td className="actions">
                {ACTIONS[task.state].map(({ action, label }) => (
                  <button key={action} type="button" onClick={() => onAct(action, task.id)}>
                    {label}
                  </button>
                ))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function cut(text: string, most: number): string {
  const chars = [...text];
  return chars.length <= most ? text : `${chars.slice(0, most).join('')}…`;
}
