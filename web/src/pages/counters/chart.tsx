// One counter's series drawn by uPlot: a line or bars over time. uPlot draws on a canvas that
// React does not own, so the plot is made once per kind and given new data as pulls arrive.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartKind = 'line' | 'bars';

export interface Points {
  times: number[];
  values: number[];
}

const HEIGHT = 170;
const STROKE = '#c8302c';

export function CounterChart({ name, points, kind }: { name: string; points: Points; kind: ChartKind }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(points);
  latest.current = points;

  useEffect(() => {
    const element = box.current!;
    const made = new uPlot(options(name, kind, element.clientWidth), toData(latest.current), element);
    plot.current = made;
    describe(element, made);
    // The chart follows the page's width (uPlot has a fixed size in pixels otherwise).
    const resized = new ResizeObserver(() => made.setSize({ width: element.clientWidth, height: HEIGHT }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      made.destroy();
      plot.current = null;
    };
  }, [name, kind]);

  useEffect(() => {
    const made = plot.current;
    if (made === null) return;
    made.setData(toData(points));
    describe(box.current!, made);
  }, [points]);

  return <div ref={box} className="chart" data-testid="chart" />;
}

function options(name: string, kind: ChartKind, width: number): uPlot.Options {
  return {
    width: Math.max(width, 200),
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { y: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
    series: [
      {},
      {
        label: name,
        stroke: STROKE,
        width: 2,
        fill: 'rgba(200, 48, 44, 0.15)',
        paths: kind === 'bars' ? uPlot.paths.bars!({ size: [0.8, 40] }) : undefined,
        points: { show: false },
      },
    ],
  };
}

function toData(points: Points): uPlot.AlignedData {
  return [points.times, points.values];
}

/**
 * What the canvas holds, said on its element: the sum and count of the values uPlot was given.
 * A reader of the page (a test, an extension) can check the drawing against the numbers shown.
 */
function describe(element: HTMLElement, made: uPlot): void {
  const values = (made.data[1] ?? []) as (number | null | undefined)[];
  element.dataset.sum = String(values.reduce<number>((sum, value) => sum + (value ?? 0), 0));
  element.dataset.points = String(values.length);
}
