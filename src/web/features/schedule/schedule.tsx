import type { Context } from 'hono';
import { WEB_ENTRIES } from '@generated/web/assets';
import {
  dateText,
  hoursText,
  inRange,
  isChangeable,
  type LaborWeek,
  laborLines,
  SCHEDULE_STATUSES,
  type ScheduleShift,
  shiftWho,
  stillToCome,
} from './schedule.model';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { addDays, isValidDate, mondayOf, todayIn } from '@/lib/shift-time';
import { laborCosts } from '@/services/insights';
import { businessShiftsDated, DATED_READ_MAX, listRequestSummaries, type ShiftSummary } from '@/services/shifts';
import type { ServiceContext } from '@/services/kernel';
import { Card, TableWrap } from '@/web/components';
import { formatMoney } from '@/web/format';
import { renderPage } from '@/web/render';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { renderPeople } from './schedule-people';
import { ScheduleToolbar } from './schedule-toolbar';

export type ScheduleView = 'week' | 'day' | 'list';
const VIEWS: readonly { view: ScheduleView; label: string }[] = [
  { view: 'week', label: 'Week' },
  { view: 'day', label: 'Day' },
  { view: 'list', label: 'List' },
];

/** The shifts a range shows: those starting in it and the overnight shifts of the day before, read in one statement. */
export async function scheduleShifts(
  ctx: ServiceContext,
  businessId: string,
  from: string,
  to: string,
): Promise<{ shifts: ShiftSummary[]; truncated: boolean }> {
  const { shifts, truncated } = await businessShiftsDated(
    ctx,
    businessId,
    { from: addDays(from, -1), to, status: [...SCHEDULE_STATUSES] },
    listRequestSummaries,
  );
  return { shifts: shifts.filter((s) => inRange(s, from, to)).sort((a, b) => a.starts_at.localeCompare(b.starts_at)), truncated };
}

interface ScheduleData {
  view: ScheduleView;
  date: string;
  today: string;
  from: string;
  to: string;
  /** Monday to Sunday (and the Sunday before's overnight shifts); the table shows those in [from, to]. */
  week: ScheduleShift[];
  /** The week holds more than DATED_READ_MAX shifts; those posted last are shown. */
  truncated: boolean;
  labor: LaborWeek | null;
  nowMs: number;
}

/** `?date=YYYY-MM-DD` (any day of the week shown; default today in the business's zone) and `?view=week|day|list` (`people` is renderPeople's). */
function readQuery(c: Context<AppEnv>, today: string): { date: string; view: ScheduleView } {
  const date = c.req.query('date') ?? '';
  const view = c.req.query('view');
  return {
    date: isValidDate(date) ? date : today,
    view: view === 'day' || view === 'list' ? view : 'week',
  };
}

async function loadSchedule(c: Context<AppEnv>, base: DashboardBase): Promise<ScheduleData> {
  const b = base.business!;
  const ctx = serviceCtx(c);
  const nowMs = ctx.now();
  const today = todayIn(b.timezone, nowMs);
  const { date, view } = readQuery(c, today);
  const monday = mondayOf(date);
  const [from, to] = view === 'day' ? [date, date] : [monday, addDays(monday, 6)];
  // The whole week even for one day: the labor card counts the week, and the island starts from it.
  const [{ shifts: week, truncated }, labor] = await Promise.all([
    scheduleShifts(ctx, b.id, monday, addDays(monday, 6)),
    seesPay(base.business?.role) ? laborCosts(ctx, b.id, { week: date }) : Promise.resolve(null),
  ]);
  return { view, date, today, from, to, week, truncated, labor, nowMs };
}

function LaborFigures({ labor, shifts, nowMs }: { labor: LaborWeek; shifts: ScheduleShift[]; nowMs: number }) {
  const money = (n: number) => formatMoney(n, labor.currency);
  const lines = laborLines(labor, stillToCome(shifts, labor.week_start, labor.currency, nowMs), money);
  return (
    <>
      <p class="aside">{lines.week}</p>
      <p class="stat">{money(lines.expected)}</p>
      <p class="stat-label">{`Expected, ${lines.against}`}</p>
      {lines.budget !== null && lines.budget > 0 ? (
        <meter
          class="meter"
          min={0}
          max={lines.budget}
          high={lines.budget * 0.9}
          optimum={0}
          value={Math.min(lines.expected, lines.budget)}
          aria-label="Expected labor cost of the week against the budget"
        />
      ) : null}
      {lines.over ? <p class="field-error">{lines.over}</p> : null}
      <ul class="list-plain">
        <li>{lines.worked}</li>
        <li>{lines.coming}</li>
      </ul>
    </>
  );
}

/** The colours of the calendar, each said in words too. */
function Legend() {
  const items: { tone: string; label: string }[] = [
    { tone: 'pending', label: 'Pending: waiting for an answer or open to the crew. Can be moved until it starts.' },
    { tone: 'accepted', label: 'Accepted' },
    { tone: 'done', label: 'Worked' },
    { tone: 'off', label: 'Cancelled, expired or no-show' },
  ];
  return (
    <ul class="list-plain schedule-legend">
      {items.map((i) => (
        <li>
          <span class={`schedule-swatch shift-${i.tone}`} aria-hidden="true" />
          {i.label}
        </li>
      ))}
    </ul>
  );
}

/** The week's (or day's) shifts as a table: what the page is without script, and what the island replaces. */
function ShiftTable({ base, data }: { base: DashboardBase; data: ScheduleData }) {
  const shifts = data.week.filter((s) => inRange(s, data.from, data.to));
  if (!shifts.length) return <p class="empty">No shifts {data.view === 'day' ? 'on this day' : 'this week'}.</p>;
  return (
    <TableWrap label={`Shifts from ${dateText(data.from)} to ${dateText(data.to)}`}>
      <table>
        <caption class="visually-hidden">
          Shifts from {dateText(data.from)} to {dateText(data.to)}
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Time</th>
            <th scope="col">Role</th>
            <th scope="col">Shifter</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shifts.map((s) => {
            const st = s.state_words;
            return (
              <tr>
                <td class="nowrap">{dateText(s.shift_date)}</td>
                <td class="nowrap">{hoursText(s.shift_in, s.shift_out)}</td>
                <td>{s.role ?? '—'}</td>
                <td>{shiftWho(s)}</td>
                <td>
                  <span class={`badge shift-badge shift-${st.tone}`}>{st.label}</span>
                </td>
                <td class="nowrap">
                  {/* The shift's page: its story, and cancel or unassign (features/shift). */}
                  <a class="shift-link" href={dashboardHref(base, `/dashboard/shifts/${encodeURIComponent(s.id)}`)}>
                    Details<span class="visually-hidden">{` of the ${s.role ?? 'shift'} of ${dateText(s.shift_date)} ${s.shift_in}`}</span>
                  </a>
                  {isChangeable(s, data.nowMs) ? (
                    <a class="shift-link" href={dashboardHref(base, `/dashboard/shifts/${encodeURIComponent(s.id)}/change`)}>
                      Change<span class="visually-hidden">{` the ${s.role ?? 'shift'} of ${dateText(s.shift_date)} ${s.shift_in}`}</span>
                    </a>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** Earlier, today, later and the views, as plain links (the calendar has its own toolbar). */
function RangeNav({ base, data }: { base: DashboardBase; data: ScheduleData }) {
  const step = data.view === 'day' ? 1 : 7;
  const unit = data.view === 'day' ? 'day' : 'week';
  const href = (date: string, view: ScheduleView = data.view) =>
    dashboardHref(base, '/dashboard/schedule', { date, view: view === 'week' ? undefined : view });
  return (
    <nav class="schedule-nav" aria-label="Dates and views">
      <ul class="actions">
        <li>
          <a class="button button-secondary" href={href(addDays(data.date, -step))}>{`Previous ${unit}`}</a>
        </li>
        <li>
          <a class="button button-secondary" href={href(data.today)}>
            Today
          </a>
        </li>
        <li>
          <a class="button button-secondary" href={href(addDays(data.date, step))}>{`Next ${unit}`}</a>
        </li>
        {VIEWS.map((v) => (
          <li>
            <a href={href(data.date, v.view)} aria-current={v.view === data.view ? 'page' : undefined}>
              {v.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const NOTICES: Record<string, string> = {
  changed: 'The change was sent. The original request is superseded; the new one waits for an answer.',
};

export function ScheduleView({ base, data, notice }: { base: DashboardBase; data: ScheduleData; notice?: string | undefined }) {
  const b = base.business!;
  const island = WEB_ENTRIES.islands.schedule;
  const props = {
    businessId: b.id,
    timezone: b.timezone,
    currency: b.currency,
    view: data.view,
    date: data.date,
    week: mondayOf(data.from),
    shifts: data.week,
    labor: data.labor,
    seesPay: seesPay(base.business?.role),
    postHref: dashboardHref(base, '/dashboard/shifts/new'),
    scheduleHref: dashboardHref(base, '/dashboard/schedule'),
    changeHref: dashboardHref(base, '/dashboard/shifts/{id}/change'),
    shiftHref: dashboardHref(base, '/dashboard/shifts/{id}'),
  };
  const title = data.view === 'day' ? dateText(data.from) : `Week of ${dateText(data.from)}`;
  return (
    <AppShell
      base={base}
      title="Schedule"
      current="/dashboard/schedule"
      notice={notice}
      scripts={[island.js]}
      styles={island.css ? [island.css] : []}
      action={
        <a class="button button-primary" href={dashboardHref(base, '/dashboard/shifts/new')}>
          Post a shift
        </a>
      }
    >
      <p class="aside">
        {b.name} · times in {b.timezone}
      </p>
      <ScheduleToolbar base={base} date={data.date} people={false} />
      <div class="schedule" data-island="schedule" data-props={JSON.stringify(props)}>
        <div class="schedule-main" data-schedule-main>
          <RangeNav base={base} data={data} />
          <h2>{title}</h2>
          {data.truncated ? (
            <p class="field-error">{`This week has more than ${DATED_READ_MAX.toLocaleString('en-US')} shifts; the ${DATED_READ_MAX.toLocaleString('en-US')} posted last are shown.`}</p>
          ) : null}
          <ShiftTable base={base} data={data} />
        </div>
        <div class="schedule-side">
          <Card title="Labor cost">
            <div data-schedule-labor>
              {data.labor ? (
                <LaborFigures labor={data.labor} shifts={data.week} nowMs={data.nowMs} />
              ) : (
                <p class="muted">Labor costs are shown to the business owner.</p>
              )}
            </div>
            {data.labor ? (
              <p>
                <a href={dashboardHref(base, '/dashboard/money')}>Labor costs and invoices</a>
              </p>
            ) : null}
          </Card>
          <Card title="Colours">
            <Legend />
          </Card>
        </div>
      </div>
    </AppShell>
  );
}

export async function renderSchedule(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  if (c.req.query('view') === 'people') return renderPeople(c, base);
  const data = await loadSchedule(c, base);
  return renderPage(c, <ScheduleView base={base} data={data} notice={NOTICES[c.req.query('notice') ?? '']} />);
}
