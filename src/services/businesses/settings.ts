import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { runBatch, type BatchItem } from '../../db/client';
import { businesses, shiftRequests } from '../../db/schema';
import { toMinorExact } from '../../lib/money';
import { shiftInstants } from '../../lib/shift-time';
import { auditInsert, purgeWidgetCache, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { businessView, type BusinessView } from '../accounts';
import { partyRating } from '../reviews';
import { accessBusiness, type BusinessRole, postingBusiness } from '../access';
import type { BusinessSettingsInput, WeeklyBudgetInput } from './schemas';

/**
 * PUT /v1/business/update_settings: only the fields sent change; null clears a nullable one. A new
 * time zone keeps the wall-clock meaning of upcoming shifts: their instants are recomputed in the
 * same batch.
 */
export async function updateSettings(ctx: ServiceContext, input: BusinessSettingsInput): Promise<BusinessView> {
  const target = await postingBusiness(ctx, input.business_id);
  const { business } = await accessBusiness(ctx, target.id, ['owner', 'admin']);
  const now = ctx.now();
  const patch: Partial<typeof businesses.$inferInsert> = { updated_at: now };
  if (input.weekly_labor_budget !== undefined) {
    patch.weekly_labor_budget_minor =
      input.weekly_labor_budget === null ? null : toMinorExact(input.weekly_labor_budget, business.currency, 'weekly_labor_budget');
  }
  if (input.auto_fill_on_cancel !== undefined) patch.auto_fill_on_cancel = input.auto_fill_on_cancel;
  if (input.geofence_radius_m !== undefined) patch.geofence_radius_m = input.geofence_radius_m;
  if (input.require_clock_photo !== undefined) patch.require_clock_photo = input.require_clock_photo;
  if (input.latitude !== undefined) patch.latitude = input.latitude;
  if (input.longitude !== undefined) patch.longitude = input.longitude;
  if (input.name !== undefined) patch.name = input.name;
  if (input.address !== undefined) patch.address = input.address;

  const statements: BatchItem[] = [];
  const sent = Object.keys(input).filter((k) => k !== 'business_id' && input[k as keyof BusinessSettingsInput] !== undefined);
  if (input.timezone !== undefined && input.timezone !== business.timezone) {
    patch.timezone = input.timezone;
    const upcoming = await ctx.db
      .select()
      .from(shiftRequests)
      .where(
        and(
          eq(shiftRequests.business_id, business.id),
          inArray(shiftRequests.request_status, [SHIFT_STATUS.pending, SHIFT_STATUS.accepted]),
          gt(shiftRequests.starts_at, now),
          isNull(shiftRequests.shift_start_at),
        ),
      );
    for (const r of upcoming) {
      const t = shiftInstants(r.shift_date, r.shift_in, r.shift_out, input.timezone);
      statements.push(
        ctx.db.update(shiftRequests).set({ starts_at: t.startsAt, ends_at: t.endsAt, updated_at: now }).where(eq(shiftRequests.id, r.id)),
      );
    }
  }
  await runBatch(ctx.db, [
    ctx.db.update(businesses).set(patch).where(eq(businesses.id, business.id)),
    ...statements,
    auditInsert(ctx, 'business.update_settings', { type: 'business', id: business.id }, { fields: sent }),
  ]);
  await purgeWidgetCache(ctx, 'business', business.id);
  const [fresh] = await ctx.db.select().from(businesses).where(eq(businesses.id, business.id));
  return businessView(fresh!, await partyRating(ctx, 'business', business.id));
}

/**
 * A business's profile and settings as its settings page shows them: to the owner, an active
 * teammate (who reads, never writes: updateSettings is the owner's and admins') or an admin; anyone
 * else 404. The standing comes back with it, so the page knows whether to offer its forms.
 */
export async function getBusinessSettings(
  ctx: ServiceContext,
  businessId: string,
): Promise<{ business: BusinessView; role: BusinessRole }> {
  const { business, role } = await accessBusiness(ctx, businessId);
  return { business: businessView(business, await partyRating(ctx, 'business', business.id)), role };
}

/** PUT /v1/business/{id}/weekly_labor_budget (owner or admin). */
export async function setWeeklyBudget(ctx: ServiceContext, businessId: string, input: WeeklyBudgetInput): Promise<BusinessView> {
  return updateSettings(ctx, { business_id: businessId, weekly_labor_budget: input.weekly_labor_budget });
}
