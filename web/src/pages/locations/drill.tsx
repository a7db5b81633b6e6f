// One day of a dataset: totals, top countries, and the regions and cities below a chosen one.
import { useQuery } from '@apollo/client/react';
import { AppLocationCitiesDocument, AppLocationDayDocument, AppLocationRegionsDocument } from '../../ops';
import { ErrorLine } from '../../errors';
import { Places, countryName, placeName } from './places';

interface Props {
  dataset: string;
  day: string;
  limit: number;
}

/** The country and region drilled into: kept when the day changes, to compare days. */
export interface Drill {
  country: string | null;
  region: string | null;
}

export function DayView({
  dataset,
  day,
  limit,
  drill,
  onDrill,
}: Props & { drill: Drill; onDrill: (next: Drill) => void }) {
  const { data, error } = useQuery(AppLocationDayDocument, { variables: { dataset, day, limit } });
  const { country, region } = drill;
  const chooseCountry = (name: string): void => onDrill({ country: name, region: null });
  const totals = data?.locationTotals;

  return (
    <>
      <ErrorLine error={error} />
      {totals && (
        <p data-testid="location-totals" className="totals">
          <strong>{totals.visits}</strong> visits on {day}
          {totals.unknownVisits > 0 && <> · {totals.unknownVisits} from addresses in no known place</>}
        </p>
      )}
      <div className="drill">
        <section className="panel">
          <h3>Top countries</h3>
          {data && (
            <Places
              label="Top countries"
              level="Country"
              places={data.topCountries}
              show={countryName}
              open={{ verb: 'Regions of', chosen: country, choose: chooseCountry }}
            />
          )}
        </section>
        {country !== null && (
          <Regions
            key={country}
            {...{ dataset, day, limit, country }}
            region={region}
            onRegion={(name) => onDrill({ country, region: name })}
          />
        )}
        {country !== null && region !== null && <Cities key={region} {...{ dataset, day, limit, country, region }} />}
      </div>
    </>
  );
}

function Regions(props: Props & { country: string; region: string | null; onRegion: (name: string) => void }) {
  const { dataset, day, limit, country, region, onRegion } = props;
  const { data, error } = useQuery(AppLocationRegionsDocument, { variables: { dataset, day, limit, country } });
  return (
    <section className="panel">
      <h3>Regions of {countryName(country)}</h3>
      <ErrorLine error={error} />
      {data && (
        <Places
          label={`Regions of ${country}`}
          level="Region"
          places={data.topRegions}
          show={placeName}
          open={{ verb: 'Cities of', chosen: region, choose: onRegion }}
        />
      )}
    </section>
  );
}

function Cities(props: Props & { country: string; region: string }) {
  const { dataset, day, limit, country, region } = props;
  const { data, error } = useQuery(AppLocationCitiesDocument, {
    variables: { dataset, day, limit, country, region },
  });
  return (
    <section className="panel">
      <h3>
        Cities of {placeName(region)}, {country}
      </h3>
      <ErrorLine error={error} />
      {data && <Places label={`Cities of ${region}`} level="City" places={data.topCities} show={placeName} />}
    </section>
  );
}
