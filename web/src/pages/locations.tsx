// Location analytics: visits by country, region and city for a day of a dataset, drilled into
// by clicking. The aggregator announces each day whose counts changed; the page then pulls.
import { useState } from 'react';
import { useApolloClient, useQuery, useSubscription } from '@apollo/client/react';
import {
  AppLocationCitiesDocument,
  AppLocationDatasetsDocument,
  AppLocationDayDocument,
  AppLocationDaysDocument,
  AppLocationRegionsDocument,
  AppLocationTotalsChangedDocument,
} from '../ops';
import { useReconnect } from '../context';
import { ErrorLine } from '../errors';
import { DayView, type Drill } from './locations/drill';
import { LIMITS } from './locations/limits';
import './locations.css';

export function LocationsPage() {
  const datasets = useQuery(AppLocationDatasetsDocument);
  const [chosen, setChosen] = useState<string | null>(null);
  const names = datasets.data?.locationDatasets ?? [];
  const dataset = chosen ?? names[0] ?? null;
  useReconnect(() => void datasets.refetch().catch(() => undefined));

  return (
    <>
      <h2>Locations</h2>
      <ErrorLine error={datasets.error} />
      {datasets.data && names.length === 0 ? (
        <p className="muted">No datasets yet: an operator creates one and sends log lines to it.</p>
      ) : (
        <div className="location-pickers">
          <label>
            Dataset
            <select value={dataset ?? ''} onChange={(e) => setChosen(e.target.value)}>
              {names.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          {dataset !== null && <Dataset key={dataset} dataset={dataset} />}
        </div>
      )}
    </>
  );
}

function Dataset({ dataset }: { dataset: string }) {
  const client = useApolloClient();
  const days = useQuery(AppLocationDaysDocument, { variables: { dataset } });
  const [chosenDay, setChosenDay] = useState<string | null>(null);
  const [limit, setLimit] = useState<number>(LIMITS[0]);
  const [drill, setDrill] = useState<Drill>({ country: null, region: null });
  const list = days.data?.locationDays ?? [];
  const day = chosenDay ?? list[list.length - 1] ?? null;

  const pull = (): void =>
    void client
      .refetchQueries({
        include: [
          AppLocationDaysDocument,
          AppLocationDayDocument,
          AppLocationRegionsDocument,
          AppLocationCitiesDocument,
        ],
      })
      .catch(() => undefined);
  useSubscription(AppLocationTotalsChangedDocument, { variables: { dataset }, onData: pull });
  useReconnect(pull);

  return (
    <>
      <label>
        Day
        <select value={day ?? ''} onChange={(e) => setChosenDay(e.target.value)} disabled={list.length === 0}>
          {list.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </label>
      <label>
        Places per level
        <select value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
          {LIMITS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <ErrorLine error={days.error} />
      <div className="location-day">
        {day === null ? (
          days.data && <p className="muted">No visits counted in this dataset yet.</p>
        ) : (
          <DayView dataset={dataset} day={day} limit={limit} drill={drill} onDrill={setDrill} />
        )}
      </div>
    </>
  );
}
