import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { addDays, todayIn } from '@/lib/shift-time';
import { laborCosts } from '@/services/insights';
import { listInbox } from '@/services/messaging';
import { stuckInvoices } from '@/services/payments';
import { listRequestsMany, type ShiftRequestView, shiftStateWords } from '@/services/shifts';
import { Card, TableWrap } from '@/web/components';
import { formatDate, formatMoney, shiftHours, timeIn } from '@/web/format';
import { renderPage } from '@/web/render';
import { seesPay } from '@/services/access';
import { type SetupChecklist, type SetupStep, setupChecklist } from '@/services/businesses';
import { type DashboardBase, dashboardBase, dashboardHref, landingOf, rememberSide } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { LiveRegion } from '../dashboard/live-region';
import { AppShell } from '../dashboard/shell';
import { renderWelcome } from './welcome';

/** The home's notices, by the key in `?notice=` (the Welcome page's redirect): the address picks one, never writes one. */
const NOTICES = {
  business_created: 'Your business is ready. Post its first shift, or invite your crew from Crew.',
};

/**
 * How a shift of today stands at a glance (the today table and the clock board): its state in the
 * service's words (`shiftStateWords`, with "Late" since these pages are about now), the badge colour
 * of those pages, and the clock time once punched (`at`, in the business's zone).
 */
export function todayStanding(s: ShiftRequestView, nowMs: number): { label: string; tone: 'ok' | 'warn' | 'info' | ''; at: string | null } {
  const w = shiftStateWords(s, nowMs);
  const tz = s.timezone ?? 'UTC';
  const tone = w.attention ? 'warn' : w.tone === 'pending' ? 'info' : w.tone === 'done' || w.state === 'clocked_in' ? 'ok' : '';
  const at =
    w.state === 'clocked_in' && s.shift_start_at
      ? `since ${timeIn(s.shift_start_at, tz)}`
      : w.tone === 'done' && s.shift_end_at
        ? `out at ${timeIn(s.shift_end_at, tz)}`
        : null;
  return { label: w.label, tone, at };
}

const LIVE = new Set(['pending', 'accepted', 'completed', 'expired', 'cancelled']);

interface HomeData {
  today: string;
  todays: ShiftRequestView[];
  broadcasts: ShiftRequestView[];
  claimed: ShiftRequestView[];
  pending: ShiftRequestView[];
  labor: Awaited<ReturnType<typeof laborCosts>> | null;
  unread: number;
  stuck: Awaited<ReturnType<typeof stuckInvoices>>;
  setup: SetupChecklist;
}

async function loadHome(c: Context<AppEnv>, base: DashboardBase): Promise<HomeData | null> {
  const b = base.business;
  if (!b) return null;
  const ctx = serviceCtx(c);
  const today = todayIn(b.timezone, ctx.now());
  const common = { as: 'business' as const, business_id: b.id, limit: 200 };
  // The four lists in one round trip after one access check (each reads its dates, not the history).
  const lists = listRequestsMany(ctx, [
    { ...common, date_from: today, date_to: today },
    { ...common, status: 1, is_broadcast: true, date_from: today },
    { ...common, status: 2, is_broadcast: true, date_from: today, date_to: addDays(today, 14) },
    { ...common, status: 1, is_broadcast: false, date_from: today },
  ]).then((all) => all.map((l) => l.data));
  const [[todays, broadcasts, claimed, pending], labor, inbox, stuck, setup] = await Promise.all([
    lists as Promise<[ShiftRequestView[], ShiftRequestView[], ShiftRequestView[], ShiftRequestView[]]>,
    seesPay(base.business?.role) ? laborCosts(ctx, b.id) : Promise.resolve(null),
    listInbox(ctx, { tab: 'all', as_kind: 'business', as_id: b.id, limit: 100 }),
    seesPay(base.business?.role) ? stuckInvoices(ctx) : Promise.resolve([]),
    setupChecklist(ctx, b.id),
  ]);
  return {
    today,
    todays: todays.filter((s) => LIVE.has(s.status)).sort((x, y) => x.starts_at.localeCompare(y.starts_at)),
    broadcasts: broadcasts.sort((x, y) => x.starts_at.localeCompare(y.starts_at)),
    claimed: claimed.sort((x, y) => (y.accepted_at ?? '').localeCompare(x.accepted_at ?? '')),
    pending: pending.sort((x, y) => x.starts_at.localeCompare(y.starts_at)),
    labor,
    unread: inbox.data.reduce((n, t) => n + t.unread_count, 0),
    stuck: stuck.filter((s) => s.business_id === b.id),
    setup,
  };
}

/** Each first step in words, and where it is done (the business's setupChecklist says which are). */
const SETUP_WORDS: Record<SetupStep, { label: string; done: string; path: string }> = {
  address: { label: 'Add the venue’s address', done: 'The venue’s address is set', path: '/dashboard/settings' },
  location: {
    label: 'Set where clock-ins count as on site',
    done: 'Clock-ins are checked against the venue’s position',
    path: '/dashboard/settings',
  },
  crew: { label: 'Invite your crew', done: 'You have a crew', path: '/dashboard/crew' },
  first_shift: { label: 'Post your first shift', done: 'Your first shift is posted', path: '/dashboard/shifts/new' },
  card: { label: 'Add a card to pay for shifts', done: 'A card is saved', path: '/dashboard/money/cards/new' },
};

/** The first-run checklist: shown on Today until every step is done. */
function SetupCard({ base, setup }: { base: DashboardBase; setup: SetupChecklist }) {
  const left = setup.steps.filter((s) => !s.done).length;
  return (
    <Card title="Get set up">
      <p class="aside">{`${setup.steps.length - left} of ${setup.steps.length} done. This list goes away once everything is set.`}</p>
      <ol class="setup-steps">
        {setup.steps.map((s) => {
          const words = SETUP_WORDS[s.step];
          return s.done ? (
            <li class="setup-done">
              <span aria-hidden="true">✓ </span>
              <span class="visually-hidden">Done: </span>
              {words.done}
            </li>
          ) : (
            <li>
              <a href={dashboardHref(base, words.path)}>{words.label}</a>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

function ShiftLine({ base, s, extra }: { base: DashboardBase; s: ShiftRequestView; extra?: string | undefined }) {
  return (
    <li>
      <a href={shiftHref(base, s)}>
        <strong>{formatDate(s.shift_date)}</strong> {shiftHours(s.shift_in, s.shift_out)}
      </a>{' '}
      · {s.role ?? 'Shift'}
      {s.shifter_name ? ` · ${s.shifter_name}` : ''}
      {extra ? <span class="muted"> · {extra}</span> : null}
    </li>
  );
}

/** A shift's own page (src/web/features/shift), where its story and actions are. */
const shiftHref = (base: DashboardBase, s: ShiftRequestView) => dashboardHref(base, `/dashboard/shifts/${encodeURIComponent(s.id)}`);

function TodayTable({ base, data, nowMs }: { base: DashboardBase; data: HomeData; nowMs: number }) {
  if (!data.todays.length) return <p class="empty">No shifts today.</p>;
  return (
    <TableWrap label="Shifts of today">
      {/* On a phone each shift stacks (.stack-table): its time on a line, then the role, who and where it stands. */}
      <table class="stack-table">
        <caption class="visually-hidden">Shifts of today</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Role</th>
            <th scope="col">Shifter</th>
            <th scope="col">Now</th>
          </tr>
        </thead>
        <tbody>
          {data.todays.map((s) => {
            const st = todayStanding(s, nowMs);
            return (
              <tr>
                <th scope="row" class="nowrap">
                  <a href={shiftHref(base, s)}>{shiftHours(s.shift_in, s.shift_out)}</a>
                </th>
                <td>{s.role ?? '—'}</td>
                <td class="stack-name">{s.shifter_name ?? (s.is_broadcast ? 'Open to the crew' : '—')}</td>
                <td>
                  <span class={`badge${st.tone ? ` badge-${st.tone}` : ''}`}>{st.label}</span>
                  {st.at ? <span class="muted">{` ${st.at}`}</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

function LaborCard({ base, data }: { base: DashboardBase; data: HomeData }) {
  const l = data.labor;
  if (!l) return <p class="muted">Labor costs are shown to the business owner.</p>;
  const budget = l.weekly_budget;
  return (
    <>
      <p class="stat">{formatMoney(l.this_week_total, l.currency)}</p>
      <p class="stat-label">
        {budget === null ? 'No weekly budget set. ' : `of ${formatMoney(budget, l.currency)} budget. `}
        {`${l.this_week_shifts} worked shift(s), ${l.this_week_hours} h this week.`}
      </p>
      {budget !== null && budget > 0 ? (
        <meter
          class="meter"
          min={0}
          max={budget}
          high={budget * 0.9}
          optimum={0}
          value={Math.min(l.this_week_total, budget)}
          aria-label="This week's labor cost against the budget"
        />
      ) : null}
      <p>
        <a href={dashboardHref(base, '/dashboard/money')}>Labor costs and invoices</a>
      </p>
    </>
  );
}

export function HomeView({
  base,
  data,
  nowMs,
  notice,
}: {
  base: DashboardBase;
  data: HomeData;
  nowMs: number;
  notice?: string | undefined;
}) {
  const b = base.business!;
  return (
    <AppShell
      base={base}
      title="Today"
      current="/dashboard"
      notice={notice}
      action={
        <a class="button button-primary" href={dashboardHref(base, '/dashboard/shifts/new')}>
          Post a shift
        </a>
      }
    >
      <p class="aside">
        {b.name} · {formatDate(data.today)} · times in {b.timezone}
      </p>
      {/* Brought up to date without a reload when a shift, a connection or an unread count changes (the `live` island). */}
      <LiveRegion id="today" on={['shifts', 'connections', 'counts']} src={dashboardHref(base, '/dashboard')} label="Today">
        {data.setup.complete ? null : <SetupCard base={base} setup={data.setup} />}
        {data.stuck.length ? (
          <section class="notice notice-error" aria-labelledby="stuck-head">
            <h2 id="stuck-head">Payments waiting for you</h2>
            <p>Your bank asked to confirm these card payments (3-D Secure):</p>
            <ul>
              {data.stuck.map((s) => (
                <li>
                  <a href={s.authenticate_path}>{`Confirm ${formatMoney(s.amount, s.currency)}`}</a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <Card title="Shifts of today">
          <TodayTable base={base} data={data} nowMs={nowMs} />
          <p>
            <a href={dashboardHref(base, '/dashboard/board')}>Clock board</a> ·{' '}
            <a href={dashboardHref(base, '/dashboard/schedule')}>Schedule</a>
          </p>
        </Card>
        <div class="grid">
          <Card title="Open broadcasts">
            <p class="stat">{data.broadcasts.length}</p>
            {data.broadcasts.length ? (
              <ul class="list-plain">
                {data.broadcasts.slice(0, 5).map((s) => (
                  <ShiftLine base={base} s={s} />
                ))}
              </ul>
            ) : (
              <p class="empty">No open broadcasts.</p>
            )}
          </Card>
          <Card title="Claimed broadcasts">
            {data.claimed.length ? (
              <ul class="list-plain">
                {data.claimed.slice(0, 5).map((s) => (
                  <ShiftLine base={base} s={s} extra="claimed" />
                ))}
              </ul>
            ) : (
              <p class="empty">No broadcast claimed for the next two weeks yet.</p>
            )}
          </Card>
          <Card title="Waiting for an answer">
            <p class="stat">{data.pending.length}</p>
            {data.pending.length ? (
              <ul class="list-plain">
                {data.pending.slice(0, 5).map((s) => (
                  <ShiftLine base={base} s={s} />
                ))}
              </ul>
            ) : (
              <p class="empty">No request waiting for a shifter.</p>
            )}
          </Card>
          <Card title="This week's labor cost">
            <LaborCard base={base} data={data} />
          </Card>
          <Card title="Messages">
            <p class="stat">{data.unread}</p>
            <p class="stat-label">{data.unread === 1 ? 'unread message' : 'unread messages'}</p>
          </Card>
        </div>
      </LiveRegion>
    </AppShell>
  );
}

export async function renderHome(c: Context<AppEnv>): Promise<Response> {
  // The assistant's and the API docs' link to the prefilled form: /dashboard?openShift=1&date&in&out&business_id.
  if (c.req.query('openShift') === '1') {
    const q = new URL(c.req.url).searchParams;
    q.delete('openShift');
    return c.redirect(`/dashboard/shifts/new?${q.toString()}`, 303);
  }
  // Where the person lands comes first (context.ts, landingOf): this page is the business side only
  // for an address that names it, or for a person whose side it is.
  const base = await dashboardBase(c, { remember: false });
  const landing = landingOf(c, base);
  if (landing) return c.redirect(landing, 303);
  rememberSide(c, base);
  const data = await loadHome(c, base);
  if (!data) return renderWelcome(c, base);
  return renderPage(c, <HomeView base={base} data={data} nowMs={serviceCtx(c).now()} notice={noticeOf(c, NOTICES)} />);
}
