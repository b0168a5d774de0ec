import type { Child } from 'hono/jsx';
import type { ShiftRequestView } from '@/services/shifts';
import { formatDate, formatMoney, shiftHours } from '@/web/format';

/** The shifter side's section paths (SHIFTER_NAV) this folder renders. */
export const FIND = '/dashboard/shifter/find';
export const SCHEDULE = '/dashboard/shifter/schedule';
export const PROFILE = '/dashboard/shifter/profile';

/** "Sat 14 Jun · 16:00–23:00": when a shift is, on the business's wall clock. */
export function shiftWhenText(s: Pick<ShiftRequestView, 'shift_date' | 'shift_in' | 'shift_out'>): string {
  return `${formatDate(s.shift_date)} · ${shiftHours(s.shift_in, s.shift_out)}`;
}

/** "$22.00/h": the rate of a shift. */
export const rateText = (s: Pick<ShiftRequestView, 'hourly_rate' | 'currency'>) => `${formatMoney(s.hourly_rate, s.currency)}/h`;

/** Hours of a shift, "7 h" or "7.5 h". */
export const hoursText = (s: Pick<ShiftRequestView, 'duration_minutes'>) => `${Math.round((s.duration_minutes / 60) * 10) / 10} h`;

/**
 * The one-line reason beside a broadcast's score: the reasons the shifts domain gives for it
 * (listBroadcastsWithReasons; which are true for this shifter is the domain's to say), joined.
 */
export function relevanceReason(reasons: readonly string[] | undefined): string {
  return (reasons ?? []).join(' · ');
}

/** A shift as a card of a list: the business and role as its heading, when, pay, and what follows. */
export function ShiftItem({ s, children, headingLevel = 3 }: { s: ShiftRequestView; children?: Child; headingLevel?: 2 | 3 | 4 }) {
  const title = `${s.role ?? 'Shift'} at ${s.business_name ?? 'a business'}`;
  return (
    <li class="sf-shift">
      {headingLevel === 2 ? (
        <h2 class="sf-shift-title">{title}</h2>
      ) : headingLevel === 4 ? (
        <h4 class="sf-shift-title">{title}</h4>
      ) : (
        <h3 class="sf-shift-title">{title}</h3>
      )}
      <p class="sf-shift-when">
        <span>{shiftWhenText(s)}</span> <span class="muted">({hoursText(s)})</span>
      </p>
      <p class="sf-shift-pay">
        <strong>{rateText(s)}</strong>
        {s.note ? <span class="muted"> · {s.note}</span> : null}
      </p>
      {children}
    </li>
  );
}
