// The crew pages' small shared helpers: the crew's address and its sub-paths, who manages the team,
// and how ratings, dates and percentages read.
import { dateInZone } from '@/lib/shift-time';
import type { Rating } from '@/services/reviews';
import { formatDate } from '@/web/format';
import type { DashboardBase } from '@/web/features/dashboard/context';

export const CREW = '/dashboard/crew';

/** Only the owner changes the team (the service refuses anyone else). */
export const managesTeam = (base: DashboardBase) => base.business?.role === 'owner';

/** "4.6 out of 5 (12 reviews)", or "No reviews yet". */
export function ratingText(r: Rating | undefined): string {
  if (!r || r.average === null || r.count === 0) return 'No reviews yet';
  return `${r.average.toFixed(1)} out of 5 (${r.count === 1 ? '1 review' : `${r.count} reviews`})`;
}

/** "17 Dec 2025": a date far from today (a credential's, a profile's start) says its year. */
export const longDate = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
export const dayOf = (iso: string | null, tz: string) => (iso ? formatDate(dateInZone(Date.parse(iso), tz)) : '—');
export const pct = (n: number | null) => (n === null ? '—' : `${n}%`);
export const shifterPath = (id: string) => `${CREW}/shifters/${encodeURIComponent(id)}`;
export const connectionPath = (id: string, action: string) => `${CREW}/connections/${encodeURIComponent(id)}/${action}`;
