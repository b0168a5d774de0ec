import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '@/services/kernel';
import { type ListedConnection, listConnections, removeConnection, respondToConnection, sendConnection } from '@/services/connections';
import { CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { renderConnections } from './connections';
import { CONNECTIONS, connectionAction } from './parts';

/*
 * The connections page's actions (/dashboard/shifter/connections/…): accept an invitation, decline it
 * after a confirmation, remove a business or withdraw a request after one, and ask a business found
 * by the search. Each acts on the shifter's side of the pair only: a connection the person holds as
 * a business (a dual-profile account) is the crew page's, and someone else's is not found.
 */

type Where = 'incoming' | 'outgoing' | 'accepted' | 'closed';

/**
 * The person's connection `id` on their shifter side and where it sits; with `closed`, a declined or
 * removed one too (an invitation withdrawn while the page was open, so its refusal can be shown).
 */
async function mine(ctx: ServiceContext, id: string, closed: boolean): Promise<{ x: ListedConnection; where: Where } | null> {
  const lists = await listConnections(ctx, { as: 'shifter' });
  for (const where of ['incoming', 'outgoing', 'accepted'] as const) {
    const x = lists[where].find((y) => y.id === id);
    if (x) return { x, where };
  }
  if (!closed) return null;
  const ended = await Promise.all(
    (['removed', 'declined'] as const).map((status) => listConnections(ctx, { as: 'shifter', status }).then((l) => l.closed)),
  );
  const x = ended.flat().find((y) => y.id === id);
  return x ? { x, where: 'closed' } : null;
}

const gone = (c: Context<AppEnv>) =>
  renderConnections(c, { error: 'This invitation or connection is not yours, or it no longer exists.', status: 404 });

/** A refusal the page shows in the service's words; anything but one is not a refusal. */
function refusalOf(err: unknown): AppError {
  if (err instanceof AppError && err.status < 500) return err;
  throw err;
}

async function answer(c: Context<AppEnv>, decision: 'accept' | 'decline'): Promise<Response> {
  const ctx = serviceCtx(c);
  const found = await mine(ctx, c.req.param('id') ?? '', true);
  if (!found) return gone(c);
  if (found.where === 'outgoing' || found.where === 'accepted') {
    return renderConnections(c, { error: 'This is not an invitation waiting for your answer.', status: 409 });
  }
  try {
    await respondToConnection(ctx, found.x.id, decision);
  } catch (err) {
    const r = refusalOf(err);
    return renderConnections(c, { refused: { connection: found.x, message: r.message }, status: r.status as ContentfulStatusCode });
  }
  return c.redirect(`${CONNECTIONS}?notice=${decision === 'accept' ? 'accepted' : 'declined'}`, 303);
}

export const postAccept = (c: Context<AppEnv>) => answer(c, 'accept');
export const postDecline = (c: Context<AppEnv>) => answer(c, 'decline');

/** A confirmation on the shifter side: what will happen, the button that does it, and a way back. */
function ConfirmAct(p: { base: DashboardBase; title: string; action: string; button: string; children: Child }) {
  return (
    <AppShell base={p.base} side="shifter" current={CONNECTIONS} title={p.title}>
      <div class="confirm">{p.children}</div>
      <form method="post" action={p.action} class="sc-actions">
        <CsrfField token={p.base.csrfToken} />
        <IdempotencyField />
        <SubmitButton variant="danger">{p.button}</SubmitButton>
        <a class="button button-secondary" href={CONNECTIONS}>
          Keep it
        </a>
      </form>
    </AppShell>
  );
}

export async function getDecline(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const found = await mine(serviceCtx(c), c.req.param('id') ?? '', false);
  if (found?.where !== 'incoming') return gone(c);
  const name = found.x.business_name;
  return renderPage(
    c,
    <ConfirmAct
      base={base}
      title="Decline this invitation?"
      action={connectionAction(found.x.id, 'decline')}
      button="Decline the invitation"
    >
      <p>{`Decline the invitation of ${name} to join their crew? They are not told why, and you can still ask to connect with them later.`}</p>
    </ConfirmAct>,
  );
}

export async function getRemove(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const found = await mine(serviceCtx(c), c.req.param('id') ?? '', false);
  if (found?.where !== 'accepted' && found?.where !== 'outgoing') return gone(c);
  const { x } = found;
  const pending = found.where === 'outgoing';
  return renderPage(
    c,
    <ConfirmAct
      base={base}
      title={pending ? 'Withdraw your request?' : 'Leave this crew?'}
      action={connectionAction(x.id, 'remove')}
      button={pending ? 'Withdraw the request' : `Remove ${x.business_name}`}
    >
      <p>
        {pending
          ? `Withdraw your request to join the crew of ${x.business_name}? They can no longer accept it; you can ask again later.`
          : `Remove ${x.business_name} from your businesses? You leave their crew: they can no longer send you shifts and you no longer see their open shifts. Shifts you already accepted stay on your schedule.`}
      </p>
    </ConfirmAct>,
  );
}

export async function postRemove(c: Context<AppEnv>): Promise<Response> {
  const ctx = serviceCtx(c);
  const found = await mine(ctx, c.req.param('id') ?? '', false);
  if (found?.where !== 'accepted' && found?.where !== 'outgoing') return gone(c);
  try {
    await removeConnection(ctx, found.x.id);
  } catch (err) {
    const r = refusalOf(err);
    return renderConnections(c, { error: r.message, status: r.status as ContentfulStatusCode });
  }
  return c.redirect(`${CONNECTIONS}?notice=${found.where === 'outgoing' ? 'withdrawn' : 'removed'}`, 303);
}

/** POST /dashboard/shifter/connections/ask: the shifter's request to a business found by the search; the search is kept. */
export async function postAsk(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const businessId = field('business', 100);
  const name = field('name', 200);
  const city = field('city', 200);
  const query = name || city ? { name, city } : null;
  try {
    const made = await sendConnection(serviceCtx(c), { business_id: businessId, shifter_id: null, as: 'shifter' });
    const notice = made.status === 'accepted' ? 'connected' : 'asked';
    return c.redirect(`${CONNECTIONS}?${new URLSearchParams({ ...(query ?? {}), notice })}`, 303);
  } catch (err) {
    const r = refusalOf(err);
    return renderConnections(c, { query, askRefusal: { businessId, message: r.message }, status: r.status as ContentfulStatusCode });
  }
}
