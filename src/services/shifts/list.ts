import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { businesses, currencies, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor, isKeysetCursor, isOffsetCursor } from '../../lib/pagination';
import {
  actingBusinessIds,
  actsForBusinessSql,
  crewBusinessSql,
  isAdmin,
  partnerActor,
  partnerLinkedBusinessSql,
  shifterIdOf,
} from '../access';
import { requirePerson, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { counterSuggestionsForUser } from './counter-suggest';
import { exactWindow, exactWithin, loadPlaces, type RankedBroadcasts, rankedBroadcasts } from './relevance-signals';
import type { ListBroadcastsInput, ListRequestsInput, ShiftList } from './schemas';
import { shiftRequestView } from './view';

const shifterAlias = alias(shifters, 'target_shifter');

const joinedColumns = {
  row: shiftRequests,
  business_name: businesses.name,
  business_slug: businesses.slug,
  business_timezone: businesses.timezone,
  business_lat: businesses.latitude,
  business_lon: businesses.longitude,
  role_label: shiftRoles.label,
  shifter_name: shifterAlias.display_name,
  shifter_slug: shifterAlias.slug,
};

function selectJoined(ctx: ServiceContext) {
  return ctx.db
    .select(joinedColumns)
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .leftJoin(shifterAlias, eq(shifterAlias.id, shiftRequests.shifter_id));
}

/** The ranked page's rows, best first, each with its score: one statement with the ranking as a CTE. */
function selectRanked(ctx: ServiceContext, ranked: RankedBroadcasts) {
  return ctx.db
    .with(ranked)
    .select({ ...joinedColumns, relevance_score: ranked.score, ranked_bound: ranked.bound })
    .from(ranked)
    .innerJoin(shiftRequests, eq(shiftRequests.id, ranked.rankedId))
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .leftJoin(shifterAlias, eq(shifterAlias.id, shiftRequests.shifter_id))
    .orderBy(desc(ranked.score), asc(shiftRequests.starts_at), desc(shiftRequests.created_at), asc(shiftRequests.id));
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectJoined>['execute']>>[number];
const toView = (r: JoinedRow, score?: number) => shiftRequestView(r.row, r, score === undefined ? {} : { relevance_score: score });

function keysetAfter(cursor: string | null | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [createdAt, id] = decodeCursor(cursor, isKeysetCursor);
  return or(lt(shiftRequests.created_at, createdAt), and(eq(shiftRequests.created_at, createdAt), lt(shiftRequests.id, id)));
}

/**
 * The caller's shift requests (either side), newest first, keyset-paginated. A partner client sees the
 * businesses linked to it with `shifts:read` (services/access/partner.ts), as the business side does.
 */
export async function listRequests(ctx: ServiceContext, f: ListRequestsInput): Promise<ShiftList> {
  const actor = ctx.actor.kind === 'partner' ? null : requirePerson(ctx);
  const conds: SQL[] = [];
  if (!actor) {
    conds.push(partnerLinkedBusinessSql(partnerActor(ctx).partnerId, shiftRequests.business_id, 'shifts:read'));
  } else if (!isAdmin(actor)) {
    const [bizIds, myShifter] = await Promise.all([actingBusinessIds(ctx, actor.userId), shifterIdOf(ctx, actor.userId)]);
    const scopes: SQL[] = [];
    if (f.as !== 'shifter' && bizIds.length) scopes.push(actsForBusinessSql(actor.userId, shiftRequests.business_id));
    if (f.as !== 'business' && myShifter) scopes.push(eq(shiftRequests.shifter_id, myShifter));
    // Listing as a business one does not act for is refused the same way for everyone (no probing).
    if (f.business_id && !bizIds.includes(f.business_id) && f.as === 'business') throw new AppError('BUSINESS-NOT-FND-ERR');
    if (!scopes.length) return { data: [], next_cursor: null };
    conds.push(or(...scopes)!);
  }
  if (f.business_id) conds.push(eq(shiftRequests.business_id, f.business_id));
  if (f.shifter_id) conds.push(eq(shiftRequests.shifter_id, f.shifter_id));
  if (f.counterparty_id) conds.push(or(eq(shiftRequests.business_id, f.counterparty_id), eq(shiftRequests.shifter_id, f.counterparty_id))!);
  if (f.status !== undefined) conds.push(inArray(shiftRequests.request_status, Array.isArray(f.status) ? f.status : [f.status]));
  if (f.shiftrole_id !== undefined) conds.push(eq(shiftRequests.shiftrole_id, f.shiftrole_id));
  if (f.date_from) conds.push(gte(shiftRequests.shift_date, f.date_from));
  if (f.date_to) conds.push(lte(shiftRequests.shift_date, f.date_to));
  if (f.is_broadcast !== undefined) conds.push(eq(shiftRequests.is_broadcast, f.is_broadcast));
  const after = keysetAfter(f.cursor);
  if (after) conds.push(after);
  const rows = await selectJoined(ctx)
    .where(and(...conds))
    .orderBy(desc(shiftRequests.created_at), desc(shiftRequests.id))
    .limit(f.limit + 1);
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  // The targeted shifter sees a suggested counter-offer on each incoming request (counter rules).
  const counters = f.as === 'business' || !actor ? null : await counterSuggestionsForUser(ctx, actor.userId, page);
  return {
    data: page.map((r) => ({ ...toView(r), ...counters?.get(r.row.id) })),
    next_cursor: rows.length > f.limit && last ? encodeCursor([last.row.created_at, last.row.id]) : null,
  };
}

/**
 * Open broadcasts (status 1, is_broadcast 1, start in the future) the caller may see: those of
 * businesses their shifter profile is connected to, and their own businesses'. Newest first; with
 * sort_by_relevance and shifter_id, best fit first with relevance_score on each row.
 */
export async function listBroadcasts(ctx: ServiceContext, f: ListBroadcastsInput): Promise<ShiftList> {
  if (ctx.actor.kind === 'partner') return listPartnerBroadcasts(ctx, f);
  const actor = requirePerson(ctx);
  // The distance signal's one query runs alongside the caller's lookup; its answer is used only once
  // shifter_id is known to be the caller's (or the caller an admin).
  const places = f.sort_by_relevance && f.shifter_id ? loadPlaces(ctx, f.shifter_id) : null;
  places?.catch(() => undefined);
  const myShifter = await shifterIdOf(ctx, actor.userId);
  if (f.shifter_id && f.shifter_id !== myShifter && !isAdmin(actor))
    throw new AppError('FORBIDDEN-ERR', 'shifter_id must be your own shifter profile.');
  const viewer = f.shifter_id ?? myShifter;
  const conds: SQL[] = [
    eq(shiftRequests.request_status, SHIFT_STATUS.pending),
    eq(shiftRequests.is_broadcast, true),
    gt(shiftRequests.starts_at, ctx.now()),
  ];
  // Read as a shifter (shifter_id given, or sort_by_relevance), the list holds what that shifter may
  // claim: their crew's broadcasts, never those of a business the shifter's own user owns (claim
  // answers those with SHFT-OWN-BUSINESS-ERR). Read plainly, a business also sees its own broadcasts.
  const asShifter = viewer !== null && (f.shifter_id !== undefined || f.sort_by_relevance === true);
  if (!isAdmin(actor) || f.shifter_id) {
    const scopes: SQL[] = [];
    if (viewer) {
      scopes.push(crewBusinessSql(viewer, shiftRequests.business_id));
    }
    if (!asShifter) {
      const bizIds = await actingBusinessIds(ctx, actor.userId);
      if (bizIds.length) scopes.push(actsForBusinessSql(actor.userId, shiftRequests.business_id));
    }
    if (!scopes.length) return { data: [], next_cursor: null };
    conds.push(or(...scopes)!);
  }
  if (asShifter && viewer) {
    const viewerUser =
      viewer === myShifter
        ? actor.userId
        : (await ctx.db.select({ u: shifters.user_id }).from(shifters).where(eq(shifters.id, viewer)))[0]?.u;
    // A subquery, not a join: both the plain page and the ranked query take these conditions as they are.
    if (viewerUser)
      conds.push(
        sql`${shiftRequests.business_id} NOT IN (SELECT ${businesses.id} FROM ${businesses} WHERE ${businesses.user_id} = ${viewerUser})`,
      );
  }
  conds.push(...broadcastFilters(f));

  if (!(f.sort_by_relevance && f.shifter_id)) return newestBroadcasts(ctx, conds, f);

  // Ranked inside D1 (relevance-signals.ts): only the page's rows leave the database. The best-bounded
  // candidates are scored first; if that cannot settle the page, every candidate is.
  const page = { offset: f.cursor ? decodeCursor(f.cursor, isOffsetCursor).o : 0, limit: f.limit };
  const shifterId = f.shifter_id;
  const rank = async (window: number | null) =>
    selectRanked(ctx, rankedBroadcasts(ctx, shifterId, and(...conds)!, await places!, page, window));
  let rows = await rank(exactWindow(page));
  if (!exactWithin(rows, f.limit)) rows = await rank(null);
  return {
    data: rows.slice(0, f.limit).map((r) => toView(r, r.relevance_score)),
    next_cursor: rows.length > f.limit ? encodeCursor({ o: page.offset + f.limit }) : null,
  };
}

/** The filters of a broadcast list, as conditions. */
function broadcastFilters(f: ListBroadcastsInput): SQL[] {
  const conds: SQL[] = [];
  if (f.shift_date) conds.push(eq(shiftRequests.shift_date, f.shift_date));
  if (f.date_from) conds.push(gte(shiftRequests.shift_date, f.date_from));
  if (f.date_to) conds.push(lte(shiftRequests.shift_date, f.date_to));
  if (f.shiftrole_id !== undefined) conds.push(eq(shiftRequests.shiftrole_id, f.shiftrole_id));
  if (f.business_id) conds.push(eq(shiftRequests.business_id, f.business_id));
  if (f.min_rate !== undefined) {
    // min_rate is a decimal in each row's own currency: scale it by that currency's exponent (JPY 0, USD 2, BHD 3).
    const scaled = (e: number) => Math.round(f.min_rate! * 10 ** e);
    conds.push(
      sql`${shiftRequests.hourly_rate_minor} >= CASE (SELECT ${currencies.minor_unit} FROM ${currencies} WHERE ${currencies.code} = ${shiftRequests.currency}) WHEN 0 THEN ${scaled(0)} WHEN 3 THEN ${scaled(3)} ELSE ${scaled(2)} END`,
    );
  }
  return conds;
}

/** A newest-first, keyset-paginated page of broadcasts matching `conds`. */
async function newestBroadcasts(ctx: ServiceContext, conds: SQL[], f: ListBroadcastsInput): Promise<ShiftList> {
  const after = keysetAfter(f.cursor);
  const rows = await selectJoined(ctx)
    .where(and(...conds, ...(after ? [after] : [])))
    .orderBy(desc(shiftRequests.created_at), desc(shiftRequests.id))
    .limit(f.limit + 1);
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => toView(r)),
    next_cursor: rows.length > f.limit && last ? encodeCursor([last.row.created_at, last.row.id]) : null,
  };
}

/**
 * A partner client's view of open broadcasts: those of the businesses linked to it with `shifts:read`,
 * as the business itself reads them (newest first; no shifter's view, so no relevance ranking).
 */
async function listPartnerBroadcasts(ctx: ServiceContext, f: ListBroadcastsInput): Promise<ShiftList> {
  if (f.shifter_id || f.sort_by_relevance) {
    throw new AppError('VALIDATION-ERR', 'shifter_id and sort_by_relevance are for shifters, not partner clients.');
  }
  const conds: SQL[] = [
    eq(shiftRequests.request_status, SHIFT_STATUS.pending),
    eq(shiftRequests.is_broadcast, true),
    gt(shiftRequests.starts_at, ctx.now()),
    partnerLinkedBusinessSql(partnerActor(ctx).partnerId, shiftRequests.business_id, 'shifts:read'),
    ...broadcastFilters(f),
  ];
  return newestBroadcasts(ctx, conds, f);
}
