import { AppError } from '../../lib/errors';
import { enforceRateLimit, type ServiceContext } from '../kernel';
import {
  type ClockSide,
  clockIn,
  clockOut,
  clockTimesOfView,
  clockWindow,
  type ShiftRequestView,
  todaysShifts,
  uploadClockPhoto,
} from '../shifts';
import { KIOSK_LIMITS, type ResolvedKiosk } from './sessions';

/** A shift as the kiosk shows it: who, when, and what they may do now. Nothing about pay. */
export interface KioskShift {
  id: string;
  shifter_id: string;
  shifter_name: string;
  role: string | null;
  shift_date: string;
  shift_in: string;
  shift_out: string;
  /** due: not in yet; in: clocked in; done: clocked out; no_show: marked absent; missed: its clock-in closed unused. */
  state: 'due' | 'in' | 'done' | 'no_show' | 'missed';
  clocked_in_at: string | null;
  clocked_out_at: string | null;
  /** The side the shifter may punch now, if any. */
  can: ClockSide | null;
  /** When the next punch opens, for a shift whose window has not opened yet. */
  opens_at: string | null;
}

/**
 * What the clock window (services/shifts clockWindow, the clock service's own rule) lets a shifter do
 * now at the kiosk, which punches for them: shown ahead so nobody taps a button that is refused.
 */
export function kioskStanding(s: ShiftRequestView, nowMs: number): Pick<KioskShift, 'state' | 'can' | 'opens_at'> {
  const w = clockWindow(clockTimesOfView(s), nowMs, 'kiosk');
  // The kiosk lists accepted and worked shifts only, so `not_accepted` is not one of its states.
  const state = w.state === 'not_accepted' ? 'done' : w.state;
  return { state, can: w.can, opens_at: w.opensAt === null ? null : new Date(w.opensAt).toISOString() };
}

/** Today's shifts of the kiosk's business that have a shifter on them (accepted or worked), earliest first. */
export async function kioskShifts(ctx: ServiceContext, kiosk: ResolvedKiosk): Promise<{ today: string; shifts: KioskShift[] }> {
  const { today, shifts } = await todaysShifts(ctx, { id: kiosk.businessId, timezone: kiosk.timezone });
  const now = ctx.now();
  return {
    today,
    shifts: shifts
      .filter((s) => s.shifter_id !== null && (s.status === 'accepted' || s.status === 'completed'))
      .map((s) => ({
        id: s.id,
        shifter_id: s.shifter_id!,
        shifter_name: s.shifter_name ?? 'Shifter',
        role: s.role,
        shift_date: s.shift_date,
        shift_in: s.shift_in,
        shift_out: s.shift_out,
        clocked_in_at: s.shift_start_at,
        clocked_out_at: s.shift_end_at,
        ...kioskStanding(s, now),
      })),
  };
}

/**
 * A shifter clocks in or out at the kiosk: only a shift on the kiosk's list (today's, of its business,
 * with a shifter), through the clock service's kiosk path, passing the shift's own shifter id, so the
 * punch is attributed to the shifter (shift_start_by_id / shift_end_by_id = their user id) and
 * follows the shifter's rules. A photo, when given (or required by the business), is stored first as
 * the shifter's own app would. Bounded per kiosk (KIOSK_LIMITS.punchesPerKiosk).
 *
 * The page's form idempotency is not used here: a photo and a punch are two writes, and the clock
 * service is idempotent by itself (punching again answers the stored punch).
 */
export async function kioskPunch(
  ctx: ServiceContext,
  kiosk: ResolvedKiosk,
  shiftId: string,
  side: ClockSide,
  photo: File | null,
): Promise<KioskShift> {
  const { limit, windowSeconds } = KIOSK_LIMITS.punchesPerKiosk;
  await enforceRateLimit(ctx.env, `kiosk-punch:${kiosk.id}`, limit, windowSeconds, 'Too many punches from this kiosk; wait a few minutes.');
  const own = { ...ctx, idempotency: undefined };
  const shift = (await kioskShifts(own, kiosk)).shifts.find((s) => s.id === shiftId);
  if (!shift) throw new AppError('SHFT-NOT-FND-ERR', 'This shift is not on the kiosk today.');
  const photoUrl = photo ? (await uploadClockPhoto(own, shift.id, side, photo)).url : undefined;
  const input = { actor_id: shift.shifter_id, ...(photoUrl ? { photo_url: photoUrl } : {}) };
  if (side === 'in') await clockIn(own, shift.id, input);
  else await clockOut(own, shift.id, input);
  const after = (await kioskShifts(own, kiosk)).shifts.find((s) => s.id === shiftId);
  if (!after) throw new AppError('SHFT-NOT-FND-ERR', 'This shift is not on the kiosk today.');
  return after;
}
