// The charted counters' series over the chosen window: pulled when the choice changes, on a
// counter's notice (throttled), after the socket is back, and as the window slides.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { AppCounterSeriesDocument, type AppCounterSeriesQuery, type CounterAggregation } from '../../ops';
import { useReconnect } from '../../context';
import { useThrottledPull } from '../throttled-pull';

/** Most counters charted at once: each holds a subscription, and a socket runs 50 operations at most. */
export const MAX_CHARTED = 12;

export type Selection = { kind: 'names'; names: string[] } | { kind: 'prefix'; prefix: string };

export interface SeriesOptions {
  selection: Selection;
  windowSeconds: number;
  step: number;
  aggregation: CounterAggregation;
}

export type Series = AppCounterSeriesQuery['counterSeriesMany'][number];

export interface SeriesState {
  series: Series[] | null;
  error: unknown;
  /** Pull now, or soon when one ran less than a second ago (for notices). */
  notice: () => void;
  /** Pull now (after the operator counted). */
  pull: () => void;
}

/** With no notice, the window still moves: pull again after a step, but not more often than this. */
const SLIDE_MS = 30_000;

export function useCounterSeries(options: SeriesOptions): SeriesState {
  const client = useApolloClient();
  const [series, setSeries] = useState<Series[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const asked = useRef(0);
  const slide = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(options);
  latest.current = options;
  // A new choice makes a new `pull` (and so pulls at once); a new object with the same choice does not.
  const key = JSON.stringify(options);

  const pull = useCallback(() => {
    const { selection, windowSeconds, step, aggregation } = latest.current;
    if (slide.current !== null) clearTimeout(slide.current);
    slide.current = setTimeout(() => pull(), Math.max(step * 1000, SLIDE_MS));
    if (selection.kind === 'names' && selection.names.length === 0) {
      setSeries([]);
      return;
    }
    // `to` left out: the series ends at the step that holds the server's clock.
    const from = Math.floor(Date.now() / 1000) - windowSeconds + step;
    const which =
      selection.kind === 'names' ? { names: selection.names } : { prefix: selection.prefix, first: MAX_CHARTED };
    const ticket = ++asked.current;
    client
      .query({
        query: AppCounterSeriesDocument,
        variables: { ...which, from, step, aggregation },
        // Every pull has its own `from`: caching them would only grow the cache.
        fetchPolicy: 'no-cache',
      })
      .then(
        (result) => {
          if (ticket !== asked.current) return; // a newer pull was asked for meanwhile
          setSeries(result.data?.counterSeriesMany ?? []);
          setError(null);
        },
        (e: unknown) => {
          if (ticket === asked.current) setError(e);
        },
      );
  }, [client, key]);

  useEffect(() => {
    pull();
    return () => {
      if (slide.current !== null) clearTimeout(slide.current);
    };
  }, [pull]);
  useReconnect(pull);
  const notice = useThrottledPull(pull, 1000);
  return { series, error, notice, pull };
}
