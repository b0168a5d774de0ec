import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { businesses, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { auditInsert, publishOutbox, type ServiceContext } from '../kernel';
import { AppError } from '../../lib/errors';
import { chunk } from '../../lib/chunk';
import { newId } from '../../lib/ids';
import { fromMinor } from '../../lib/money';
import { todayIn } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import {
  buildShiftRow,
  newShiftEventDrafts,
  newShiftRecipients,
  type NewShiftRow,
  shiftRequestView,
  withPostingWarningsEach,
} from '../shifts';
import { liveOnDateSql, type SameShift, sameShiftSql } from './already-there';
import { templateFor } from './crud';
import { generateWeekStart, templateOccurrences } from './dates';
import {
  clampWeeks,
  GENERATE_WEEK_OF_MAX_WEEKS_AHEAD,
  type GeneratePreview,
  type GenerateQuery,
  type GenerateResult,
  parseDays,
  type SkipReason,
} from './schemas';

/** What makes a shift "already there" for a template's date (slotTaken, skipReasonSql). */
interface Slot extends SameShift {
  templateId: string;
}

/**
 * "Already there" for a date: a LIVE shift request of the business on that date (already-there.ts:
 * pending, accepted or worked; a declined, cancelled, expired or superseded one never counts, so a
 * cancelled shift can be generated again) that was made from this template (`same_template`,
 * whatever its times now), or that is identical in time, role and person (`same_shift`: the same
 * shifter for a targeted template, a broadcast for a broadcast one), posted another way. Repeating
 * generate is safe: what it made is still there and live, so it is skipped.
 */
function skipReasonSql(slot: Slot, date: string | SQL): SQL {
  const live = liveOnDateSql(slot.businessId, date);
  return sql`CASE WHEN EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${live} AND ${shiftRequests.template_id} = ${slot.templateId}) THEN 'same_template' WHEN EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${live} AND ${sameShiftSql(slot)}) THEN 'same_shift' END`;
}

/** The guard of each generated row's insert: nothing already there (skipReasonSql) on its date. */
const slotTaken = (slot: Slot, date: string): SQL => sql`(${skipReasonSql(slot, date)}) IS NOT NULL`;

const rowExists = (id: string): SQL => sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${shiftRequests.id} = ${id})`;

/**
 * What generating a template over `weeks` calendar weeks would do, computed once for both the
 * preview and generate itself (so no rule is written twice): the template is validated (role,
 * currency, rate, and a targeted template's shifter still connected and accepting) through
 * buildShiftRow, as send_request does; each listed weekday of the weeks from `week_start` (next
 * week's Monday in the business's zone, or the week of `week_of`) gets its own instants; starts
 * already past are left out, and dates where a shift is already there are `skipped` with their
 * reason (skipReasonSql).
 */
async function planGeneration(ctx: ServiceContext, id: string, query: GenerateQuery) {
  const { template: t, business } = await templateFor(ctx, id);
  const weeks = clampWeeks(query.weeks);
  if (!t.is_active) throw new AppError('TEMPLATE-INACTIVE-ERR');
  const target = t.is_broadcast ? null : t.default_shifter_id;
  if (!t.is_broadcast && !target) {
    throw new AppError('VALIDATION-ERR', 'default_shifter_id: the template targets no shifter; set one or make it a broadcast', [
      { field: 'default_shifter_id', message: 'required for a targeted template' },
    ]);
  }

  const now = ctx.now();
  const weekStart = generateWeekStart(todayIn(business.timezone, now), query.week_of, GENERATE_WEEK_OF_MAX_WEEKS_AHEAD);
  if (!weekStart) {
    throw new AppError(
      'VALIDATION-ERR',
      `week_of: choose this week or a later one, at most ${GENERATE_WEEK_OF_MAX_WEEKS_AHEAD} weeks ahead`,
      [{ field: 'week_of', message: `choose this week or a later one, at most ${GENERATE_WEEK_OF_MAX_WEEKS_AHEAD} weeks ahead` }],
    );
  }
  const occurrences = templateOccurrences(
    { days: parseDays(t.days_of_week), shift_in: t.shift_in, shift_out: t.shift_out },
    business.timezone,
    weekStart,
    weeks,
    now,
  );
  const slot: Slot = {
    businessId: business.id,
    templateId: t.id,
    shiftIn: t.shift_in,
    shiftOut: t.shift_out,
    roleId: t.shiftrole_id,
    shifterId: target,
  };
  const [first] = occurrences;
  if (!first) {
    return { t, business, weeks, weekStart, slot, target, occurrences, planned: [] as NewShiftRow[], skipped: [] as SkippedDate[] };
  }

  const base = await buildShiftRow(
    ctx,
    business,
    {
      shift_date: first.date,
      shift_in: t.shift_in,
      shift_out: t.shift_out,
      shiftrole_id: t.shiftrole_id,
      hourly_rate: fromMinor(t.hourly_rate_minor, t.currency_id),
      currency: t.currency_id,
      shifter_id: target,
      is_broadcast: t.is_broadcast,
      is_flexible: t.is_flexible,
      note: t.note,
    },
    { template_id: t.id },
  );

  const reasons = await skipReasons(
    ctx,
    slot,
    occurrences.map((o) => o.date),
  );
  const planned: NewShiftRow[] = occurrences
    .filter((o) => !reasons.has(o.date))
    .map((o) => ({ ...base, id: newId('shiftRequest'), shift_date: o.date, starts_at: o.startsAt, ends_at: o.endsAt }));
  const skipped = occurrences.flatMap((o) => {
    const reason = reasons.get(o.date);
    return reason ? [{ shift_date: o.date, reason }] : [];
  });
  return { t, business, weeks, weekStart, slot, target, occurrences, planned, skipped };
}

interface SkippedDate {
  shift_date: string;
  reason: SkipReason;
}

/** The dates among `dates` where a shift is already there, with the reason (one read per 50 dates). */
async function skipReasons(ctx: ServiceContext, slot: Slot, dates: readonly string[]): Promise<Map<string, SkipReason>> {
  const out = new Map<string, SkipReason>();
  for (const part of chunk([...dates], 50)) {
    const rows = await ctx.db.all<{ shift_date: string; reason: SkipReason | null }>(
      sql`SELECT d.value AS shift_date, (${skipReasonSql(slot, sql.raw('d.value'))}) AS reason FROM json_each(${JSON.stringify(part)}) AS d`,
    );
    for (const r of rows) if (r.reason) out.set(r.shift_date, r.reason);
  }
  return out;
}

/**
 * GET /v1/shift_templates/{id}/generate/preview: what generate would create now and which dates it
 * would skip as already there (with why), writing nothing. The same plan as generate; a row posted
 * between the preview and generate is skipped then.
 */
export async function previewTemplateGeneration(ctx: ServiceContext, id: string, query: GenerateQuery): Promise<GeneratePreview> {
  const plan = await planGeneration(ctx, id, query);
  const tz = plan.business.timezone;
  return {
    template_id: plan.t.id,
    timezone: tz,
    weeks: plan.weeks,
    week_start: plan.weekStart,
    would_create: plan.planned.map((r) => ({
      shift_date: r.shift_date,
      shift_in: r.shift_in,
      shift_out: r.shift_out,
      starts_at: toIso(r.starts_at),
      ends_at: toIso(r.ends_at),
    })),
    skipped: plan.skipped.map((d) => d.shift_date),
    skipped_reasons: plan.skipped,
  };
}

/**
 * POST /v1/shift_templates/{id}/generate: pending shift requests for the template's weekdays over
 * `weeks` calendar weeks (from next week's Monday in the business's zone, or the week of `week_of`),
 * skipping dates where a shift is already there and starts already past (planGeneration, shared
 * with the preview).
 *
 * Concurrency: every row is an INSERT … SELECT … WHERE NOT (already there) in one batch, so two
 * generate calls at once cannot both insert a date; the audit row and events of each shift are
 * written only if that shift's insert happened. Each created shift carries send_request's warnings
 * (a targeted shifter booked then, a broadcast to an empty crew), read after the write.
 */
export async function generateFromTemplate(ctx: ServiceContext, id: string, query: GenerateQuery): Promise<GenerateResult> {
  const { t, business, weeks, weekStart, slot, target, occurrences, planned, skipped: planSkipped } = await planGeneration(ctx, id, query);
  if (!occurrences.length) return { created: [], skipped: [], skipped_reasons: [], weeks, week_start: weekStart };

  if (planned.length) {
    const userIds = await newShiftRecipients(ctx, business.id, target);
    const statements: BatchItem[] = [];
    const eventIds: string[] = [];
    for (const row of planned) {
      statements.push(insertWhere(ctx.db, shiftRequests, row, sql`NOT ${slotTaken(slot, row.shift_date)}`));
      statements.push(
        auditInsert(
          ctx,
          row.is_broadcast ? 'broadcast.create' : 'shift_request.create',
          { type: 'shift_request', id: row.id },
          { template_id: t.id },
          rowExists(row.id),
        ),
      );
      for (const e of newShiftEventDrafts(ctx, row, business, userIds, rowExists(row.id))) {
        statements.push(e.statement);
        eventIds.push(e.id);
      }
    }
    await runBatch(ctx.db, statements);
    await publishOutbox(ctx, eventIds);
  }

  const createdRows = [];
  for (const ids of chunk(
    planned.map((r) => r.id),
    50,
  )) {
    createdRows.push(
      ...(await ctx.db
        .select({
          row: shiftRequests,
          roleLabel: shiftRoles.label,
          shifterName: shifters.display_name,
          shifterSlug: shifters.slug,
          businessName: businesses.name,
          businessSlug: businesses.slug,
        })
        .from(shiftRequests)
        .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
        .leftJoin(shifters, eq(shifters.id, shiftRequests.shifter_id))
        .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
        .where(inArray(shiftRequests.id, ids))),
    );
  }
  createdRows.sort((a, b) => a.row.starts_at - b.row.starts_at);
  const createdDates = new Set(createdRows.map((r) => r.row.shift_date));
  // Dates lost to a concurrent generate count as skipped too: a row from this template is there now.
  const reasonOf = new Map(planSkipped.map((d) => [d.shift_date, d.reason]));
  const skippedReasons = occurrences
    .filter((o) => !createdDates.has(o.date))
    .map((o) => ({ shift_date: o.date, reason: reasonOf.get(o.date) ?? ('same_template' as const) }));
  const created = createdRows.map((r) =>
    shiftRequestView(r.row, {
      business_name: r.businessName,
      business_slug: r.businessSlug,
      business_timezone: business.timezone,
      role_label: r.roleLabel,
      shifter_name: r.shifterName,
      shifter_slug: r.shifterSlug,
    }),
  );
  return {
    // Each made shift with what its poster should know, as send_request says it (services/shifts/warnings.ts).
    created: await withPostingWarningsEach(ctx, created),
    skipped: skippedReasons.map((d) => d.shift_date),
    skipped_reasons: skippedReasons,
    weeks,
    week_start: weekStart,
  };
}
