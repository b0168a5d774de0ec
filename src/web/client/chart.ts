import uPlot from 'uplot';

/**
 * What the app's uPlot charts share: the current theme's colours from the design tokens, the axis
 * style, a round ceiling for a money axis, bars, a dashed reference line across the plot, and the
 * mounting (fit the box's width, follow its resizes, redraw when the colour scheme changes since a
 * canvas reads its colours once), and the options of a bar chart of periods against a reference line.
 * Each island keeps what is its own: series, labels, props.
 */

export interface ChartColors {
  /** The data: bars, lines, points. */
  primary: string;
  /** A line to compare against (a budget, a goal). */
  reference: string;
  text: string;
  grid: string;
}

/** The design tokens of the current theme (light or dark), read from the stylesheet. */
export function chartColors(): ChartColors {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    primary: v('--primary-bg', '#0b57d0'),
    reference: v('--error-text', '#a50e0e'),
    text: v('--text', '#1a1a1a'),
    grid: v('--border', '#8a9099'),
  };
}

/** The axis style of every chart: text in the theme's colour, thin grid and ticks. */
export function axisStyle(c: ChartColors) {
  return { stroke: c.text, grid: { stroke: c.grid, width: 0.5 }, ticks: { stroke: c.grid, width: 0.5 } };
}

/** A round ceiling for the value axis, at least `max`: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten. */
export function niceCeil(max: number): number {
  if (max <= 0) return 100;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

/** A series drawn as bars in the theme's colour. */
export function barSeries(label: string, c: ChartColors): uPlot.Series {
  return { label, fill: c.primary, stroke: c.primary, width: 0, points: { show: false }, paths: uPlot.paths.bars?.({ size: [0.6, 56] }) };
}

/** A draw hook: one dashed line across the whole plot at `value()` (a series would stop at the first and last point). */
export function referenceLine(value: () => number | null, color: string): (u: uPlot) => void {
  return (u) => {
    const v = value();
    if (v === null) return;
    const y = Math.round(u.valToPos(v, 'y', true));
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = 2 * uPlot.pxRatio;
    ctx.setLineDash([8 * uPlot.pxRatio, 5 * uPlot.pxRatio]);
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
    ctx.restore();
  };
}

/** A compact money label for the value axis ($1.2K). */
export function compactMoney(currency: string): (n: number) => string {
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
  return (n) => f.format(n);
}

/** A bar chart of periods (weeks, months), the newest last, against a reference line (a budget, a goal). */
export interface PeriodBarsSpec {
  height: number;
  /** How many periods are drawn (x is their index). */
  count: number;
  /** The label under period `i`. */
  label: (i: number) => string;
  /** Below this width only every `every`-th period is labelled, counted back from the newest, so labels never overlap. */
  narrow: number;
  every: number;
  /** The width of the value axis, px. */
  valueAxisSize: number;
  currency: string;
  seriesLabel: string;
  /** The reference line's value, read at each draw (null: none). */
  reference: () => number | null;
}

/** uPlot options (for mountChart) of a period bar chart: value axis from 0 to a round ceiling above the bars and the line. */
export function periodBarsOptions(spec: PeriodBarsSpec): (width: number) => uPlot.Options {
  const xs = Array.from({ length: spec.count }, (_, i) => i);
  const short = compactMoney(spec.currency);
  return (width) => {
    const c = chartColors();
    const axis = axisStyle(c);
    return {
      width,
      height: spec.height,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: false, range: [-0.5, spec.count - 0.5] },
        y: { range: (_u, _min, max) => [0, niceCeil(Math.max(max, spec.reference() ?? 0) * 1.1)] },
      },
      axes: [
        {
          ...axis,
          splits: (u) => (u.width < spec.narrow ? xs.filter((i) => (xs.length - 1 - i) % spec.every === 0) : xs),
          values: (_u, splits) => splits.map((i) => (i >= 0 && i < spec.count ? spec.label(i) : '')),
        },
        { ...axis, size: spec.valueAxisSize, values: (_u, splits) => splits.map(short) },
      ],
      series: [{}, barSeries(spec.seriesLabel, c)],
      hooks: { draw: [referenceLine(spec.reference, c.reference)] },
    };
  };
}

/**
 * Draws a chart in `box` at the box's width (at least 240 px) and `height`, follows the box's resizes,
 * and draws it again (options read afresh) when the colour scheme changes. `drawn` runs after each draw.
 */
export function mountChart(
  box: HTMLElement,
  height: number,
  options: (width: number) => uPlot.Options,
  data: () => uPlot.AlignedData,
  drawn: () => void = () => undefined,
): { plot: () => uPlot | null } {
  let plot: uPlot | null = null;
  const widthOf = () => Math.max(240, Math.floor(box.getBoundingClientRect().width));
  const draw = () => {
    plot?.destroy();
    plot = new uPlot(options(widthOf()), data(), box);
    drawn();
  };
  draw();
  new ResizeObserver(() => {
    const width = widthOf();
    if (plot && plot.width !== width) plot.setSize({ width, height });
  }).observe(box);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', draw);
  return { plot: () => plot };
}
