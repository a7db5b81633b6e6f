// A ranked table of places by visits, each row a button that opens the level below.
import type { AppLocationDayQuery } from '../../ops';

type Place = AppLocationDayQuery['topCountries'][number];

interface Props {
  label: string;
  /** The column's heading: Country, Region or City. */
  level: string;
  places: readonly Place[];
  /** The place's name as shown ('' is "unknown"). */
  show: (name: string) => string;
  /** What the row's button opens; no button when absent. */
  open?: { verb: string; chosen: string | null; choose: (name: string) => void };
}

export function Places({ label, level, places, show, open }: Props) {
  if (places.length === 0) return <p className="muted">No visits.</p>;
  const most = places[0].visits;
  return (
    <table aria-label={label} className="places">
      <thead>
        <tr>
          <th>#</th>
          <th>{level}</th>
          <th>Visits</th>
          <th className="bar-cell" />
        </tr>
      </thead>
      <tbody>
        {places.map((place, i) => (
          <tr key={place.name} data-testid="place" className={open?.chosen === place.name ? 'chosen' : undefined}>
            <td>{i + 1}</td>
            <td>
              {open ? (
                <button
                  type="button"
                  className="link-button"
                  aria-label={`${open.verb} ${show(place.name)}`}
                  aria-current={open.chosen === place.name ? 'true' : undefined}
                  onClick={() => open.choose(place.name)}
                >
                  {show(place.name)}
                </button>
              ) : (
                show(place.name)
              )}
            </td>
            <td data-testid="visits">{place.visits}</td>
            <td className="bar-cell">
              <span className="bar" style={{ width: `${most > 0 ? (100 * place.visits) / most : 0}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    return null;
  }
})();

/** `DE — Germany`: the code as counted, the name as the browser knows it. */
export function countryName(code: string): string {
  if (code === '') return '(unknown country)';
  let name: string | undefined;
  try {
    name = regionNames?.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${code} — ${name}` : code;
}

export const placeName = (name: string): string => (name === '' ? '(unknown)' : name);
