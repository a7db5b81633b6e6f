// The charted numbers in words: per counter, the total over the window, its newest step with
// counts, and its peak, so that nobody has to read values off a canvas.
import type { CounterAggregation } from '../../ops';
import type { Series } from './series';

export function NumbersTable({ series, aggregation }: { series: Series[]; aggregation: CounterAggregation }) {
  return (
    <table className="numbers">
      <caption className="muted">
        {aggregation} per step; the total adds up the steps of the window
        {aggregation === 'SUM' ? '' : ' (for SUM only)'}.
      </caption>
      <thead>
        <tr>
          <th scope="col">Counter</th>
          <th scope="col">Total in window</th>
          <th scope="col">Latest step with counts</th>
          <th scope="col">Peak step</th>
          <th scope="col">Slices of</th>
        </tr>
      </thead>
      <tbody>
        {series.map((one) => {
          const latest = [...one.points].reverse().find((point) => point.value !== 0);
          const peak = one.points.reduce((max, point) => Math.max(max, point.value), 0);
          const total = one.points.reduce((sum, point) => sum + point.value, 0);
          return (
            <tr key={one.name} data-testid={`numbers ${one.name}`}>
              <th scope="row">{one.name}</th>
              <td data-testid="total">{aggregation === 'SUM' ? format(total) : '—'}</td>
              <td>
                <span data-testid="latest">{latest === undefined ? '—' : format(latest.value)}</span>
                {latest !== undefined && <span className="muted"> at {clock(latest.time)}</span>}
              </td>
              <td data-testid="peak">{format(peak)}</td>
              <td className="muted">{one.precision} s</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function clock(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleTimeString();
}
