// The connection actions of the crew (/dashboard/crew/connections/:id/…): accept or decline a
// shifter's request, withdraw a request of the business, remove someone from the crew.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { type ListedConnection, listConnections, removeConnection, respondToConnection } from '@/services/connections';
import { renderError, renderPage } from '@/web/render';
import { ConfirmPage } from '@/web/features/dashboard/confirm-page';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { refusalOf } from '@/web/features/dashboard/refusals';
import { loadCrew } from './crew-data';
import { CREW, connectionPath } from './crew-format';
import { CrewView } from './crew-view';

/** A connection of this business, as the crew page lists it (pending or accepted). */
async function connectionOf(c: Context<AppEnv>, base: DashboardBase): Promise<{ x: ListedConnection; incoming: boolean } | null> {
  const id = c.req.param('id') ?? '';
  const lists = await listConnections(serviceCtx(c), { business_id: base.business!.id });
  const incoming = lists.incoming.find((x) => x.id === id);
  if (incoming) return { x: incoming, incoming: true };
  const x = [...lists.outgoing, ...lists.accepted].find((y) => y.id === id);
  return x ? { x, incoming: false } : null;
}

const connectionGone = (c: Context<AppEnv>) =>
  renderError(c, 404, 'Not found', 'This connection no longer exists, or it belongs to another business.');

export async function postAcceptConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  return answerConnection(c, base, 'accept');
}

async function answerConnection(c: Context<AppEnv>, base: DashboardBase, decision: 'accept' | 'decline'): Promise<Response> {
  const found = await connectionOf(c, base);
  if (!found) return connectionGone(c);
  try {
    await respondToConnection(serviceCtx(c), found.x.id, decision);
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} error={r.message} />, r.status);
  }
  return c.redirect(dashboardHref(base, CREW, { notice: decision === 'accept' ? 'accepted' : 'declined' }), 303);
}

export async function renderDeclineConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const found = await connectionOf(c, base);
  if (!found?.incoming) return connectionGone(c);
  const name = found.x.shifter_name;
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Decline a request"
      current={CREW}
      action={connectionPath(found.x.id, 'decline')}
      button={`Decline ${name}`}
      variant="danger"
      back={CREW}
    >
      <p>{`Decline ${name}'s request to join your crew? They are not told why; they may ask again later, and you may invite them yourself.`}</p>
    </ConfirmPage>,
  );
}

export async function postDeclineConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  return answerConnection(c, base, 'decline');
}

export async function renderRemoveConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const found = await connectionOf(c, base);
  if (!found || found.incoming) return connectionGone(c);
  const { x } = found;
  const pending = x.status === 'pending';
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title={pending ? 'Withdraw a request' : 'Remove from the crew'}
      current={CREW}
      action={connectionPath(x.id, 'remove')}
      button={pending ? 'Withdraw the request' : `Remove ${x.shifter_name}`}
      variant="danger"
      back={CREW}
    >
      <p>
        {pending
          ? `Withdraw your request to ${x.shifter_name}? They can no longer accept it.`
          : `Remove ${x.shifter_name} from the crew of ${base.business.name}? You can no longer send them shifts and they no longer see your broadcasts. Shifts already accepted stay as they are.`}
      </p>
    </ConfirmPage>,
  );
}

export async function postRemoveConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const found = await connectionOf(c, base);
  if (!found || found.incoming) return connectionGone(c);
  await removeConnection(serviceCtx(c), found.x.id);
  return c.redirect(dashboardHref(base, CREW, { notice: found.x.status === 'pending' ? 'withdrawn' : 'removed' }), 303);
}
