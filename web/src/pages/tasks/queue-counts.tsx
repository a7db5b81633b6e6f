// A queue's counts by state, and whether its workers may take tasks (pause / resume).
import type { AppQueueCountsFragment } from '../../ops';

export function QueueCounts({
  counts,
  onPause,
}: {
  counts: AppQueueCountsFragment;
  onPause: (paused: boolean) => void;
}) {
  const waiting = counts.waitingHigh + counts.waitingNormal + counts.waitingLow;
  const cells: { key: string; label: string; value: number; detail?: string }[] = [
    {
      key: 'waiting',
      label: 'Waiting',
      value: waiting,
      detail: `high ${counts.waitingHigh} · normal ${counts.waitingNormal} · low ${counts.waitingLow}`,
    },
    { key: 'delayed', label: 'Delayed', value: counts.delayed },
    { key: 'active', label: 'Active', value: counts.active },
    { key: 'completed', label: 'Completed', value: counts.completed },
    { key: 'failed', label: 'Failed', value: counts.failed },
    { key: 'cancelled', label: 'Cancelled', value: counts.cancelled },
  ];
  return (
    <div className="panel queue-counts">
      <div className="queue-head">
        <strong>{counts.name}</strong>
        <span className={counts.paused ? 'state paused' : 'state running'} data-testid="queue-paused">
          {counts.paused ? 'paused' : 'running'}
        </span>
        {counts.paused ? (
          <button type="button" onClick={() => onPause(false)}>
            Resume
          </button>
        ) : (
          <button type="button" onClick={() => onPause(true)}>
            Pause
          </button>
        )}
      </div>
      <table aria-label="Tasks by state">
        <thead>
          <tr>
            {cells.map((cell) => (
              <th key={cell.key} scope="col">
                {cell.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {cells.map((cell) => (
              <td key={cell.key}>
                <span className="count" data-testid={`count-${cell.key}`}>
                  {cell.value}
                </span>
                {cell.detail && <div className="muted small">{cell.detail}</div>}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <p className="muted small">
        Waiting, delayed and active are tasks there now; completed, failed and cancelled are totals since the queue
        began (a retried task stays counted as failed once).
      </p>
    </div>
  );
}
