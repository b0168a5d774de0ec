import type { shiftTemplates } from '../../db/schema';
import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import type { TemplateView } from './schemas';

export type TemplateRow = typeof shiftTemplates.$inferSelect;

/** The API shape of a shift template; flags are 1/0 as on shift requests. */
export function templateView(t: TemplateRow): TemplateView {
  return {
    id: t.id,
    business_id: t.business_id,
    label: t.label,
    days_of_week: t.days_of_week,
    shift_in: t.shift_in,
    shift_out: t.shift_out,
    shiftrole_id: t.shiftrole_id,
    hourly_rate: fromMinor(t.hourly_rate_minor, t.currency_id),
    currency_id: t.currency_id,
    is_flexible: t.is_flexible ? 1 : 0,
    is_broadcast: t.is_broadcast ? 1 : 0,
    default_shifter_id: t.default_shifter_id,
    note: t.note,
    is_active: t.is_active ? 1 : 0,
    frequency: t.frequency,
    created_by_user_id: t.created_by_user_id,
    created_at: toIso(t.created_at),
    updated_at: toIso(t.updated_at),
  };
}
