import 'uplot/dist/uPlot.min.css';
import { mountChart, periodBarsOptions } from '@/web/client/chart';
import { eachIsland } from '@/web/client/island';

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
  const options = periodBarsOptions({
    height: HEIGHT,
    count: xs.length,
    label: (i) => monthLabel(props.months[i]?.month ?? ''),
    narrow: NARROW,
    every: 3,
    valueAxisSize: 56,
    currency: props.currency,
    seriesLabel: 'Gross',
    reference: () => props.goal,
  });

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
