import type { Child } from 'hono/jsx';
import type { ShiftRequestView } from '@/services/shifts';
import { formatDate, formatMoney, shiftHours } from '@/web/format';
import { shifterShiftPath } from '../shifter-shift/shifter-shift.model';

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
    <li class="sf-shift" data-shift={s.id}>
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

/** "09:00–17:00", or with its date when it is another day than `on`'s: one of the worker's shifts, briefly. */
const briefWhen = (o: ShiftRequestView, on: Pick<ShiftRequestView, 'shift_date'>) =>
  o.shift_date === on.shift_date ? shiftHours(o.shift_in, o.shift_out) : shiftWhenText(o);

/** "Overlaps your 09:00–17:00 at Corner Cup": the worker's accepted shifts this one meets (the shifts domain's overlap rule). */
export function overlapWords(s: Pick<ShiftRequestView, 'shift_date'>, others: readonly ShiftRequestView[]): string {
  return `Overlaps your ${others.map((o) => `${briefWhen(o, s)} at ${o.business_name ?? 'a business'}`).join(' and ')}`;
}

/**
 * A request or open shift that meets one the worker already accepted: the mark, and in place of Accept
 * or Claim (which the service refuses while that shift stands) what to do instead, with the way to it.
 */
export function OverlapMark({
  s,
  others,
  action,
}: {
  s: ShiftRequestView;
  others: readonly ShiftRequestView[];
  action: 'accept' | 'claim';
}) {
  if (!others.length) return null;
  const first = others[0]!;
  return (
    <div class="sf-overlap">
      <p>
        <strong>{overlapWords(s, others)}</strong>
      </p>
      <p>
        {action === 'accept'
          ? 'It cannot be accepted while that shift stands: two shifts at once are refused. Cancel that one first, or decline this one.'
          : 'It cannot be claimed while that shift stands: two shifts at once are refused. Cancel that one first if you want this one.'}
      </p>
      <p>
        <a href={shifterShiftPath(first.id)}>
          See your shift<span class="visually-hidden">{` at ${first.business_name ?? 'a business'}, ${shiftWhenText(first)}`}</span>
        </a>
      </p>
    </div>
  );
}
