import { shiftRequests } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { addDays, dateInZone, shiftInstants } from '../../src/lib/shift-time';
import { db } from './factory';

export interface RowSpec {
  businessId: string;
  shifterId?: string | null;
  date: string;
  in: string;
  out: string;
  rate: number; // minor units per hour
  tz: string;
  role?: number;
  currency?: string;
  status?: number;
  worked?: boolean;
  noshow?: boolean;
  cancelledBy?: 'business' | 'shifter' | null;
  broadcast?: boolean;
}

/** Inserts a shift row straight into D1 (for history the API would refuse to create: past, worked…). */
export async function insertShift(spec: RowSpec): Promise<string> {
  const { startsAt, endsAt } = shiftInstants(spec.date, spec.in, spec.out, spec.tz);
  const id = newId('shiftRequest');
  const worked =
    spec.worked ?? ((spec.status === undefined || spec.status === 2 || spec.status === 5) && !spec.noshow && !spec.cancelledBy);
  await db()
    .insert(shiftRequests)
    .values({
      id,
      business_id: spec.businessId,
      shifter_id: spec.shifterId ?? null,
      shift_date: spec.date,
      shift_in: spec.in,
      shift_out: spec.out,
      starts_at: startsAt,
      ends_at: endsAt,
      shiftrole_id: spec.role ?? 1,
      hourly_rate_minor: spec.rate,
      currency: spec.currency ?? 'USD',
      is_broadcast: spec.broadcast ?? false,
      request_status: spec.cancelledBy ? 7 : (spec.status ?? 2),
      accepted_at: startsAt - 86_400_000,
      shift_start_at: worked ? startsAt : null,
      shift_end_at: worked ? endsAt : null,
      is_noshow: spec.noshow ?? false,
      cancelled_by: spec.cancelledBy ?? null,
      cancelled_at: spec.cancelledBy ? startsAt - 3_600_000 : null,
      created_at: startsAt - 2 * 86_400_000,
      updated_at: startsAt,
    });
  return id;
}

/** The calendar date `days` from today in `tz` (negative for the past). */
export function daysFromToday(days: number, tz = 'UTC'): string {
  return addDays(dateInZone(Date.now(), tz), days);
}
