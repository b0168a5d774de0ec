import type { Context } from 'hono';
import { dateText, hoursText, shiftDate, shiftWho } from './schedule.model';
import { ScheduleToolbar } from './schedule-toolbar';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { isValidDate, todayIn } from '@/lib/shift-time';
import { type PeopleWeek, type PeopleWeekFigures, type PeopleWeekRow, type PeopleWeekShift, peopleWeek } from '@/services/insights';
import { formatMoney } from '@/web/format';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardHref } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';

/**
 * The schedule's people view (`/dashboard/schedule?view=people`), rendered on the server: the crew
 * down the side, the week's days across, each cell the person's shifts that day (each a link to the
 * shift's page), each row's hours and cost as the service counts them (insights `peopleWeek`), and a
 * row of the open broadcasts. On a phone the table scrolls inside its own labelled region, with a
 * hint saying so; the page itself never scrolls sideways.
 */

const hoursWords = (h: number) => `${h.toLocaleString('en-US', { maximumFractionDigits: 2 })} h`;

/** A row's figures: "12.5 h · $250.00" (the cost for those who see pay). */
function Figures({ f, week }: { f: PeopleWeekFigures; week: PeopleWeek }) {
  const shifts = `${f.shifts} shift${f.shifts === 1 ? '' : 's'}`;
  return (
    <>
      <span class="people-hours">{hoursWords(f.hours)}</span>
      {f.cost !== null ? <span class="people-cost">{formatMoney(f.cost, week.currency)}</span> : null}
      {f.other_costs.map((o) => (
        <span class="people-cost">{formatMoney(o.cost, o.currency)}</span>
      ))}
      <span class="people-count">{shifts}</span>
    </>
  );
}

function ShiftItem({ base, item }: { base: DashboardBase; item: PeopleWeekShift }) {
  const s = item.shift;
  const st = s.state_words;
  return (
    <li class={`people-shift shift-${st.tone}`}>
      <a href={dashboardHref(base, `/dashboard/shifts/${encodeURIComponent(s.id)}`)}>
        <span class="people-shift-time">{hoursText(s.shift_in, s.shift_out)}</span>
        <span class="visually-hidden">{`, ${dateText(s.shift_date)}, ${shiftWho(s)}`}</span>
        <span class="people-shift-role">{s.role ?? 'Shift'}</span>
      </a>
      <span class="people-shift-state">{st.label}</span>
    </li>
  );
}

function Row({ base, week, row, name }: { base: DashboardBase; week: PeopleWeek; row: PeopleWeekRow; name: string }) {
  return (
    <tr class={row.shifter_id === null ? 'people-open' : undefined}>
      <th scope="row">
        <span class="people-name">{name}</span>
        {row.shifter_id !== null && !row.in_crew ? <span class="people-note">Not in the crew now</span> : null}
      </th>
      {row.days.map((items) => (
        <td>
          {items.length ? (
            <ul class="people-shifts">
              {items.map((item) => (
                <ShiftItem base={base} item={item} />
              ))}
            </ul>
          ) : (
            <span class="people-none">
              <span aria-hidden="true">–</span>
              <span class="visually-hidden">No shift</span>
            </span>
          )}
        </td>
      ))}
      <td class="people-figures">
        <Figures f={row} week={week} />
      </td>
    </tr>
  );
}

/** Whether the week lists any shift at all. */
const listed = (week: PeopleWeek) => [...week.people, week.open].some((r) => r.days.some((d) => d.length > 0));

export function PeopleTable({ base, week }: { base: DashboardBase; week: PeopleWeek }) {
  const label = `The week of ${dateText(week.week_start)} by person`;
  const figuresHead = week.sees_pay ? 'Week: hours and cost' : 'Week: hours';
  return (
    <>
      {listed(week) ? null : (
        <p class="empty">
          {week.people.length ? 'No shifts this week. ' : 'No crew and no shifts this week. '}
          {week.people.length ? null : (
            <>
              <a href={dashboardHref(base, '/dashboard/crew')}>Invite your crew</a> or{' '}
            </>
          )}
          <a href={dashboardHref(base, '/dashboard/shifts/new')}>{week.people.length ? 'Post a shift' : 'post a shift'}</a>.
        </p>
      )}
      <p class="hint people-scroll-hint" id="people-scroll-hint">
        The week is wider than this screen: scroll the table sideways (or Tab into it and use the arrow keys) to see every day.
      </p>
      <section class="table-wrap people-week" tabindex={0} aria-label={label} aria-describedby="people-scroll-hint">
        <table>
          <caption class="visually-hidden">{label}</caption>
          <thead>
            <tr>
              <th scope="col">Person</th>
              {week.days.map((d) => (
                <th scope="col">{dateText(d)}</th>
              ))}
              <th scope="col">{figuresHead}</th>
            </tr>
          </thead>
          <tbody>
            {week.people.map((row) => (
              <Row base={base} week={week} row={row} name={row.shifter_name ?? 'Shifter'} />
            ))}
            <Row base={base} week={week} row={week.open} name="Open shifts" />
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Week total</th>
              <td colspan={7} />
              <td class="people-figures">
                <Figures f={week.total} week={week} />
              </td>
            </tr>
          </tfoot>
        </table>
      </section>
      <p class="hint">
        Hours and cost count worked shifts and those still to come (accepted, or pending and not started); a no-show counts nothing. Open
        shifts are broadcasts nobody has claimed yet.
        {week.sees_pay ? null : ' Pay figures are shown to the business owner.'}
      </p>
    </>
  );
}

/** Earlier, this and later week, as plain links. */
function WeekNav({ base, week, today }: { base: DashboardBase; week: PeopleWeek; today: string }) {
  const href = (date: string) => dashboardHref(base, '/dashboard/schedule', { date, view: 'people' });
  return (
    <nav class="schedule-nav" aria-label="Weeks">
      <ul class="actions">
        <li>
          <a class="button button-secondary" href={href(shiftDate(week.week_start, -7))}>
            Previous week
          </a>
        </li>
        <li>
          <a class="button button-secondary" href={href(today)}>
            This week
          </a>
        </li>
        <li>
          <a class="button button-secondary" href={href(shiftDate(week.week_start, 7))}>
            Next week
          </a>
        </li>
      </ul>
    </nav>
  );
}

/** GET /dashboard/schedule?view=people&date=: the week of `date` (default this week) by person. */
export async function renderPeople(c: Context<AppEnv>, base: DashboardBase): Promise<Response> {
  const b = base.business!;
  const ctx = serviceCtx(c);
  const today = todayIn(b.timezone, ctx.now());
  const asked = c.req.query('date') ?? '';
  const week = await peopleWeek(ctx, b.id, { week: isValidDate(asked) ? asked : today });
  return renderPage(
    c,
    <AppShell
      base={base}
      title="Schedule"
      current="/dashboard/schedule"
      action={
        <a class="button button-primary" href={dashboardHref(base, '/dashboard/shifts/new')}>
          Post a shift
        </a>
      }
    >
      <p class="aside">
        {b.name} · times in {b.timezone}
      </p>
      <ScheduleToolbar base={base} date={week.week_start} people />
      <WeekNav base={base} week={week} today={today} />
      <h2>{`Week of ${dateText(week.week_start)} by person`}</h2>
      {week.truncated ? <p class="field-error">This week has more shifts than can be shown at once; those posted last are shown.</p> : null}
      <PeopleTable base={base} week={week} />
    </AppShell>,
  );
}
