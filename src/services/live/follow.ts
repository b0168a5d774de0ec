import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import { accessBusiness, actingBusinessIds } from '../access';
import { requirePerson, type ServiceContext } from '../kernel';
import { BUSINESS_LIVE_HEADERS } from './limits';

/** The business's live object (durable-objects/business-live.ts), named by the business id. */
export function businessLiveStub(ctx: ServiceContext, businessId: string) {
  return ctx.env.BUSINESS_LIVE.get(ctx.env.BUSINESS_LIVE.idFromName(businessId));
}

/**
 * Opens the live updates of a business for a person who may see its pages: the same standing the
 * Today page asks (owner, active teammate, admin; accessBusiness: 404 without one). Only a page
 * session opens one (what a sign-out ends). `request` is the page's upgrade request, whose Origin the
 * caller has checked; the object is handed a new upgrade naming the business, the session and the
 * person, so nothing the browser sent reaches it.
 */
export async function openBusinessLive(ctx: ServiceContext, businessId: string, request: Request): Promise<Response> {
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
    throw new AppError('VALIDATION-ERR', 'The live updates of a business are a WebSocket.');
  }
  const actor = requirePerson(ctx);
  if (actor.kind !== 'user' || actor.via !== 'session') {
    throw new AppError('FORBIDDEN-ERR', 'The live updates of a business are opened from a signed-in page.');
  }
  await accessBusiness(ctx, businessId);
  const headers = new Headers({
    Upgrade: 'websocket',
    [BUSINESS_LIVE_HEADERS.business]: businessId,
    [BUSINESS_LIVE_HEADERS.session]: actor.credentialId,
    [BUSINESS_LIVE_HEADERS.user]: actor.userId,
  });
  return businessLiveStub(ctx, businessId).fetch(new Request('https://business-live.internal/live', { headers }));
}

/** Whether the context's person may still follow the business (the same rule as opening it). */
export async function mayFollowBusiness(ctx: ServiceContext, businessId: string): Promise<boolean> {
  try {
    await accessBusiness(ctx, businessId);
    return true;
  } catch (err) {
    if (err instanceof AppError && [401, 403, 404].includes(err.status)) return false;
    throw err;
  }
}

/**
 * Sessions of a person ended (services/accounts/live-views.ts): the objects of the businesses they act
 * for close that person's sockets of any other session than `liveSessionIds`. Called after the change
 * committed; never throws (the object asks again at its next signal anyway).
 */
export async function closeBusinessLiveOfEndedSessions(
  ctx: ServiceContext,
  userId: string,
  liveSessionIds: readonly string[],
): Promise<void> {
  try {
    const ids = await actingBusinessIds(ctx, userId);
    await tellObjects(ctx, ids, (id) => businessLiveStub(ctx, id).closeEndedSessions(userId, [...liveSessionIds]));
  } catch (err) {
    ctx.log.warn('closing the business live updates of ended sessions failed', { user_id: userId, ...errorFields(err) });
  }
}

/**
 * A person's standing toward a business changed (a teammate suspended or reactivated): the business's
 * object asks again for each of their sessions and closes the sockets of those that may no longer
 * follow it. Called after the change committed; never throws.
 */
export async function recheckBusinessLive(ctx: ServiceContext, businessId: string, userId: string): Promise<void> {
  await tellObjects(ctx, [businessId], (id) => businessLiveStub(ctx, id).recheckViewers(userId));
}

async function tellObjects(ctx: ServiceContext, ids: string[], tell: (id: string) => Promise<unknown>): Promise<void> {
  const outcomes = await Promise.allSettled(ids.map(tell));
  outcomes.forEach((o, i) => {
    if (o.status === 'rejected') {
      ctx.log.warn('a business live object could not be told of a change of standing', { business_id: ids[i], ...errorFields(o.reason) });
    }
  });
}
