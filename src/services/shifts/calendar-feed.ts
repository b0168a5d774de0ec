import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { ICalCalendar, ICalEventStatus } from 'ical-generator';
import { businesses, calendarFeeds, shiftRequests, shiftRoles } from '../../db/schema';
import { sha256Hex, toBase64Url } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { shifterIdOf } from '../access';
import { prepareWrite, requirePerson, type ServiceContext, SHIFT_STATUS } from '../kernel';

/**
 * A shifter's private calendar feed: an iCalendar (RFC 5545) file at {app_url}/cal/{secret}.ics that
 * a phone's calendar subscribes to, holding the shifter's accepted shifts. The secret is 32 random
 * bytes; only its SHA-256 is stored (calendar_feeds), so the address is shown once, when it is made.
 * Making a new one replaces the old (which stops at once); turning the feed off deletes it.
 */

/** How far back the feed reaches: recent worked shifts stay in the calendar for a month. */
const FEED_PAST_DAYS = 30;
/** At most this many shifts in one feed (a year of daily shifts and more). */
const FEED_MAX_EVENTS = 500;

export interface CalendarFeedState {
  active: boolean;
  created_at: string | null;
}

async function ownShifter(ctx: ServiceContext): Promise<{ userId: string; shifterId: string }> {
  const actor = requirePerson(ctx);
  const shifterId = await shifterIdOf(ctx, actor.userId);
  if (!shifterId) throw new AppError('FORBIDDEN-ERR', 'Only a shifter has a calendar feed.');
  return { userId: actor.userId, shifterId };
}

/** Whether the caller's feed is on, and since when. */
export async function calendarFeedState(ctx: ServiceContext): Promise<CalendarFeedState> {
  const { shifterId } = await ownShifter(ctx);
  const [row] = await ctx.db
    .select({ created_at: calendarFeeds.updated_at })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.shifter_id, shifterId));
  return { active: Boolean(row), created_at: row ? toIso(row.created_at) : null };
}

/**
 * Makes the caller's feed secret, replacing any earlier one (rotate = revoke + new, in one statement).
 * Answers the secret once; `null` when this was a retry of a request that already made it (the secret
 * is not stored, so the caller makes another).
 */
export async function rotateCalendarFeed(ctx: ServiceContext): Promise<{ secret: string | null }> {
  const { shifterId } = await ownShifter(ctx);
  const secret = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const hash = await sha256Hex(secret);
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'calendar_feed', id: shifterId });
  const r = await w.commit({
    guard: ctx.db
      .insert(calendarFeeds)
      .values({ shifter_id: shifterId, secret_hash: hash, created_at: now, updated_at: now })
      .onConflictDoUpdate({ target: calendarFeeds.shifter_id, set: { secret_hash: hash, updated_at: now } }),
    audit: { action: 'calendar_feed.rotate' },
  });
  return { secret: r.replayed ? null : secret };
}

/** Turns the caller's feed off: its address stops answering at once. */
export async function revokeCalendarFeed(ctx: ServiceContext): Promise<void> {
  const { shifterId } = await ownShifter(ctx);
  const w = prepareWrite(ctx, { type: 'calendar_feed', id: shifterId });
  await w.commit({
    guard: ctx.db.delete(calendarFeeds).where(eq(calendarFeeds.shifter_id, shifterId)),
    audit: { action: 'calendar_feed.revoke' },
  });
}

/** A secret's shape: 32 bytes in base64url. Anything else is not looked up. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The feed for a secret, as iCalendar text; null for an unknown or revoked secret (the route answers
 * 404 without saying which). No person is signed in: the secret is the credential.
 */
export async function calendarFeedText(ctx: ServiceContext, secret: string): Promise<string | null> {
  if (!SECRET_SHAPE.test(secret)) return null;
  const hash = await sha256Hex(secret);
  const [feed] = await ctx.db
    .select({ shifter_id: calendarFeeds.shifter_id })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.secret_hash, hash));
  if (!feed) return null;
  const now = ctx.now();
  const rows = await ctx.db
    .select({ s: shiftRequests, business: businesses.name, address: businesses.address, role: shiftRoles.label })
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .where(
      and(
        eq(shiftRequests.shifter_id, feed.shifter_id),
        inArray(shiftRequests.request_status, [SHIFT_STATUS.accepted, SHIFT_STATUS.completed]),
        eq(shiftRequests.is_noshow, false),
        gt(shiftRequests.ends_at, now - FEED_PAST_DAYS * 86_400_000),
      ),
    )
    .orderBy(asc(shiftRequests.starts_at))
    .limit(FEED_MAX_EVENTS);
  const cal = new ICalCalendar({
    name: 'Shiftmarket shifts',
    prodId: { company: 'Shiftmarket', product: 'Shifts', language: 'EN' },
    ttl: 60 * 60,
  });
  for (const { s, business, address, role } of rows) {
    cal.createEvent({
      id: `${s.id}@shiftmarket`,
      start: new Date(s.starts_at),
      end: new Date(s.ends_at),
      stamp: new Date(s.updated_at),
      lastModified: new Date(s.updated_at),
      summary: `${role ?? 'Shift'} at ${business}`,
      location: address ?? business,
      description: s.note ?? null,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
