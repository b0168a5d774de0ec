import type { Child } from 'hono/jsx';
import type { RelevanceSignals, ShiftRequestView } from '@/services/shifts';
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
 * The one-line reason beside a broadcast's score, from the signals that made it (RelevanceSignals):
 * an overlap first (it caps the score), then the strongest parts, at most three, in plain words.
 */
export function relevanceReason(s: ShiftRequestView, sig: RelevanceSignals | undefined): string {
  if (!sig) return '';
  const parts: { weight: number; text: string }[] = [];
  const role = s.role ?? 'this role';
  if (sig.role_points >= 25) parts.push({ weight: sig.role_points, text: `You often work as ${role}` });
  else if (sig.role_points > 0) parts.push({ weight: sig.role_points, text: `You have worked as ${role}` });
  else parts.push({ weight: 0.5, text: `New role for you` });
  if (sig.rate_floor !== null && s.hourly_rate < sig.rate_floor) {
    parts.push({ weight: 30, text: `Under your counter-rule minimum of ${formatMoney(sig.rate_floor, s.currency)}/h` });
  } else if (sig.reference_rate !== null && sig.reference_rate > 0) {
    const pct = Math.round((s.hourly_rate / sig.reference_rate - 1) * 100);
    const usual = `${formatMoney(sig.reference_rate, s.currency)}/h`;
    const text =
      Math.abs(pct) < 3 ? `Pays about your usual ${usual}` : `Pays ${Math.abs(pct)}% ${pct > 0 ? 'above' : 'below'} your usual ${usual}`;
    parts.push({ weight: Math.abs(sig.pay_points - 12.5) + 5, text });
  }
  if (sig.distance_km !== null) parts.push({ weight: sig.distance_points, text: `${sig.distance_km} km away` });
  if (sig.familiarity_points > 0)
    parts.push({ weight: sig.familiarity_points, text: `You have worked at ${s.business_name ?? 'this business'}` });
  parts.sort((a, b) => b.weight - a.weight);
  const lead = sig.overlaps_accepted_shift ? ['Overlaps a shift you accepted'] : [];
  return [...lead, ...parts.slice(0, 3 - lead.length).map((p) => p.text)].join(' · ');
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
