import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisStyle, chartColors, mountChart } from '@/web/client/chart';
import { eachIsland } from '@/web/client/island';

/**
 * The rating trend: the average rating of each day or week as a line with its points (uPlot on a
 * canvas), 1 to 5 stars on the value axis, gaps where no review came in. The page renders the same
 * figures as a table under it and names the chart with its caption; the canvas says nothing to a
 * screen reader. The figure carries what is drawn (`data-chart-averages`) for the browser tests.
 */

interface Bucket {
  start: string;
  end: string;
  average: number | null;
  count: number;
}
interface TrendProps {
  bucket: 'day' | 'week';
  buckets: Bucket[];
}

const HEIGHT = 220;
/** Below this width fewer dates are labelled, so labels never overlap. */
const NARROW = 520;

const label = (ymd: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${ymd}T12:00:00Z`));

function mount(el: HTMLElement, props: TrendProps) {
  const box = el.querySelector<HTMLElement>('[data-chart-canvas]');
  if (!box || !props.buckets.length) return;
  const xs = props.buckets.map((_, i) => i);
  const ys = props.buckets.map((b) => b.average);
  el.dataset.chartAverages = ys.map((y) => (y === null ? '' : String(y))).join(',');

  const options = (width: number): uPlot.Options => {
    const c = chartColors();
    const axis = axisStyle(c);
    const every = (u: uPlot) => Math.max(1, Math.ceil(xs.length / (u.width < NARROW ? 4 : 8)));
    return {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: [-0.5, xs.length - 0.5] }, y: { range: [1, 5] } },
      axes: [
        {
          ...axis,
          splits: (u) => xs.filter((i) => (xs.length - 1 - i) % every(u) === 0),
          values: (_u, splits) => splits.map((i) => (props.buckets[i] ? label(props.buckets[i].start) : '')),
        },
        { ...axis, size: 40, splits: () => [1, 2, 3, 4, 5], values: (_u, splits) => splits.map((n) => `${n}★`) },
      ],
      series: [
        {},
        { label: 'Average rating', stroke: c.primary, width: 2, spanGaps: true, points: { show: true, size: 7, fill: c.primary } },
      ],
    };
  };

  mountChart(box, HEIGHT, options, () => [xs, ys]);
}

eachIsland<TrendProps>('review-trend', mount);
