import { and, asc, desc, eq, gte, inArray, lt, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { businesses, currencies, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor } from '../../lib/money';
import { decodeCursor, encodeCursor, isKeysetCursor, isOffsetCursor } from '../../lib/pagination';
import {
  actingBusinessIds,
  actsForBusinessSql,
  crewBusinessSql,
  isAdmin,
  ownedBusinesses,
  partnerActor,
  partnerLinkedBusinessSql,
  shifterIdOf,
} from '../access';
import { requirePerson, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { type PunchAs, withClockWindow } from './clock-window';
import { counterSuggestionsForUser } from './counter-suggest';
import { type RankFacts, relevanceReasons } from './relevance-reasons';
import { exactWindow, exactWithin, loadPlaces, type RankedBroadcasts, rankedBroadcasts, type RankProfile } from './relevance-signals';
import type { ListBroadcastsInput, ListRequestsInput, RelevanceSignals, ShiftList } from './schemas';
import { type ShiftSummary, shiftRequestView, shiftSummaryView } from './view';

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
  // Named apart from the business's slug: a D1 batch answers rows keyed by column name, and drizzle
  // lines them up by position, so two columns of one name would shift every value after them.
  shifter_slug: sql<string | null>`${shifterAlias.slug}`.as('shifter_slug'),
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
  return (
    ctx.db
      .with(ranked)
      .select({
        ...joinedColumns,
        relevance_score: ranked.score,
        ranked_bound: ranked.bound,
        ranked_cut: ranked.cut,
        ranked_signals: ranked.signals,
      })
      .from(ranked)
      // CROSS JOIN: the page's rows are the outer loop, each looked up by id (SQLite keeps that order,
      // however it estimates the ranking).
      .crossJoin(shiftRequests)
      .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
      .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
      .leftJoin(shifterAlias, eq(shifterAlias.id, shiftRequests.shifter_id))
      .where(eq(shiftRequests.id, ranked.rankedId))
      .orderBy(desc(ranked.score), asc(shiftRequests.starts_at), desc(shiftRequests.created_at), asc(shiftRequests.id))
  );
}

/**
 * What a summary reads of each shift (shiftSummaryView): a few columns, for lists of many shifts, in
 * the order summaryRow reads them back.
 */
const SUMMARY_COLUMNS = [
  shiftRequests.id,
  shiftRequests.shifter_id,
  shiftRequests.shift_date,
  shiftRequests.shift_in,
  shiftRequests.shift_out,
  shiftRequests.starts_at,
  shiftRequests.ends_at,
  shiftRequests.hourly_rate_minor,
  shiftRequests.currency,
  shiftRequests.is_broadcast,
  shiftRequests.request_status,
  shiftRequests.shift_start_at,
  shiftRequests.shift_end_at,
  shiftRequests.is_noshow,
  shiftRequests.created_at,
  shiftRoles.label,
  shifterAlias.display_name,
] as const;

type SummaryCells = [
  string,
  string | null,
  string,
  string,
  string,
  number,
  number,
  number,
  string,
  number,
  number,
  number | null,
  number | null,
  number,
  number,
  string | null,
  string | null,
];

/** One row of the one-cell read (SUMMARY_COLUMNS' order) as the row and joins shiftSummaryView takes. */
function summaryRow(c: SummaryCells) {
  const [id, shifter_id, shift_date, shift_in, shift_out, starts_at, ends_at, hourly_rate_minor, currency] = c;
  const [, , , , , , , , , broadcast, request_status, shift_start_at, shift_end_at, noshow, created_at, role_label, shifter_name] = c;
  const row = { id, shifter_id, shift_date, shift_in, shift_out, starts_at, ends_at, hourly_rate_minor, currency, request_status };
  return {
    row: { ...row, shift_start_at, shift_end_at, created_at, is_broadcast: broadcast === 1, is_noshow: noshow === 1 },
    role_label,
    shifter_name,
  };
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectJoined>['execute']>>[number];
const toView = (r: JoinedRow, score?: number, signals?: string) =>
  shiftRequestView(
    r.row,
    r,
    score === undefined ? {} : { relevance_score: score, relevance_signals: relevanceSignals(signals, r.row.currency) },
  );

/**
 * The ranking's signals (relevance-signals.ts `ranked_signals`: a JSON array) as the API shows them:
 * each part's points, and the figures behind them in the shift's currency. reference_rate is the
 * shifter's usual rate or the going rate (which one is in rankFacts, for the reasons).
 */
function relevanceSignals(json: string | undefined, currency: string): RelevanceSignals | undefined {
  if (!json) return undefined;
  const [role, pay, distance, km, familiarity, overlaps, ref, floor] = JSON.parse(json) as (number | null)[];
  const points = (v: number | null | undefined) => Math.round((v ?? 0) * 10) / 10;
  return {
    role_points: points(role),
    pay_points: points(pay),
    reference_rate: ref === null || ref === undefined ? null : fromMinor(Math.round(ref), currency),
    rate_floor: floor === null || floor === undefined ? null : fromMinor(floor, currency),
    distance_points: points(distance),
    distance_km: km === null || km === undefined ? null : Math.round(km * 10) / 10,
    familiarity_points: points(familiarity),
    overlaps_accepted_shift: overlaps === 1,
  };
}

/**
 * What else the ranking knew of a row (`ranked_signals` past the API's signals, and what the
 * shifter's profile says of it), for its reasons.
 */
function rankFacts(json: string | undefined, profile: RankProfile, row: { shiftrole_id: number; currency: string }): RankFacts | undefined {
  if (!json) return undefined;
  const v = JSON.parse(json) as (number | null)[];
  const [ref, , kind, worked, start] = v.slice(6);
  const min = profile.minRate && profile.minRate.currency === row.currency ? fromMinor(profile.minRate.minor, row.currency) : null;
  return {
    reference: ref === null || ref === undefined ? null : kind === 1 ? 'usual' : 'going_rate',
    workedHere: Number(worked ?? 0),
    startPoints: Number(start ?? 0),
    roleListed: profile.roles.includes(row.shiftrole_id),
    fromHome: profile.fromHome,
    travelKm: profile.travelKm,
    minRate: min,
  };
}

function keysetAfter(cursor: string | null | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [createdAt, id] = decodeCursor(cursor, isKeysetCursor);
  return or(lt(shiftRequests.created_at, createdAt), and(eq(shiftRequests.created_at, createdAt), lt(shiftRequests.id, id)));
}

/**
 * The caller's shift requests (either side), newest first, keyset-paginated. A partner client sees the
 * businesses linked to it with `shifts:read` (services/access/partner.ts), as the business side does.
 *
 * The page costs by the page, not by the caller's rows: each business the caller acts for (or is
 * linked to) and their shifter profile is walked newest first on its own index (`newestPage`).
 */
export async function listRequests(ctx: ServiceContext, f: ListRequestsInput, reach: ListReach = 'acting'): Promise<ShiftList> {
  const [list] = await listRequestsMany(ctx, [f], reach);
  return list!;
}

/**
 * Whose shifts a person's list holds: `acting`, the businesses they act for (owned, active teammate;
 * an admin's, every one) and their shifter profile, as list_of_requests answers; `owned`, only the
 * businesses they own and their shifter profile, admin or not (the agent tools, which act for owners).
 */
export type ListReach = 'acting' | 'owned';

/**
 * Several of the caller's lists (each as listRequests answers it) after one look-up of whom the
 * caller acts for, their pages read in one D1 batch: a page that shows four lists of a business
 * (the dashboard's day at a glance) costs two round trips, not eight.
 */
export async function listRequestsMany(ctx: ServiceContext, lists: ListRequestsInput[], reach: ListReach = 'acting'): Promise<ShiftList[]> {
  const { actor, caller } = await callerOf(ctx, reach);
  const queries = lists.map((f) => {
    const ids = requestsPage(ctx, f, actor === null, caller);
    return ids === null
      ? null
      : selectJoined(ctx)
          .where(inArray(shiftRequests.id, ids))
          .orderBy(desc(shiftRequests.created_at), desc(shiftRequests.id))
          .limit(f.limit + 1);
  });
  const built = queries.filter((q) => q !== null);
  const [first, ...rest] = built;
  const results = !first ? [] : rest.length ? await ctx.db.batch([first, ...rest]) : [await first];
  let next = 0;
  const now = ctx.now();
  return Promise.all(
    lists.map(async (f, i) => {
      if (queries[i] === null) return { data: [], next_cursor: null };
      const rows = results[next++]!;
      const page = rows.slice(0, f.limit);
      const last = page.at(-1);
      // The targeted shifter sees a suggested counter-offer on each incoming request (counter rules).
      const counters = f.as === 'business' || !actor ? null : await counterSuggestionsForUser(ctx, actor.userId, page);
      // Each party sees the clock window on their side; an admin or a partner as the business side.
      const as = (r: JoinedRow): PunchAs => (caller?.[1] != null && r.row.shifter_id === caller[1] ? 'shifter' : 'manager');
      return {
        data: page.map((r) => withClockWindow({ ...toView(r), ...counters?.get(r.row.id) }, as(r), now)),
        next_cursor: rows.length > f.limit && last ? encodeCursor([last.row.created_at, last.row.id]) : null,
      };
    }),
  );
}

/**
 * The page list_of_requests answers for `f`, each shift in brief (shiftSummaryView): the same rows in
 * the same order, a few columns read, for a view of many shifts at once (the schedule's week).
 */
export async function listRequestSummaries(
  ctx: ServiceContext,
  f: ListRequestsInput,
): Promise<{ data: ShiftSummary[]; next_cursor: string | null }> {
  const { actor, caller } = await callerOf(ctx);
  const ids = requestsPage(ctx, f, actor === null, caller);
  if (ids === null) return { data: [], next_cursor: null };
  // The page as ONE cell, a JSON array of rows SQLite builds: a busy venue's week is ~850 rows of 17
  // columns, and the local runtime's D1 hands every cell over on its own; one text cell comes back in
  // a fraction of that time (bench/README.md, "schedule").
  const sr = shiftRequests;
  const [cell] = await ctx.db.all<{ page: string }>(
    sql`SELECT json_group_array(json_array(${sql.join([...SUMMARY_COLUMNS], sql`, `)})) AS page FROM (SELECT * FROM ${sr} WHERE ${sr.id} IN ${ids} ORDER BY ${sr.created_at} DESC, ${sr.id} DESC LIMIT ${f.limit + 1}) AS ${sr} LEFT JOIN ${shiftRoles} ON ${shiftRoles.id} = ${sr.shiftrole_id} LEFT JOIN ${shifters} AS ${sql.identifier('target_shifter')} ON ${shifterAlias.id} = ${sr.shifter_id}`,
  );
  // The joins keep the rows' order in practice; sorted again so the page never depends on it.
  const rows = (JSON.parse(cell?.page ?? '[]') as SummaryCells[])
    .map(summaryRow)
    .sort((a, b) => b.row.created_at - a.row.created_at || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0));
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => shiftSummaryView(r.row, r)),
    next_cursor: rows.length > f.limit && last ? encodeCursor([last.row.created_at, last.row.id]) : null,
  };
}

/** Who lists: a person (and whom they act for, unless an admin) or, with `actor` null, a partner client. */
async function callerOf(ctx: ServiceContext, reach: ListReach = 'acting') {
  const actor = ctx.actor.kind === 'partner' ? null : requirePerson(ctx);
  const businessIds = (userId: string) =>
    reach === 'owned' ? ownedBusinesses(ctx, userId).then((bs) => bs.map((b) => b.id)) : actingBusinessIds(ctx, userId);
  const caller =
    actor && (reach === 'owned' || !isAdmin(actor)) ? await Promise.all([businessIds(actor.userId), shifterIdOf(ctx, actor.userId)]) : null;
  return { actor, caller };
}

/**
 * The ids of one list's page (limit + 1 rows) as a subquery, or null when the caller has nothing to
 * list. `caller` is whom a person acts for (their businesses, their shifter profile); null for an
 * admin, whose list walks every request, and for a partner client (`partner`).
 */
function requestsPage(ctx: ServiceContext, f: ListRequestsInput, partner: boolean, caller: [string[], string | null] | null): SQL | null {
  const filters: SQL[] = [];
  // What the page is drawn from: some businesses (a SELECT of their ids) and a shifter profile;
  // both null for an admin, whose list walks every request newest first.
  let businessUnits: SQL | null = null;
  let shifterUnit: string | null = null;
  if (partner) {
    businessUnits = sql`SELECT ${businesses.id} AS id FROM ${businesses} WHERE ${partnerLinkedBusinessSql(partnerActor(ctx).partnerId, businesses.id, 'shifts:read')}`;
  } else if (caller) {
    const [bizIds, myShifter] = caller;
    // Listing as a business one does not act for is refused the same way for everyone (no probing).
    if (f.business_id && !bizIds.includes(f.business_id) && f.as === 'business') throw new AppError('BUSINESS-NOT-FND-ERR');
    // A bound list, read through json_each: one parameter however many businesses the caller acts for.
    if (f.as !== 'shifter' && bizIds.length) businessUnits = sql`SELECT value AS id FROM json_each(${JSON.stringify(bizIds)})`;
    if (f.as !== 'business' && myShifter) shifterUnit = myShifter;
    if (!businessUnits && !shifterUnit) return null;
  }
  if (f.business_id) filters.push(eq(shiftRequests.business_id, f.business_id));
  if (f.shifter_id) filters.push(eq(shiftRequests.shifter_id, f.shifter_id));
  if (f.counterparty_id)
    filters.push(or(eq(shiftRequests.business_id, f.counterparty_id), eq(shiftRequests.shifter_id, f.counterparty_id))!);
  if (f.status !== undefined) filters.push(inArray(shiftRequests.request_status, Array.isArray(f.status) ? f.status : [f.status]));
  if (f.shiftrole_id !== undefined) filters.push(eq(shiftRequests.shiftrole_id, f.shiftrole_id));
  if (f.date_from) filters.push(gte(shiftRequests.shift_date, f.date_from));
  if (f.date_to) filters.push(lte(shiftRequests.shift_date, f.date_to));
  if (f.is_broadcast !== undefined) filters.push(eq(shiftRequests.is_broadcast, f.is_broadcast));
  const after = keysetAfter(f.cursor);
  if (after) filters.push(after);
  const filter = filters.length ? and(...filters)! : sql`1`;
  const walks: Walk[] = [];
  if (businessUnits) walks.push({ index: 'shift_requests_business_created_idx', column: shiftRequests.business_id, units: businessUnits });
  if (shifterUnit)
    walks.push({ index: 'shift_requests_shifter_created_idx', column: shiftRequests.shifter_id, units: sql`SELECT ${shifterUnit} AS id` });
  const dates = businessUnits && !shifterUnit ? startsWithin(f, ctx.now()) : null;
  const pageIds = dates
    ? datedPage(businessUnits!, dates, filter, f.limit + 1)
    : newestPage(walks, 'shift_requests_created_idx', filter, f.limit + 1);
  return pageIds;
}

/** A day's starts, in any zone (UTC−12 to UTC+14, and an hour a DST gap moves a time), lie this far before its UTC midnight… */
const ZONE_BEFORE_MS = 15 * 3_600_000;
/** …and this far after the UTC midnight that ends it. */
const ZONE_AFTER_MS = 15 * 3_600_000;
/** The longest date range read by start rather than walked newest first: two months (a calendar's month view is six weeks). */
const DATED_RANGE_DAYS = 62;
const DAY_MS = 86_400_000;

/**
 * The starts (epoch ms, `to` exclusive) that hold every shift dated in the list's date range, when
 * reading those is bounded by what was asked: a range of at most two months, or from yesterday on
 * (the business's upcoming shifts). Otherwise null, and the list walks newest first.
 */
function startsWithin(f: ListRequestsInput, nowMs: number): { from: number; to: number | null } | null {
  if (!f.date_from) return null;
  const from = Date.parse(`${f.date_from}T00:00:00Z`);
  const to = f.date_to ? Date.parse(`${f.date_to}T00:00:00Z`) + DAY_MS : null;
  const short = to !== null && to - from <= DATED_RANGE_DAYS * DAY_MS;
  const upcoming = from >= nowMs - 2 * DAY_MS;
  if (!short && !upcoming) return null;
  return { from: from - ZONE_BEFORE_MS, to: to === null ? null : to + ZONE_AFTER_MS };
}

/**
 * The ids of a newest-first page of a business list bounded by dates: the units' shifts that start
 * within those dates, read on the business+start index, and only those sorted. A newest-first walk
 * reads the business's whole history when fewer rows than a page match (a day's shifts, its pending
 * requests); this reads the dates asked (the exact date filter stays in `filter`).
 */
function datedPage(units: SQL, starts: { from: number; to: number | null }, filter: SQL, n: number): SQL {
  const until = starts.to === null ? sql`` : sql` AND ${shiftRequests.starts_at} < ${starts.to}`;
  return sql`(SELECT ${shiftRequests.id} FROM ${shiftRequests} INDEXED BY shift_requests_business_idx
    WHERE ${shiftRequests.business_id} IN (${units}) AND ${shiftRequests.starts_at} >= ${starts.from}${until} AND ${filter}
    ORDER BY ${shiftRequests.created_at} DESC, ${shiftRequests.id} DESC LIMIT ${n})`;
}

/** One index a newest-first page walks: rows whose `column` is one of `units` (a SELECT of ids, as `id`). */
interface Walk {
  index: string;
  column: SQLiteColumn;
  units: SQL;
}

/**
 * The ids of a newest-first page of `n` rows matching `filter`, as a subquery, read from the walks'
 * indexes (INDEXED BY: the order is the index's, so the plan cannot fall back to sorting the table).
 * With no walk, `everything` is walked alone (an admin's whole view).
 *
 * Several units (a shifter's crew, a business and a shifter profile) cannot be read in one index
 * order, so the page has a floor: for each unit the created_at of its n-th newest matching row, and
 * the latest of those. A unit with n rows at or after its n-th already fills a page, so no row of the
 * page is older: each unit's index is read from its newest row down to the floor, and only those rows
 * (at most units × n) are sorted, never the units' history.
 */
function newestPage(walks: Walk[], everything: string, filter: SQL, n: number): SQL {
  const order = sql`ORDER BY ${shiftRequests.created_at} DESC, ${shiftRequests.id} DESC`;
  if (!walks.length) {
    return sql`(SELECT ${shiftRequests.id} FROM ${shiftRequests} INDEXED BY ${sql.raw(everything)} WHERE ${filter} ${order} LIMIT ${n})`;
  }
  const nth = (w: Walk) =>
    sql`(SELECT ${shiftRequests.created_at} FROM ${shiftRequests} INDEXED BY ${sql.raw(w.index)}
      WHERE ${w.column} = u.id AND ${filter} ${order} LIMIT 1 OFFSET ${n - 1})`;
  // Uncorrelated, so SQLite computes it once per statement.
  const floor = sql`(SELECT coalesce(max(floor), 0) FROM (${sql.join(
    walks.map((w) => sql`SELECT ${nth(w)} AS floor FROM (${w.units}) AS u`),
    sql` UNION ALL `,
  )}))`;
  const arms = walks.map(
    (w) =>
      sql`SELECT id FROM (SELECT ${shiftRequests.id} AS id FROM ${shiftRequests} INDEXED BY ${sql.raw(w.index)}
        WHERE ${w.column} IN (${w.units}) AND ${filter} AND ${shiftRequests.created_at} >= ${floor} ${order} LIMIT ${n})`,
  );
  return sql`(${sql.join(arms, sql` UNION ALL `)})`;
}

/**
 * Open broadcasts (status 1, is_broadcast 1, start in the future) the caller may see: those of
 * businesses their shifter profile is connected to, and their own businesses'. Newest first; with
 * sort_by_relevance and shifter_id, best fit first with relevance_score on each row.
 */
export function listBroadcasts(ctx: ServiceContext, f: ListBroadcastsInput): Promise<ShiftList> {
  return broadcasts(ctx, f);
}

/**
 * listBroadcasts, and for each ranked row the reasons beside its score in words
 * (relevance-reasons.ts): what the shifter's pages show. Rows not ranked have none.
 */
export async function listBroadcastsWithReasons(
  ctx: ServiceContext,
  f: ListBroadcastsInput,
): Promise<ShiftList & { reasons: Record<string, string[]> }> {
  const facts = new Map<string, RankFacts>();
  const list = await broadcasts(ctx, f, facts);
  const now = ctx.now();
  const reasons: Record<string, string[]> = {};
  for (const s of list.data) {
    const known = facts.get(s.id);
    if (known && s.relevance_signals) reasons[s.id] = relevanceReasons(s, s.relevance_signals, known, now);
  }
  return { ...list, reasons };
}

/** The list of listBroadcasts; `facts`, when given, receives what the ranking knew of each ranked row. */
async function broadcasts(ctx: ServiceContext, f: ListBroadcastsInput, facts?: Map<string, RankFacts>): Promise<ShiftList> {
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
  const conds: SQL[] = [openBroadcastSql(), startsAfter(ctx.now())];
  // Read as a shifter (shifter_id given, or sort_by_relevance), the list holds what that shifter may
  // claim: their crew's broadcasts, never those of a business the shifter's own user owns (claim
  // answers those with SHFT-OWN-BUSINESS-ERR). Read plainly, a business also sees its own broadcasts.
  const asShifter = viewer !== null && (f.shifter_id !== undefined || f.sort_by_relevance === true);
  // The businesses whose broadcasts the list may hold, as a SELECT of ids; null for an admin's whole view.
  let scope: SQL | null = null;
  if (!isAdmin(actor) || f.shifter_id) {
    const scopes: SQL[] = [];
    if (viewer) {
      scopes.push(crewBusinessSql(viewer, businesses.id));
    }
    if (!asShifter) {
      const bizIds = await actingBusinessIds(ctx, actor.userId);
      if (bizIds.length) scopes.push(actsForBusinessSql(actor.userId, businesses.id));
    }
    if (!scopes.length) return { data: [], next_cursor: null };
    let visible = or(...scopes)!;
    if (asShifter && viewer) {
      const viewerUser =
        viewer === myShifter
          ? actor.userId
          : (await ctx.db.select({ u: shifters.user_id }).from(shifters).where(eq(shifters.id, viewer)))[0]?.u;
      if (viewerUser) visible = and(visible, ne(businesses.user_id, viewerUser))!;
    }
    scope = sql`SELECT ${businesses.id} AS id FROM ${businesses} WHERE ${visible}`;
  }
  conds.push(...broadcastFilters(f));

  if (!(f.sort_by_relevance && f.shifter_id)) return newestBroadcasts(ctx, conds, scope, f);
  // A subquery, not a join: the ranked query takes these conditions as they are.
  if (scope) conds.push(sql`${shiftRequests.business_id} IN (${scope})`);

  // Ranked inside D1 (relevance-signals.ts): only the page's rows leave the database. The best-bounded
  // candidates are scored first; if that cannot settle the page, every candidate is.
  const page = { offset: f.cursor ? decodeCursor(f.cursor, isOffsetCursor).o : 0, limit: f.limit };
  const shifterId = f.shifter_id;
  const rank = async (window: number | null) =>
    selectRanked(ctx, rankedBroadcasts(ctx, shifterId, and(...conds)!, (await places!).places, (await places!).profile, page, window));
  let rows = await rank(exactWindow(page));
  if (
    !exactWithin(
      rows.map((r) => ({ ...r, starts_at: r.row.starts_at })),
      f.limit,
    )
  )
    rows = await rank(null);
  const shown = rows.slice(0, f.limit);
  if (facts) {
    const { profile } = await places!;
    for (const r of shown) {
      const known = rankFacts(r.ranked_signals, profile, r.row);
      if (known) facts.set(r.row.id, known);
    }
  }
  return {
    data: shown.map((r) => toView(r, r.relevance_score, r.ranked_signals)),
    next_cursor: rows.length > f.limit ? encodeCursor({ o: page.offset + f.limit }) : null,
  };
}

/**
 * An open broadcast (pending, broadcast), as literals: the partial indexes of open broadcasts
 * (db/schema/shifts.ts) serve a query only when it states their condition as written.
 */
function openBroadcastSql(): SQL {
  return sql.raw(`"shift_requests"."request_status" = ${SHIFT_STATUS.pending} AND "shift_requests"."is_broadcast" = 1`);
}

/**
 * The start is still ahead. Written `+starts_at` so SQLite never walks an index by start for it: a
 * list walks its own order (newest first, or by rate for the relevance bound) and this only filters.
 */
function startsAfter(now: number): SQL {
  return sql`+${shiftRequests.starts_at} > ${now}`;
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

/**
 * A newest-first, keyset-paginated page of broadcasts matching `conds`, from the businesses `scope`
 * selects (null: all), each walked newest first on the partial index of open broadcasts
 * (`newestPage`), so the page costs by the page and the number of businesses, not their broadcasts.
 */
async function newestBroadcasts(ctx: ServiceContext, conds: SQL[], scope: SQL | null, f: ListBroadcastsInput): Promise<ShiftList> {
  const after = keysetAfter(f.cursor);
  const filter = and(...conds, ...(after ? [after] : []))!;
  const walks: Walk[] = scope
    ? [{ index: 'shift_requests_open_business_created_idx', column: shiftRequests.business_id, units: scope }]
    : [];
  const rows = await selectJoined(ctx)
    .where(inArray(shiftRequests.id, newestPage(walks, 'shift_requests_open_created_idx', filter, f.limit + 1)))
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
  const scope = sql`SELECT ${businesses.id} AS id FROM ${businesses} WHERE ${partnerLinkedBusinessSql(partnerActor(ctx).partnerId, businesses.id, 'shifts:read')}`;
  const conds: SQL[] = [openBroadcastSql(), startsAfter(ctx.now()), ...broadcastFilters(f)];
  return newestBroadcasts(ctx, conds, scope, f);
}
