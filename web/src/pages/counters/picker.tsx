// Which counters to chart: some of the known ones (or one named by hand, counted or not yet), or
// every counter whose name starts with a prefix.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@apollo/client/react';
import { AppCountersDocument } from '../../ops';
import { ErrorLine } from '../../errors';
import { MAX_CHARTED, type Selection } from './series';

/** A counter name, as the API takes it. */
const NAME_MAX = 128;
/** Known counters per page of the list. */
const PAGE = 200;

export function CounterPicker({ selection, onChange }: { selection: Selection; onChange: (next: Selection) => void }) {
  const [mode, setMode] = useState<Selection['kind']>(selection.kind);
  return (
    <section className="panel" aria-label="Counters to chart">
      <fieldset className="modes">
        <legend>Counters</legend>
        <label className="check">
          <input type="radio" name="pick" checked={mode === 'names'} onChange={() => setMode('names')} /> chosen
          counters
        </label>
        <label className="check">
          <input type="radio" name="pick" checked={mode === 'prefix'} onChange={() => setMode('prefix')} /> counters by
          prefix
        </label>
      </fieldset>
      {mode === 'names' ? (
        <NamePicker names={selection.kind === 'names' ? selection.names : []} onChange={onChange} />
      ) : (
        <PrefixPicker prefix={selection.kind === 'prefix' ? selection.prefix : ''} onChange={onChange} />
      )}
    </section>
  );
}

function NamePicker({ names, onChange }: { names: string[]; onChange: (next: Selection) => void }) {
  const known = useQuery(AppCountersDocument, { variables: { first: PAGE } });
  const [filter, setFilter] = useState('');
  const [typed, setTyped] = useState('');
  const list = known.data?.counters ?? [];
  const full = names.length >= MAX_CHARTED;
  const set = (next: string[]): void => onChange({ kind: 'names', names: next });
  const toggle = (name: string, on: boolean): void => set(on ? [...names, name] : names.filter((n) => n !== name));
  const add = (event: FormEvent): void => {
    event.preventDefault();
    const name = typed.trim().normalize('NFC');
    if (name !== '' && !names.includes(name) && !full) set([...names, name]);
    setTyped('');
  };
  const more = (): void => {
    void known.fetchMore({
      variables: { after: list[list.length - 1]?.name, first: PAGE },
      updateQuery: (previous, { fetchMoreResult }) => ({
        ...previous,
        counters: [...previous.counters, ...fetchMoreResult.counters],
      }),
    });
  };
  const shown = list.filter((counter) => counter.name.includes(filter));
  const extra = names.filter((name) => !list.some((counter) => counter.name === name));
  return (
    <>
      <label>
        Filter <input value={filter} maxLength={NAME_MAX} onChange={(e) => setFilter(e.target.value)} />
      </label>
      <ul className="counter-list" aria-label="Known counters">
        {[...extra.map((name) => ({ name })), ...shown].map(({ name }) => {
          const on = names.includes(name);
          return (
            <li key={name}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={on}
                  disabled={!on && full}
                  onChange={(e) => toggle(name, e.target.checked)}
                />{' '}
                {name}
              </label>
            </li>
          );
        })}
      </ul>
      {known.loading && list.length === 0 && <p className="muted">Loading counters…</p>}
      {!known.loading && list.length === 0 && <p className="muted">No counter has samples yet.</p>}
      {list.length > 0 && list.length % PAGE === 0 && (
        <button type="button" onClick={more}>
          More counters
        </button>
      )}
      <ErrorLine error={known.error} />
      {full && <p className="muted">At most {MAX_CHARTED} counters at once.</p>}
      <form className="inline" onSubmit={add}>
        <label>
          Counter name{' '}
          <input value={typed} maxLength={NAME_MAX} onChange={(e) => setTyped(e.target.value)} disabled={full} />
        </label>
        <button type="submit" disabled={full}>
          Add
        </button>
      </form>
      <button type="button" onClick={() => void known.refetch()}>
        Reload list
      </button>
    </>
  );
}

function PrefixPicker({ prefix, onChange }: { prefix: string; onChange: (next: Selection) => void }) {
  const [typed, setTyped] = useState(prefix);
  const apply = (event: FormEvent): void => {
    event.preventDefault();
    onChange({ kind: 'prefix', prefix: typed.normalize('NFC') });
  };
  return (
    <form onSubmit={apply}>
      <label>
        Name prefix <input value={typed} maxLength={NAME_MAX} onChange={(e) => setTyped(e.target.value)} />
      </label>
      <p className="muted">The first {MAX_CHARTED} counters whose names start with it (all when empty).</p>
      <button type="submit">Show</button>
    </form>
  );
}
