import type { Earnings } from '@/services/insights';
import { formatDate, formatMoney, shiftHours, timeIn } from '@/web/format';
import { SmallTable } from '@/web/table';

/**
 * The week parts of the shifter's earnings page: the chosen week (Monday to Sunday on the shifter's
 * own clock) with its totals and its shifts one by one, the links to the weeks around it, and the
 * last nine weeks side by side. Every figure is the service's (`earnings`: `weeks`, `week_shifts`);
 * the page only words and lays them out. The tables are the shared SmallTable (src/web/table.tsx),
 * stacking into rows on a phone, so nothing scrolls sideways; an amount is one `.money` element that
 * never wraps.
 */
export const EARNINGS_PATH = '/dashboard/shifter/earnings';

/** An amount in its currency, never broken across lines (`.money`: no wrap, tabular figures). */
export function Money({ amount, currency }: { amount: number; currency: string }) {
  return <span class="money">{formatMoney(amount, currency)}</span>;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** "26 Oct": a week's day without its weekday (the weeks table says Monday to Sunday once). */
const dayMonth = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
const yearOf = (date: string) => date.slice(0, 4);
export const weekHref = (week: string) => `${EARNINGS_PATH}?week=${week}#week`;
const weekRange = (start: string, end: string) => `${dayMonth(start)} – ${dayMonth(end)}`;

/** The week's heading in words: this week, last week, or the week of its Monday. */
function weekTitle(e: Earnings): string {
  if (e.week_start === e.current_week_start) return 'This week';
  if (e.next_week_start === e.current_week_start) return 'Last week';
  return `Week of ${formatDate(e.week_start)}`;
}

export function WeekCard({ e }: { e: Earnings }) {
  const week = e.weeks.at(-1);
  const lines = e.week_shifts;
  const isCurrent = e.week_start === e.current_week_start;
  return (
    <section class="card earnings-week" id="week" aria-labelledby="week-head">
      <h2 id="week-head">{weekTitle(e)}</h2>
      <p class="aside">
        {`${formatDate(e.week_start)} to ${formatDate(e.week_end)} ${yearOf(e.week_end)}. Weeks run Monday to Sunday on your clock (${e.timezone}); a shift counts in the week it started.`}
      </p>
      {week ? (
        <ul class="stat-row earnings-stats" aria-label="The week's totals">
          <li>
            <span class="stat-label">Gross</span>
            <strong class="stat money" data-week-gross>
              {formatMoney(week.gross, e.currency)}
            </strong>
          </li>
          <li>
            <span class="stat-label">Hours worked</span>
            <strong class="stat" data-week-hours>{`${week.hours} h`}</strong>
            <span class="stat-label muted">{plural(week.shifts, 'shift', 'shifts')}</span>
          </li>
        </ul>
      ) : null}
      {week?.other_currencies.length ? (
        <p class="muted">
          {'Also this week, in other currencies (not added above): '}
          {week.other_currencies.map((o, i) => (
            <>
              {i ? ', ' : ''}
              <Money amount={o.gross} currency={o.currency} />
            </>
          ))}
          .
        </p>
      ) : null}
      <nav aria-label="Other weeks" class="week-pager">
        <a class="button button-secondary" href={weekHref(e.previous_week_start)} rel="prev">
          Previous week
        </a>
        {e.next_week_start ? (
          <a class="button button-secondary" href={weekHref(e.next_week_start)} rel="next">
            Next week
          </a>
        ) : null}
        {isCurrent ? null : (
          <a class="button button-secondary" href={`${EARNINGS_PATH}#week`}>
            This week
          </a>
        )}
      </nav>
      {lines.length ? (
        <SmallTable
          class="week-shifts"
          caption={`Worked shifts, ${weekRange(e.week_start, e.week_end)}`}
          rows={lines}
          rowAttrs={(l) => ({ 'data-shift': l.shift_request_id })}
          columns={[
            {
              head: 'Date',
              cell: (l) => (
                <>
                  {formatDate(l.date)}{' '}
                  <span class="muted nowrap">{shiftHours(timeIn(l.starts_at, e.timezone), timeIn(l.ends_at, e.timezone))}</span>
                </>
              ),
            },
            { head: 'Business', cell: (l) => l.business_name, class: 'stack-name' },
            { head: 'Hours', cell: (l) => `${l.hours} h`, num: true },
            { head: 'Pay', cell: (l) => <Money amount={l.pay} currency={l.currency} />, num: true, class: 'stack-end' },
          ]}
        />
      ) : (
        <p class="empty">
          {isCurrent
            ? 'No worked shift this week yet. A shift shows here once it is worked, with its hours and pay.'
            : 'No worked shift this week.'}
        </p>
      )}
    </section>
  );
}

/** The nine weeks, newest first, each a link to its shifts; the week shown above is marked. */
export function WeeksCard({ e }: { e: Earnings }) {
  const rows = [...e.weeks].reverse();
  return (
    <section class="card" aria-labelledby="weeks-head">
      <h2 id="weeks-head">Week by week</h2>
      <SmallTable
        class="weeks-table"
        caption="Worked shifts, hours and gross per week, the last nine weeks, newest first"
        rows={rows}
        rowAttrs={(w) => ({ 'aria-current': w.week_start === e.week_start ? 'true' : undefined, 'data-week': w.week_start })}
        columns={[
          {
            head: 'Week',
            cell: (w) => (
              <a href={weekHref(w.week_start)} class="stack-link">
                {w.week_start === e.current_week_start
                  ? `This week, ${weekRange(w.week_start, w.week_end)}`
                  : weekRange(w.week_start, w.week_end)}
              </a>
            ),
          },
          { head: 'Shifts', cell: (w) => plural(w.shifts, 'shift', 'shifts'), num: true },
          { head: 'Hours', cell: (w) => `${w.hours} h`, num: true },
          {
            head: 'Gross',
            num: true,
            class: 'stack-end',
            cell: (w) => (
              <>
                <Money amount={w.gross} currency={e.currency} />
                {w.other_currencies.map((o) => (
                  <>
                    {' + '}
                    <Money amount={o.gross} currency={o.currency} />
                  </>
                ))}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
