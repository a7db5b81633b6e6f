// Counters page: chosen counters (by name or prefix) over the last 5 minutes, hour or day, a
// chart and the numbers for each; a counter's notice (counterUpdated) makes the page pull the
// series again, and an operator may count from here.
import { useMemo, useState } from 'react';
import { useSubscription } from '@apollo/client/react';
import { AppCounterUpdatedDocument, type CounterAggregation } from '../ops';
import { useSession } from '../context';
import { ErrorLine } from '../errors';
import { CounterChart, type ChartKind } from './counters/chart';
import { CountForm } from './counters/count-form';
import { clock, NumbersTable } from './counters/numbers';
import { CounterPicker } from './counters/picker';
import { useCounterSeries, type Selection, type Series } from './counters/series';
import './counters/counters.css';

/** Steps that divide the default precisions (1, 5, 60, 300, 3600 s...), at most 1,440 per series. */
const WINDOWS = [
  { label: 'last 5 min', seconds: 300, steps: [1, 5, 15, 60], step: 5 },
  { label: 'last 1 h', seconds: 3600, steps: [5, 60, 300], step: 60 },
  { label: 'last 24 h', seconds: 86_400, steps: [60, 300, 900, 3600], step: 900 },
];
const AGGREGATIONS: CounterAggregation[] = ['SUM', 'AVG', 'MAX', 'MIN', 'COUNT'];

export function CountersPage() {
  const session = useSession();
  const [selection, setSelection] = useState<Selection>({ kind: 'names', names: [] });
  const [windowIndex, setWindowIndex] = useState(0);
  const [step, setStep] = useState(WINDOWS[0].step);
  const [aggregation, setAggregation] = useState<CounterAggregation>('SUM');
  const [kind, setKind] = useState<ChartKind>('line');
  const range = WINDOWS[windowIndex];
  const { series, error, notice, pull } = useCounterSeries({
    selection,
    windowSeconds: range.seconds,
    step,
    aggregation,
  });
  const names = selection.kind === 'names' ? selection.names : (series ?? []).map((one) => one.name);
  const counted = (name: string): void => {
    if (selection.kind === 'names' && selection.names.length === 0) setSelection({ kind: 'names', names: [name] });
    else pull();
  };

  return (
    <>
      <h2>Counters</h2>
      <div className="columns">
        <CounterPicker selection={selection} onChange={setSelection} />
        <div className="counters">
          <form className="inline" aria-label="Range" onSubmit={(e) => e.preventDefault()}>
            <label>
              Window{' '}
              <select
                value={windowIndex}
                onChange={(e) => {
                  const index = Number(e.target.value);
                  setWindowIndex(index);
                  setStep(WINDOWS[index].step);
                }}
              >
                {WINDOWS.map((w, index) => (
                  <option key={w.seconds} value={index}>
                    {w.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Step{' '}
              <select value={step} onChange={(e) => setStep(Number(e.target.value))}>
                {range.steps.map((s) => (
                  <option key={s} value={s}>
                    {s < 60 ? `${s} s` : `${s / 60} min`}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Per step{' '}
              <select value={aggregation} onChange={(e) => setAggregation(e.target.value as CounterAggregation)}>
                {AGGREGATIONS.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </label>
            <label>
              Chart{' '}
              <select value={kind} onChange={(e) => setKind(e.target.value as ChartKind)}>
                <option value="line">line</option>
                <option value="bars">bars</option>
              </select>
            </label>
          </form>
          <ErrorLine error={error} />
          {series !== null && series.length === 0 && <p className="muted">Pick counters to chart.</p>}
          {series !== null && series.length > 0 && (
            <>
              <NumbersTable series={series} aggregation={aggregation} />
              {series.map((one) => (
                <CounterFigure key={one.name} series={one} kind={kind} />
              ))}
            </>
          )}
          {session.service ? (
            <CountForm suggested={names[0] ?? ''} onCounted={counted} />
          ) : (
            <p className="muted">Operators (service role) can count from here.</p>
          )}
          {names.map((name) => (
            <CounterNotices key={name} name={name} onNotice={notice} />
          ))}
        </div>
      </div>
    </>
  );
}

function CounterFigure({ series, kind }: { series: Series; kind: ChartKind }) {
  const points = useMemo(
    () => ({ times: series.points.map((p) => p.time), values: series.points.map((p) => p.value) }),
    [series],
  );
  return (
    <figure className="panel" aria-label={series.name}>
      <figcaption>{series.name}</figcaption>
      <CounterChart name={series.name} points={points} kind={kind} />
      {series.retainedFrom > series.start && (
        <p className="muted">
          Steps before {clock(series.retainedFrom)} may be incomplete: {series.precision}-second slices are kept back to
          then.
        </p>
      )}
    </figure>
  );
}

/** A notice says only that the counter changed: the page pulls the series (throttled). */
function CounterNotices({ name, onNotice }: { name: string; onNotice: () => void }) {
  const { error } = useSubscription(AppCounterUpdatedDocument, {
    variables: { name },
    fetchPolicy: 'no-cache',
    onData: () => onNotice(),
  });
  return <ErrorLine error={error} />;
}
