import { and, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { AppError } from '../../lib/errors';
import { fromMinor } from '../../lib/money';
import { addDays, mondayOf, shiftInstants, todayIn, wallClockToInstant } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { type BusinessRow, postingBusiness } from '../access';
import { auditInsert, publishOutbox, purgeWidgetCache, type ServiceContext, SHIFT_STATUS, shiftPayMinor } from '../kernel';
import {
  acceptedShiftsOfShifters,
  buildShiftRow,
  DATED_READ_MAX,
  emptyCrewWarning,
  newShiftEventDrafts,
  newShiftRecipients,
  type NewShiftRow,
  overlapsWindow,
  type PostingWarning,
  shiftRequestView,
  shiftRowLookups,
  shifterBusyWords,
} from '../shifts';
import { LIVE_STATUSES, type SameShift, sameShiftCountSql, sameShiftKey } from './already-there';
import {
  COPY_WEEK_MAX_SHIFTS,
  COPY_WEEK_MAX_WEEKS,
  type CopiedShift,
  type CopySkipReason,
  type CopyWeekInput,
  type CopyWeekPreview,
  type CopyWeekResult,
  type SkippedShift,
} from './copy-week-schemas';
import { copySkipWords, refusalReason } from './copy-week-words';

const invalid = (field: string, message: string) => new AppError('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);

/** The Mondays a copy reads and fills: the target this week or later (default next week), the source another week (default the one before it). */
function weeksOf(input: CopyWeekInput, today: string): { source: string; target: string } {
  const thisWeek = mondayOf(today);
  const target = input.target_week ? mondayOf(input.target_week) : addDays(thisWeek, 7);
  if (target < thisWeek || target > addDays(thisWeek, 7 * COPY_WEEK_MAX_WEEKS))
    throw invalid('target_week', `choose this week or a later one, at most ${COPY_WEEK_MAX_WEEKS} weeks ahead`);
  const source = input.source_week ? mondayOf(input.source_week) : addDays(target, -7);
  if (source === target) throw invalid('source_week', 'choose a week other than the one to fill');
  if (source < addDays(thisWeek, -7 * COPY_WEEK_MAX_WEEKS) || source > addDays(thisWeek, 7 * COPY_WEEK_MAX_WEEKS))
    throw invalid('source_week', `choose a week at most ${COPY_WEEK_MAX_WEEKS} weeks from this one`);
  return { source, target };
}

/** Days from one calendar date to another (both plain dates, so no zone can shift them). */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The source week's shifts, superseded versions left out (their change is the shift), by start. */
async function sourceShifts(ctx: ServiceContext, businessId: string, monday: string) {
  const rows = await ctx.db
    .select({ row: shiftRequests, role: shiftRoles.label, shifterName: shifters.display_name })
    .from(shiftRequests)
    .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .leftJoin(shifters, eq(shifters.id, shiftRequests.shifter_id))
    .where(
      and(
        eq(shiftRequests.business_id, businessId),
        gte(shiftRequests.shift_date, monday),
        lte(shiftRequests.shift_date, addDays(monday, 6)),
        ne(shiftRequests.request_status, SHIFT_STATUS.superseded),
      ),
    )
    .orderBy(shiftRequests.starts_at, shiftRequests.id)
    .limit(DATED_READ_MAX + 1);
  if (rows.length > DATED_READ_MAX)
    throw invalid('source_week', `the week holds more than ${DATED_READ_MAX.toLocaleString('en-US')} shifts, more than a copy reads`);
  return rows;
}

/** How many live shifts of each kind (sameShiftKey) the target week has: what "already there" counts. */
async function liveCounts(ctx: ServiceContext, businessId: string, monday: string): Promise<Map<string, number>> {
  const rows = await ctx.db
    .select({
      shift_date: shiftRequests.shift_date,
      shift_in: shiftRequests.shift_in,
      shift_out: shiftRequests.shift_out,
      shiftrole_id: shiftRequests.shiftrole_id,
      shifter_id: shiftRequests.shifter_id,
      is_broadcast: shiftRequests.is_broadcast,
    })
    .from(shiftRequests)
    .where(
      and(
        eq(shiftRequests.business_id, businessId),
        gte(shiftRequests.shift_date, monday),
        lte(shiftRequests.shift_date, addDays(monday, 6)),
        inArray(shiftRequests.request_status, [...LIVE_STATUSES]),
      ),
    );
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  // A claimed broadcast is both a broadcast and its shifter's shift, as sameShiftSql matches it.
  for (const r of rows) {
    const same = { shiftIn: r.shift_in, shiftOut: r.shift_out, roleId: r.shiftrole_id };
    if (r.is_broadcast) add(sameShiftKey(r.shift_date, { ...same, shifterId: null }));
    if (r.shifter_id) add(sameShiftKey(r.shift_date, { ...same, shifterId: r.shifter_id }));
  }
  return counts;
}

interface PlannedCopy {
  row: NewShiftRow;
  view: CopiedShift;
  same: SameShift;
  /** This copy is the n-th of its kind the source week has: made while fewer than n are live there. */
  ordinal: number;
}

const NOT_KEPT: Partial<Record<number, CopySkipReason>> = {
  [SHIFT_STATUS.cancelled]: 'cancelled',
  [SHIFT_STATUS.declined]: 'declined',
  [SHIFT_STATUS.expired]: 'expired',
};

/**
 * What copying the source week into the target week would do, computed once for the preview and
 * the copy itself (so they cannot drift apart). Each shift of the source week moves to the same
 * weekday of the target week on the same wall clock (its instants in the business's zone, so a DST
 * week moves the instant, never the 09:00), and is made by buildShiftRow as a single post is (the
 * role, the rate, the currency, the window, the shifter still in the crew and taking requests). It
 * is skipped, with its reason, when it was not kept (cancelled, declined, expired), when a live shift
 * identical in date, times, role and person is already there (as many as the source week has of
 * it), when its start has passed, when posting it is refused, when its person already works then,
 * and past the most one run makes.
 */
async function planCopy(ctx: ServiceContext, input: CopyWeekInput) {
  const business = await postingBusiness(ctx, input.business_id);
  const tz = business.timezone;
  const now = ctx.now();
  const { source, target } = weeksOf(input, todayIn(tz, now));
  const offset = daysBetween(source, target);
  const [rows, counts] = await Promise.all([sourceShifts(ctx, business.id, source), liveCounts(ctx, business.id, target)]);
  const targeted = [...new Set(rows.flatMap((r) => (r.row.is_broadcast || !r.row.shifter_id ? [] : [r.row.shifter_id])))];
  // Who is booked then: accepted shifts of the targeted people around the target week (a day either side for overnights).
  const booked = await acceptedShiftsOfShifters(
    ctx,
    targeted,
    wallClockToInstant(addDays(target, -1), '00:00', tz),
    wallClockToInstant(addDays(target, 8), '00:00', tz),
  );
  const lookups = shiftRowLookups();
  const seen = new Map<string, number>();
  const planned: PlannedCopy[] = [];
  const skipped: SkippedShift[] = [];

  for (const { row: s, role, shifterName } of rows) {
    const shifterId = s.is_broadcast ? null : s.shifter_id;
    const date = addDays(s.shift_date, offset);
    const who = { shifter_id: shifterId, shifter_name: shifterId ? shifterName : null, is_broadcast: s.is_broadcast ? 1 : 0 };
    const brief = {
      source_shift_request_id: s.id,
      shift_date: date,
      shift_in: s.shift_in,
      shift_out: s.shift_out,
      shiftrole_id: s.shiftrole_id,
      role,
      ...who,
    };
    const skip = (reason: CopySkipReason, message = copySkipWords(reason, brief)) => void skipped.push({ ...brief, reason, message });

    const notKept = NOT_KEPT[s.request_status];
    if (notKept) {
      skip(notKept);
      continue;
    }
    const same: SameShift = { businessId: business.id, shiftIn: s.shift_in, shiftOut: s.shift_out, roleId: s.shiftrole_id, shifterId };
    const key = sameShiftKey(date, same);
    const ordinal = (seen.get(key) ?? 0) + 1;
    seen.set(key, ordinal);
    if ((counts.get(key) ?? 0) >= ordinal) {
      skip('already_there');
      continue;
    }
    if (shiftInstants(date, s.shift_in, s.shift_out, tz).startsAt <= now) {
      skip('past');
      continue;
    }
    let row: NewShiftRow;
    try {
      row = await buildShiftRow(
        ctx,
        business,
        {
          shift_date: date,
          shift_in: s.shift_in,
          shift_out: s.shift_out,
          shiftrole_id: s.shiftrole_id,
          hourly_rate: fromMinor(s.hourly_rate_minor, s.currency),
          currency: s.currency,
          shifter_id: shifterId,
          is_broadcast: !!s.is_broadcast,
          is_flexible: !!s.is_flexible,
          note: s.note,
        },
        {},
        lookups,
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const r = refusalReason(err, brief);
      skip(r.reason, r.message);
      continue;
    }
    if (shifterId) {
      const clash = booked.filter((b) => b.shifter_id === shifterId && overlapsWindow(b, row));
      if (clash.length) {
        const windows = (mine: boolean) =>
          clash
            .filter((b) => (b.business_id === business.id) === mine)
            .map((b) => ({ starts_at: toIso(b.starts_at)!, ends_at: toIso(b.ends_at)! }));
        skip('shifter_busy', shifterBusyWords(shifterName, date, { window: { timezone: tz }, data: windows(true), busy: windows(false) }));
        continue;
      }
    }
    if (planned.length >= COPY_WEEK_MAX_SHIFTS) {
      skip('over_limit');
      continue;
    }
    const pay = fromMinor(shiftPayMinor(row), row.currency);
    planned.push({
      row,
      same,
      ordinal,
      view: {
        ...brief,
        starts_at: toIso(row.starts_at)!,
        ends_at: toIso(row.ends_at)!,
        hourly_rate: fromMinor(row.hourly_rate_minor, row.currency),
        currency: row.currency,
        scheduled_pay: pay,
      },
    });
  }
  const warnings: PostingWarning[] = [];
  if (planned.some((p) => p.row.is_broadcast)) {
    const empty = await emptyCrewWarning(ctx, business.id);
    if (empty) warnings.push(empty);
  }
  return { business, source, target, planned, skipped, warnings };
}

type Plan = Awaited<ReturnType<typeof planCopy>>;

const headOf = (p: Plan) => ({
  business_id: p.business.id,
  timezone: p.business.timezone,
  source_week_start: p.source,
  target_week_start: p.target,
  limit: COPY_WEEK_MAX_SHIFTS,
  skipped: p.skipped,
  warnings: p.warnings,
});

/** GET /v1/schedule/copy_week/preview: what copying would make and skip now, writing nothing. */
export async function previewCopyWeek(ctx: ServiceContext, input: CopyWeekInput): Promise<CopyWeekPreview> {
  const plan = await planCopy(ctx, input);
  return { ...headOf(plan), would_create: plan.planned.map((p) => p.view) };
}

const rowExists = (id: string): SQL => sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${shiftRequests.id} = ${id})`;

/**
 * POST /v1/schedule/copy_week: makes what the preview lists, in ONE batch. Each shift is an INSERT …
 * WHERE fewer than its ordinal of identical live shifts are on its date, with its audit row and
 * events conditional on the row, so the batch is all or nothing, a retry (or a second run, or two
 * runs at once: D1 runs batches one at a time) makes nothing twice, and what another writer posted
 * meanwhile is left out and answered as skipped, already there.
 */
export async function copyWeek(ctx: ServiceContext, input: CopyWeekInput): Promise<CopyWeekResult> {
  const plan = await planCopy(ctx, input);
  const { business, planned } = plan;
  if (planned.length) {
    const recipients = new Map<string | null, Promise<string[]>>();
    const to = (shifterId: string | null) => {
      const known = recipients.get(shifterId);
      if (known) return known;
      const p = newShiftRecipients(ctx, business.id, shifterId);
      recipients.set(shifterId, p);
      return p;
    };
    const userIds = await Promise.all(planned.map((p) => to(p.row.shifter_id)));
    const statements: BatchItem[] = [];
    const eventIds: string[] = [];
    planned.forEach(({ row, same, ordinal, view }, i) => {
      statements.push(insertWhere(ctx.db, shiftRequests, row, sql`${sameShiftCountSql(same, row.shift_date)} < ${ordinal}`));
      statements.push(
        auditInsert(
          ctx,
          row.is_broadcast ? 'broadcast.create' : 'shift_request.create',
          { type: 'shift_request', id: row.id },
          { copied_from: view.source_shift_request_id, source_week: plan.source, target_week: plan.target },
          rowExists(row.id),
        ),
      );
      for (const e of newShiftEventDrafts(ctx, row, business, userIds[i]!, rowExists(row.id))) {
        statements.push(e.statement);
        eventIds.push(e.id);
      }
    });
    await runBatch(ctx.db, statements);
    await publishOutbox(ctx, eventIds);
  }
  const created = await createdViews(
    ctx,
    business,
    planned.map((p) => p.row.id),
  );
  const made = new Set(created.map((c) => c.id));
  const lost = planned.filter((p) => !made.has(p.row.id));
  if (created.some((c) => c.is_broadcast)) await purgeWidgetCache(ctx, 'business', business.id);
  const skipped = [
    ...plan.skipped,
    // Made by someone else between the plan and the batch: already there now.
    ...lost.map(({ view }) => ({
      source_shift_request_id: view.source_shift_request_id,
      shift_date: view.shift_date,
      shift_in: view.shift_in,
      shift_out: view.shift_out,
      shiftrole_id: view.shiftrole_id,
      role: view.role,
      shifter_id: view.shifter_id,
      shifter_name: view.shifter_name,
      is_broadcast: view.is_broadcast,
      reason: 'already_there' as const,
      message: copySkipWords('already_there', view),
    })),
  ];
  return { ...headOf(plan), skipped, created };
}

/** The shift requests among `ids` that exist, as the API shows them, by start. */
async function createdViews(ctx: ServiceContext, business: BusinessRow, ids: string[]) {
  const rows = [];
  for (const part of chunk(ids, 50)) {
    rows.push(
      ...(await ctx.db
        .select({ row: shiftRequests, role: shiftRoles.label, shifterName: shifters.display_name, shifterSlug: shifters.slug })
        .from(shiftRequests)
        .leftJoin(shifters, eq(shifters.id, shiftRequests.shifter_id))
        .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
        .where(inArray(shiftRequests.id, part))),
    );
  }
  rows.sort((a, b) => a.row.starts_at - b.row.starts_at || a.row.id.localeCompare(b.row.id));
  return rows.map((r) =>
    shiftRequestView(r.row, {
      business_name: business.name,
      business_slug: business.slug,
      business_timezone: business.timezone,
      role_label: r.role,
      shifter_name: r.shifterName,
      shifter_slug: r.shifterSlug,
    }),
  );
}
