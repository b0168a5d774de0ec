import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisStyle, barSeries, chartColors, mountChart, niceCeil, referenceLine } from '../lib/chart';
import { eachIsland } from '../lib/island';

/**
 * The shifter's last 12 months: gross earnings per month as bars (uPlot on a canvas), the monthly goal
 * as a dashed line across them. The page renders the same figures as a table under it (the chart's
 * text alternative, and all there is without script) and names the chart with its caption; the canvas
 * says nothing to a screen reader. The figure carries what is drawn (`data-chart-totals`), for the
 * browser tests.
 */

export interface EarningsChartProps {
  currency: string;
  months: { month: string; gross: number }[];
  goal: number | null;
}

const HEIGHT = 220;
/** Below this width every third month is labelled (the current one always), so labels never overlap. */
const NARROW = 520;

const monthLabel = (ym: string) =>
  new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' }).format(new Date(`${ym}-15T12:00:00Z`));

function mount(el: HTMLElement, props: EarningsChartProps) {
  const box = el.querySelector<HTMLElement>('[data-chart-canvas]');
  if (!box || !props.months.length) return;
  const xs = props.months.map((_, i) => i);
  const gross = props.months.map((m) => m.gross);
  const short = (n: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: props.currency, notation: 'compact', maximumFractionDigits: 1 }).format(
      n,
    );

  const options = (width: number): uPlot.Options => {
    const c = chartColors();
    const axis = axisStyle(c);
    return {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: false, range: [-0.5, xs.length - 0.5] },
        y: { range: (_u, _min, max) => [0, niceCeil(Math.max(max, props.goal ?? 0) * 1.1)] },
      },
      axes: [
        {
          ...axis,
          splits: (u) => (u.width < NARROW ? xs.filter((i) => (xs.length - 1 - i) % 3 === 0) : xs),
          values: (_u, splits) => splits.map((i) => (props.months[i] ? monthLabel(props.months[i].month) : '')),
        },
        { ...axis, size: 56, values: (_u, splits) => splits.map(short) },
      ],
      series: [{}, barSeries('Gross', c)],
      hooks: { draw: [referenceLine(() => props.goal, c.reference)] },
    };
  };

  mountChart(
    box,
    HEIGHT,
    options,
    () => [xs, gross],
    () => {
      el.dataset.chartTotals = gross.join(',');
    },
  );
}

eachIsland<EarningsChartProps>('earnings-chart', mount);
