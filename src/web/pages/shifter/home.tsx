import type { Context } from 'hono';
import type { AppEnv } from '../../../http/app-types';
import { serviceCtx } from '../../../http/create-app';
import { listBroadcasts, listRequests, type ShiftRequestView } from '../../../services/shifts';
import { Card } from '../../components';
import { formatDate, formatMoney, shiftHours } from '../../format';
import { renderPage } from '../../render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';

/**
 * The shifter side of a person's dashboard: what they have coming (accepted shifts), what waits for
 * their answer (targeted requests) and the open broadcasts of their crews, best fit first. Reads
 * only; answering and claiming happen through the API and the tools for now.
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
  return (
    <AppShell base={base} side="shifter" current="/dashboard/shifter" title="Your shifts">
      <div class="grid">
        <Card title="Coming up">
          <ShiftList shifts={upcoming} empty="No accepted shift coming up." />
        </Card>
        <Card title="Waiting for your answer">
          <ShiftList shifts={requests} empty="No request waiting for you." />
        </Card>
        <Card title="Open shifts of your crews">
          <ShiftList shifts={broadcasts} empty="No open shift right now." />
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
    listBroadcasts(ctx, { shifter_id: base.shifterId, sort_by_relevance: true, limit: 10 }),
  ]);
  const upcoming = accepted.data.filter((s) => !s.shift_end_at && Date.parse(s.ends_at) > now).sort(byStart);
  return renderPage(
    c,
    <ShifterView base={base} upcoming={upcoming.slice(0, 20)} requests={pending.data.sort(byStart)} broadcasts={open.data} />,
  );
}
