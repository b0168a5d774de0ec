import { and, between, eq, inArray, type SQL, sql } from 'drizzle-orm';
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
import { buildShiftRow, newShiftEventDrafts, newShiftRecipients, type NewShiftRow, shiftRequestView } from '../shifts';
import { templateFor } from './crud';
import { templateOccurrences } from './dates';
import { clampWeeks, type GeneratePreview, type GenerateQuery, type GenerateResult, parseDays } from './schemas';

/**
 * "A row already exists" for a date: a shift request of the same business, date and start time
 * (and, for a targeted template, the same shifter), in ANY status. A declined, cancelled, expired or
 * superseded row still counts: someone already acted on that date, and re-posting it silently would
 * undo their decision; the business can post that date again with send_request. This also makes
 * generate idempotent whatever happened to the rows it made before.
 */
function slotTaken(businessId: string, date: string, shiftIn: string, shifterId: string | null): SQL {
  return sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${shiftRequests.business_id} = ${businessId} AND ${shiftRequests.shift_date} = ${date} AND ${shiftRequests.shift_in} = ${shiftIn}${
    shifterId ? sql` AND ${shiftRequests.shifter_id} = ${shifterId}` : sql``
  })`;
}

const rowExists = (id: string): SQL => sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${shiftRequests.id} = ${id})`;

/**
 * What generating a template over `weeks` weeks would do, computed once for both the preview and
 * generate itself (so no rule is written twice): the template is validated (role, currency, rate,
 * and a targeted template's shifter still connected and accepting) through buildShiftRow, as
 * send_request does; each listed weekday from today (in the business's zone) gets its own instants;
 * starts already past are left out, and dates that already have a matching row are `skipped`.
 */
async function planGeneration(ctx: ServiceContext, id: string, weeksAsked: GenerateQuery['weeks']) {
  const { template: t, business } = await templateFor(ctx, id);
  const weeks = clampWeeks(weeksAsked);
  if (!t.is_active) throw new AppError('TEMPLATE-INACTIVE-ERR');
  const target = t.is_broadcast ? null : t.default_shifter_id;
  if (!t.is_broadcast && !target) {
    throw new AppError('VALIDATION-ERR', 'default_shifter_id: the template targets no shifter; set one or make it a broadcast', [
      { field: 'default_shifter_id', message: 'required for a targeted template' },
    ]);
  }

  const now = ctx.now();
  const occurrences = templateOccurrences(
    { days: parseDays(t.days_of_week), shift_in: t.shift_in, shift_out: t.shift_out },
    business.timezone,
    todayIn(business.timezone, now),
    weeks,
    now,
  );
  const [first] = occurrences;
  const last = occurrences[occurrences.length - 1];
  if (!first || !last) return { t, business, weeks, target, occurrences, planned: [] as NewShiftRow[], skipped: [] as string[] };

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

  const existing = await ctx.db
    .select({ date: shiftRequests.shift_date })
    .from(shiftRequests)
    .where(
      and(
        eq(shiftRequests.business_id, business.id),
        between(shiftRequests.shift_date, first.date, last.date),
        eq(shiftRequests.shift_in, t.shift_in),
        target ? eq(shiftRequests.shifter_id, target) : undefined,
      ),
    );
  const taken = new Set(existing.map((r) => r.date));
  const planned: NewShiftRow[] = occurrences
    .filter((o) => !taken.has(o.date))
    .map((o) => ({ ...base, id: newId('shiftRequest'), shift_date: o.date, starts_at: o.startsAt, ends_at: o.endsAt }));
  const skipped = occurrences.map((o) => o.date).filter((d) => taken.has(d));
  return { t, business, weeks, target, occurrences, planned, skipped };
}

/**
 * GET /v1/shift_templates/{id}/generate/preview: what generate would create now and which dates it
 * would skip as already there, writing nothing. The same plan as generate; a row posted between
 * the preview and generate is skipped then.
 */
export async function previewTemplateGeneration(
  ctx: ServiceContext,
  id: string,
  weeksAsked: GenerateQuery['weeks'],
): Promise<GeneratePreview> {
  const plan = await planGeneration(ctx, id, weeksAsked);
  const tz = plan.business.timezone;
  return {
    template_id: plan.t.id,
    timezone: tz,
    weeks: plan.weeks,
    would_create: plan.planned.map((r) => ({
      shift_date: r.shift_date,
      shift_in: r.shift_in,
      shift_out: r.shift_out,
      starts_at: toIso(r.starts_at),
      ends_at: toIso(r.ends_at),
    })),
    skipped: plan.skipped,
  };
}

/**
 * POST /v1/shift_templates/{id}/generate: pending shift requests for the template's weekdays from
 * today (in the business's zone) over `weeks` weeks, skipping dates that already have a matching row
 * and starts already past (planGeneration, shared with the preview).
 *
 * Concurrency: every row is an INSERT … SELECT … WHERE NOT EXISTS (same slot) in one batch, so two
 * generate calls at once cannot both insert a date; the audit row and events of each shift are
 * written only if that shift's insert happened.
 */
export async function generateFromTemplate(ctx: ServiceContext, id: string, weeksAsked: GenerateQuery['weeks']): Promise<GenerateResult> {
  const { t, business, weeks, target, occurrences, planned } = await planGeneration(ctx, id, weeksAsked);
  if (!occurrences.length) return { created: [], skipped: [], weeks };

  if (planned.length) {
    const userIds = await newShiftRecipients(ctx, business.id, target);
    const statements: BatchItem[] = [];
    const eventIds: string[] = [];
    for (const row of planned) {
      statements.push(insertWhere(ctx.db, shiftRequests, row, sql`NOT ${slotTaken(business.id, row.shift_date, row.shift_in, target)}`));
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
  // Dates lost to a concurrent generate count as skipped too: a row for them exists now.
  const skipped = occurrences.map((o) => o.date).filter((d) => !createdDates.has(d));
  return {
    created: createdRows.map((r) =>
      shiftRequestView(r.row, {
        business_name: r.businessName,
        business_slug: r.businessSlug,
        business_timezone: business.timezone,
        role_label: r.roleLabel,
        shifter_name: r.shifterName,
        shifter_slug: r.shifterSlug,
      }),
    ),
    skipped,
    weeks,
  };
}
