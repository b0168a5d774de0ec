import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import type { RelevanceSignals, ShiftRequestView } from './schemas';
import { readStatus, type ShiftRow, shiftPayMinor } from '../kernel';
import { shiftStateWords } from './state-words';

export type { ShiftRow };

export interface ShiftJoin {
  business_name?: string | null;
  business_slug?: string | null;
  business_timezone?: string | null;
  role_label?: string | null;
  shifter_name?: string | null;
  shifter_slug?: string | null;
}

export type { ShiftRequestView };

/** The columns of a shift request that a summary reads (the schedule's calendar and table). */
export type ShiftSummaryRow = Pick<
  ShiftRow,
  | 'id'
  | 'shifter_id'
  | 'shift_date'
  | 'shift_in'
  | 'shift_out'
  | 'starts_at'
  | 'ends_at'
  | 'hourly_rate_minor'
  | 'currency'
  | 'is_broadcast'
  | 'request_status'
  | 'shift_start_at'
  | 'shift_end_at'
  | 'is_noshow'
>;

/**
 * A shift request in brief: what a calendar of many shifts shows of each, the same fields with the
 * same values as the full view (shiftRequestView builds those from this). `scheduled_pay` is the
 * shift's pay as the service counts it (kernel `shiftPayMinor`: hours × rate rounded once at the
 * minor unit) and `state_words` its state in words (`shiftStateWords`), so a page or an island shows
 * both without a rule of its own.
 */
export function shiftSummaryView(r: ShiftSummaryRow, j: Pick<ShiftJoin, 'role_label' | 'shifter_name'> = {}) {
  const view = {
    id: r.id,
    shift_date: r.shift_date,
    shift_in: r.shift_in,
    shift_out: r.shift_out,
    starts_at: toIso(r.starts_at),
    ends_at: toIso(r.ends_at),
    duration_minutes: Math.round((r.ends_at - r.starts_at) / 60_000),
    role: j.role_label ?? null,
    shifter_id: r.shifter_id,
    shifter_name: j.shifter_name ?? null,
    is_broadcast: r.is_broadcast ? 1 : 0,
    status: readStatus(r.request_status).name,
    hourly_rate: fromMinor(r.hourly_rate_minor, r.currency),
    currency: r.currency,
    shift_start_at: toIso(r.shift_start_at),
    shift_end_at: toIso(r.shift_end_at),
    is_noshow: r.is_noshow ? 1 : 0,
    scheduled_pay: fromMinor(shiftPayMinor(r), r.currency),
  };
  return { ...view, state_words: shiftStateWords(view) };
}
export type ShiftSummary = ReturnType<typeof shiftSummaryView>;

/** The API shape of a shift request (REST, MCP tools and widgets all render through this), typed by shiftRequestSchema. */
export function shiftRequestView(
  r: ShiftRow,
  j: ShiftJoin = {},
  extra: { relevance_score?: number; relevance_signals?: RelevanceSignals | undefined } = {},
): ShiftRequestView {
  const s = shiftSummaryView(r, j);
  const status = readStatus(r.request_status);
  return {
    id: s.id,
    business_id: r.business_id,
    business_name: j.business_name ?? null,
    business_slug: j.business_slug ?? null,
    timezone: j.business_timezone ?? null,
    shifter_id: s.shifter_id,
    shifter_name: s.shifter_name,
    shift_date: s.shift_date,
    shift_in: s.shift_in,
    shift_out: s.shift_out,
    starts_at: s.starts_at,
    ends_at: s.ends_at,
    duration_minutes: s.duration_minutes,
    shiftrole_id: r.shiftrole_id,
    role: s.role,
    hourly_rate: s.hourly_rate,
    currency: s.currency,
    is_broadcast: s.is_broadcast,
    is_flexible: r.is_flexible ? 1 : 0,
    request_status: status.value,
    status: s.status,
    parent_id: r.parent_id,
    template_id: r.template_id,
    note: r.note,
    accepted_at: toIso(r.accepted_at),
    shift_start_at: s.shift_start_at,
    shift_start_by_id: r.shift_start_by_id,
    clock_in_distance_m: r.clock_in_distance_m,
    clock_in_photo_url: r.clock_in_photo_url,
    clock_in_override: r.clock_in_override ?? false,
    clock_in_offline: r.clock_in_received_at !== null,
    clock_in_received_at: toIso(r.clock_in_received_at),
    shift_end_at: s.shift_end_at,
    shift_end_by_id: r.shift_end_by_id,
    clock_out_distance_m: r.clock_out_distance_m,
    clock_out_photo_url: r.clock_out_photo_url,
    clock_out_offline: r.clock_out_received_at !== null,
    clock_out_received_at: toIso(r.clock_out_received_at),
    is_noshow: s.is_noshow,
    scheduled_pay: s.scheduled_pay,
    state_words: s.state_words,
    cancelled_at: toIso(r.cancelled_at),
    cancelled_by: r.cancelled_by,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    ...(extra.relevance_score === undefined ? {} : { relevance_score: extra.relevance_score }),
    ...(extra.relevance_signals === undefined ? {} : { relevance_signals: extra.relevance_signals }),
  };
}
