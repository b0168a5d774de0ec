import { and, eq, inArray } from 'drizzle-orm';
import { businesses, shiftRequests, teammates } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { errorFields } from '../../lib/log';
import { TEAMMATE_STATUS } from '../access';
import type { NotifyMessage, ServiceContext } from '../kernel';
import { catalogEntry } from '../notifications';
import { businessLiveStub } from './follow';
import type { LiveKind, LiveSignal } from './limits';

/*
 * Where the signals come from: the events the domains already put through the outbox, as the queue
 * consumer (queues/consumer.ts) handles them. Nothing here is on a request's path, and nothing here
 * ever throws: a signal that cannot be sent is logged, the event's delivery goes on, and the pages
 * are brought up to date when they reconnect (they fetch again after every reconnection).
 */

/**
 * Tells the business's open pages that `kind` changed (only the pages of `userIds` when given). Best
 * effort: true when the object took the signal, false (logged) when it could not be reached.
 */
export async function publishLive(ctx: ServiceContext, businessId: string, kind: LiveKind, userIds?: string[]): Promise<boolean> {
  return tellBusiness(ctx, businessId, [{ kind, userIds: userIds ?? null }]);
}

async function tellBusiness(ctx: ServiceContext, businessId: string, signals: LiveSignal[]): Promise<boolean> {
  try {
    await businessLiveStub(ctx, businessId).signal(signals);
    return true;
  } catch (err) {
    ctx.log.warn('a live update could not be published; the pages catch up when they reconnect', {
      business_id: businessId,
      kinds: signals.map((s) => s.kind).join(','),
      ...errorFields(err),
    });
    return false;
  }
}

/** The live kind a notification's catalog group changes on a business's pages, if any. */
function kindOfNotification(kind: string): LiveKind | null {
  const group = catalogEntry(kind).group;
  if (group === 'shift_offers' || group === 'shift_updates') return 'shifts';
  if (group === 'connections') return 'connections';
  return null;
}

/**
 * A `notify` message the consumer handled: its recipients' unread counts changed (`counts`, to their
 * own pages only, on every business they act for), and a notification about a shift or a connection
 * changed that business's pages (`shifts`, `connections`). The business is the one the notification
 * names (`data.business_id`), else its shift's.
 */
export async function publishLiveOfNotify(ctx: ServiceContext, msg: NotifyMessage): Promise<void> {
  try {
    const plan = new Map<string, LiveSignal[]>();
    const add = (businessId: string, signal: LiveSignal) => plan.set(businessId, [...(plan.get(businessId) ?? []), signal]);
    const kind = kindOfNotification(msg.kind);
    const about = kind ? await businessOf(ctx, msg.data) : null;
    if (kind && about) add(about, { kind });
    for (const [businessId, userIds] of await recipientsByBusiness(ctx, msg.user_ids)) add(businessId, { kind: 'counts', userIds });
    await Promise.all([...plan].map(([businessId, signals]) => tellBusiness(ctx, businessId, signals)));
  } catch (err) {
    ctx.log.warn('the live updates of a notification could not be planned', { kind: msg.kind, ...errorFields(err) });
  }
}

/** Partner event types that change a business's shifts (services/webhooks/payloads.ts). */
const isShiftEvent = (type: string) => type.startsWith('shift_request.') || type.startsWith('broadcast.');

/**
 * Messages of the webhooks queue: a partner event about a business's shift (created, broadcast,
 * claimed, accepted, cancelled, clocked in or out) changed its pages (`shifts`), one signal per
 * business however many of its events the batch holds. Deliveries to partners are not events.
 */
export async function publishLiveOfPartnerEvents(ctx: ServiceContext, bodies: readonly unknown[]): Promise<void> {
  const ids = new Set<string>();
  for (const body of bodies) {
    if (!body || typeof body !== 'object') continue;
    const { type, business_id } = body as { type?: unknown; business_id?: unknown };
    if (typeof type === 'string' && typeof business_id === 'string' && isShiftEvent(type)) ids.add(business_id);
  }
  await Promise.all([...ids].map((id) => tellBusiness(ctx, id, [{ kind: 'shifts' }])));
}

async function businessOf(ctx: ServiceContext, data: Record<string, unknown> | undefined): Promise<string | null> {
  if (typeof data?.business_id === 'string') return data.business_id;
  if (typeof data?.shift_request_id !== 'string') return null;
  const [row] = await ctx.db
    .select({ id: shiftRequests.business_id })
    .from(shiftRequests)
    .where(eq(shiftRequests.id, data.shift_request_id))
    .limit(1);
  return row?.id ?? null;
}

/** The businesses each of `userIds` acts for (owner, active teammate), as business → its people among them. */
async function recipientsByBusiness(ctx: ServiceContext, userIds: readonly string[]): Promise<Map<string, string[]>> {
  const byBusiness = new Map<string, Set<string>>();
  // Well under D1's 100 bound parameters a statement, however many people a notification reaches.
  for (const slice of chunk([...new Set(userIds)], 50)) {
    const [owned, teams] = await Promise.all([
      ctx.db.select({ businessId: businesses.id, userId: businesses.user_id }).from(businesses).where(inArray(businesses.user_id, slice)),
      ctx.db
        .select({ businessId: teammates.business_id, userId: teammates.user_id })
        .from(teammates)
        .where(and(inArray(teammates.user_id, slice), eq(teammates.status, TEAMMATE_STATUS.active))),
    ]);
    for (const r of [...owned, ...teams]) byBusiness.set(r.businessId, (byBusiness.get(r.businessId) ?? new Set()).add(r.userId));
  }
  return new Map([...byBusiness].map(([id, users]) => [id, [...users]]));
}
