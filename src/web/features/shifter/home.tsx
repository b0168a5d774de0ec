import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { listBroadcasts, listRequests, type ShiftRequestView } from '@/services/shifts';
import { Card } from '@/web/components';
import { formatDate, formatMoney, shiftHours } from '@/web/format';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { FIND, relevanceReason, SCHEDULE, ShiftItem } from '../shifter-shifts/parts';

/**
 * The shifter side's home ({app_url}/dashboard/shifter): what is next (the next accepted shift, big,
 * then the rest of the coming days), the requests waiting for an answer (answered on Find shifts),
 * and the few best open shifts of their crews with their score and why. Each part leads on to its page.
 */
function ShiftList({ shifts, empty }: { shifts: ShiftRequestView[]; empty: string }) {
  if (!shifts.length) return <p class="empty">{empty}</p>;
  return (
    <ul class="list-plain">
      {shifts.map((s) => (
        <li>
          <strong>{formatDate(s.shift_date)}</strong> {shiftHours(s.shift_in, s.shift_out)} · {s.role ?? 'Shift'} · {s.business_name ?? ''}
          <span class="muted">{` · ${formatMoney(s.hourly_rate, s.currency)}/h`}</span>
        </li>
      ))}
    </ul>
  );
}

function ShifterView({
  base,
  upcoming,
  requests,
  broadcasts,
}: {
  base: DashboardBase;
  upcoming: ShiftRequestView[];
  requests: ShiftRequestView[];
  broadcasts: ShiftRequestView[];
}) {
  const [next, ...later] = upcoming;
  return (
    <AppShell base={base} side="shifter" current="/dashboard/shifter" title="Your shifts">
      <section class="sf-section" aria-labelledby="next-heading">
        <h2 id="next-heading">What is next</h2>
        {next ? (
          <ul class="sf-list">
            <ShiftItem s={next}>
              <div class="sf-actions">
                <a class="button button-primary" href="/dashboard/shifter/clock">
                  Clock in and out
                </a>
              </div>
            </ShiftItem>
          </ul>
        ) : (
          <p class="empty">
            No accepted shift coming up. <a href={FIND}>Find shifts</a>
          </p>
        )}
        {later.length ? <ShiftList shifts={later.slice(0, 5)} empty="" /> : null}
        <p>
          <a href={SCHEDULE}>My schedule</a>
        </p>
      </section>
      <div class="grid">
        <Card title="Waiting for your answer">
          <ShiftList shifts={requests.slice(0, 5)} empty="No request waiting for you." />
          {requests.length ? (
            <p>
              <a class="button button-secondary" href={FIND}>
                Answer {requests.length === 1 ? 'the request' : `${requests.length} requests`}
              </a>
            </p>
          ) : null}
        </Card>
        <Card title="Best open shifts for you">
          {broadcasts.length ? (
            <ul class="list-plain">
              {broadcasts.map((s) => (
                <li>
                  <strong>{formatDate(s.shift_date)}</strong> {shiftHours(s.shift_in, s.shift_out)} · {s.role ?? 'Shift'} ·{' '}
                  {s.business_name ?? ''}
                  <span class="muted">{` · ${formatMoney(s.hourly_rate, s.currency)}/h`}</span>
                  <br />
                  <span class="muted">{`Score ${s.relevance_score ?? 0} of 100: ${relevanceReason(s, s.relevance_signals)}`}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">No open shift right now.</p>
          )}
          <p>
            <a class="button button-secondary" href={FIND}>
              Find shifts
            </a>
          </p>
        </Card>
      </div>
    </AppShell>
  );
}

export async function renderShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const now = ctx.now();
  const byStart = (a: ShiftRequestView, b: ShiftRequestView) => a.starts_at.localeCompare(b.starts_at);
  const [accepted, pending, open] = await Promise.all([
    listRequests(ctx, { as: 'shifter', status: 2, limit: 100 }),
    listRequests(ctx, { as: 'shifter', status: 1, is_broadcast: false, limit: 100 }),
    listBroadcasts(ctx, { shifter_id: base.shifterId, sort_by_relevance: true, limit: 3 }),
  ]);
  const upcoming = accepted.data.filter((s) => !s.shift_end_at && Date.parse(s.ends_at) > now).sort(byStart);
  return renderPage(
    c,
    <ShifterView
      base={base}
      upcoming={upcoming.slice(0, 20)}
      requests={pending.data.filter((s) => Date.parse(s.starts_at) > now).sort(byStart)}
      broadcasts={open.data}
    />,
  );
}
