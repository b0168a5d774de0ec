import type { Context } from 'hono';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { listConnections } from '@/services/connections';
import { emptyCrewWarning, listShiftRoles, SHIFT_INPUT_BOUNDS } from '@/services/shifts';
import { Card } from '@/web/components';
import { renderPage } from '@/web/render';
import { dashboardBase, dashboardHref } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { EmptyCrewNotice } from './shift-fields';

/**
 * Bulk posting: the page holds the island (src/web/features/posting/bulk.island.tsx) with what it needs to check
 * rows before sending them (the roles, the crew, the currency and the service's shift input bounds).
 * Each row is posted through send_request, the same operation as one shift. A business without crew
 * is told first that its broadcasts reach nobody (the domain's empty-crew warning).
 */
export async function renderBulk(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const b = base.business;
  if (!b) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const [roles, conns, emptyCrew] = await Promise.all([
    listShiftRoles(ctx),
    listConnections(ctx, { business_id: b.id, status: 'accepted' }),
    emptyCrewWarning(ctx, b.id),
  ]);
  const crewHref = dashboardHref(base, '/dashboard/crew');
  const crew = conns.accepted.map((x) => ({ id: x.shifter_id, name: x.shifter_name }));
  const island = WEB_ENTRIES.islands.bulk;
  const props = {
    businessId: b.id,
    currency: b.currency,
    roles,
    crew,
    bounds: SHIFT_INPUT_BOUNDS,
    scheduleHref: dashboardHref(base, '/dashboard/schedule'),
    crewHref,
  };
  return renderPage(
    c,
    <AppShell base={base} title="Bulk posting" current="/dashboard/bulk" scripts={[island.js]}>
      <p>
        Paste up to 200 shifts or read them from a CSV file. They are checked here before anything is sent, then posted five at a time; a
        row that is refused keeps the reason beside it and can be fixed and sent again on its own. A row asking a shifter who is already
        booked then is held back, with the reason beside it, until you choose to send it anyway.
      </p>
      {emptyCrew ? <EmptyCrewNotice warning={emptyCrew} crewHref={crewHref} /> : null}
      <Card title="Rows">
        <div data-island="bulk" data-props={JSON.stringify(props)}>
          <p class="empty">Bulk posting needs JavaScript. Without it, post shifts one at a time:</p>
          <p>
            <a href={dashboardHref(base, '/dashboard/shifts/new')}>Post a shift</a>
          </p>
        </div>
      </Card>
      <Card title="Names it understands">
        <p class="hint">Roles: {roles.map((r) => r.label).join(', ')}.</p>
        <p class="hint">
          Shifters of your crew: {crew.length ? crew.map((s) => s.name).join(', ') : 'none yet (every row must be a broadcast)'}.
        </p>
      </Card>
    </AppShell>,
  );
}
