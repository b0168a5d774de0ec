import 'uplot/dist/uPlot.min.css';
import { client, money, newIdempotencyKey, send, write } from '@/web/client/api';
import { mountChart, periodBarsOptions } from '@/web/client/chart';
import { eachIsland } from '@/web/client/island';
import { againstBudget, budgetSentence, type LaborChartProps, weekLabel } from './labor.model';

/**
 * The labor costs chart: the last 8 weeks' cost as bars (uPlot on a canvas) with the weekly budget as
 * a dashed line across them. The page renders the same figures as a table beside it (the chart's text
 * alternative) and names the chart with its caption; the canvas itself says nothing to a screen reader.
 *
 * The budget form under it is sent through the API (PUT /v1/business/{id}/weekly_labor_budget, with an
 * Idempotency-Key) instead of posting the page: on success the line moves, the table's "against the
 * budget" column and the week's sentence are said again, and a polite status announces it; a refusal
 * shows the service's message beside the field and keeps what was typed. Without script the form posts
 * and the page comes back with the new budget.
 *
 * The figure carries what is drawn (`data-chart-budget`, `data-chart-totals`), for the browser tests.
 */

const HEIGHT = 240;

/** Below this width every other week is labelled (the current one always), so labels never overlap. */
const NARROW = 520;

function mount(el: HTMLElement, props: LaborChartProps) {
  const box = el.querySelector<HTMLElement>('[data-chart-canvas]');
  if (!box) return;
  const fmt = (n: number) => money(n, props.currency);
  let budget = props.budget;
  const xs = props.weeks.map((_, i) => i);
  const totals = props.weeks.map((w) => w.total);

  const record = () => {
    el.dataset.chartBudget = budget === null ? '' : String(budget);
    el.dataset.chartTotals = totals.join(',');
  };

  const options = periodBarsOptions({
    height: HEIGHT,
    count: xs.length,
    label: (i) => weekLabel(props.weeks[i]?.week_start ?? ''),
    narrow: NARROW,
    every: 2,
    valueAxisSize: 64,
    currency: props.currency,
    seriesLabel: 'Labor cost',
    // The budget: one dashed line across the whole plot.
    reference: () => budget,
  });

  const chart = mountChart(box, HEIGHT, options, () => [xs, totals], record);

  /** The table's "against the budget" cells and the week's sentence, said again for the new budget. */
  const sayAgain = () => {
    for (const cell of document.querySelectorAll<HTMLElement>('[data-against-total]')) {
      cell.textContent = againstBudget(Number(cell.dataset.againstTotal), budget, fmt);
    }
    const current = props.weeks.find((w) => w.week_start === props.weekStart);
    const sentence = document.querySelector<HTMLElement>('[data-budget-sentence]');
    if (sentence && current) sentence.textContent = budgetSentence(current.total, budget, fmt);
    const caption = document.querySelector<HTMLElement>('[data-budget-caption]');
    if (caption) caption.textContent = budget === null ? 'No weekly budget set.' : `Weekly budget: ${fmt(budget)}.`;
    const meter = document.querySelector<HTMLMeterElement>('meter[data-budget-meter]');
    if (meter && current && budget !== null && budget > 0) {
      meter.max = budget;
      meter.high = budget * 0.9;
      meter.value = Math.min(current.total, budget);
      meter.hidden = false;
    } else if (meter) meter.hidden = true;
  };

  const form = document.getElementById(props.budgetFormId);
  if (!(form instanceof HTMLFormElement)) return;
  const input = form.querySelector<HTMLInputElement>('input[name="weekly_labor_budget"]');
  const status = form.querySelector<HTMLElement>('[data-budget-status]');
  if (!input) return;
  let key = newIdempotencyKey();
  let sentFor = '';

  const fieldError = (message: string | null) => {
    const id = `${input.id}-error`;
    let p = document.getElementById(id);
    if (!message) {
      p?.remove();
      input.removeAttribute('aria-invalid');
      input.setAttribute('aria-describedby', (input.getAttribute('aria-describedby') ?? '').replace(id, '').trim());
      return;
    }
    if (!p) {
      p = document.createElement('p');
      p.id = id;
      p.className = 'field-error';
      // Where the server puts it: after the field's hint.
      const hint = document.getElementById(`${input.id}-hint`);
      (hint ?? input).insertAdjacentElement('afterend', p);
    }
    p.textContent = message;
    input.setAttribute('aria-invalid', 'true');
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    if (!described.includes(id)) input.setAttribute('aria-describedby', [...described, id].join(' '));
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const raw = input.value.trim();
    const value = raw === '' ? null : Number(raw);
    if (value !== null && !(Number.isFinite(value) && value >= 0)) {
      fieldError('Enter the budget as an amount of 0 or more, e.g. 4500, or leave it empty for none.');
      input.focus();
      return;
    }
    // The same value sent again (after a lost answer) keeps its key; a new value is a new request.
    if (raw !== sentFor) {
      key = newIdempotencyKey();
      sentFor = raw;
    }
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (button) button.disabled = true;
    if (status) status.textContent = 'Saving…';
    const res = await send(
      client.v1.business[':id'].weekly_labor_budget.$put(
        { param: { id: encodeURIComponent(props.businessId) }, json: { weekly_labor_budget: value } },
        write({ idempotencyKey: key }),
      ),
    );
    if (button) button.disabled = false;
    if (!res.ok) {
      const details = Array.isArray(res.error.details) ? (res.error.details as { field?: string; message?: string }[]) : [];
      const mine = details.find((d) => d.field?.endsWith('weekly_labor_budget') && d.message);
      fieldError(mine?.message ? `${mine.message}.` : res.error.message);
      if (status) status.textContent = 'The budget was not saved.';
      input.focus();
      return;
    }
    fieldError(null);
    budget = res.data.weekly_labor_budget;
    input.value = budget === null ? '' : String(budget);
    sentFor = '';
    // New data rescales the value axis to the new budget and redraws the line.
    chart.plot()?.setData([xs, totals]);
    record();
    sayAgain();
    if (status) status.textContent = budget === null ? 'Budget removed.' : `Budget saved: ${fmt(budget)} a week.`;
  });
}

eachIsland<LaborChartProps>('labor-chart', mount);
