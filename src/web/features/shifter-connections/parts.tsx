import type { Child } from 'hono/jsx';
import type { ListedConnection } from '@/services/connections';
import type { Rating } from '@/services/reviews';

/** The page ({app_url}/dashboard/shifter/connections) and the address of one connection's action. */
export const CONNECTIONS = '/dashboard/shifter/connections';
export const connectionAction = (id: string, what: 'accept' | 'decline' | 'remove') => `${CONNECTIONS}/${encodeURIComponent(id)}/${what}`;
export const ASK_ACTION = `${CONNECTIONS}/ask`;

/** A business's public profile. */
export const profilePath = (slug: string) => `/b/${encodeURIComponent(slug)}`;

/** The page's own sentences for `?notice=` (never text from the address). */
export const NOTICES = {
  accepted: 'You are in their crew now: their open shifts show on Find shifts.',
  connected: 'You are in their crew now: they had invited you too.',
  declined: 'Invitation declined. You can still ask to connect with them later.',
  removed: 'You left their crew. You can ask to connect again later.',
  withdrawn: 'Request withdrawn.',
  asked: 'Request sent: you join their crew once they accept. It waits under Requests you sent.',
} as const;

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "2 December 2026" from an ISO instant. */
export const dayOf = (iso: string | null) => (iso ? dayFormat.format(new Date(iso)) : '');
/** "December 2026" from epoch ms. */
export const monthOf = (ms: number) => monthFormat.format(new Date(ms));

/** "4.50 out of 5 (12 reviews)" or "No reviews yet". */
export function ratingWords(r: Rating): string {
  if (r.average === null || r.count === 0) return 'No reviews yet';
  return `${r.average.toFixed(2)} out of 5 (${r.count} ${r.count === 1 ? 'review' : 'reviews'})`;
}

/** One business as a card of a list: its name leading to its public profile, then what follows. */
export function BusinessItem({ name, slug, id, children }: { name: string; slug: string; id?: string; children?: Child }) {
  return (
    <li class="sc-item" id={id}>
      <h3 class="sc-item-title">
        <a href={profilePath(slug)}>{name}</a>
      </h3>
      {children}
    </li>
  );
}

/** A refusal of the service, in its words, beside what it concerns. */
export function Refused({ message }: { message: string | undefined }) {
  return message ? (
    <p class="field-error sc-refused" role="alert">
      {message}
    </p>
  ) : null;
}

/** The connections the page lists, by the business they are with. */
export type Standing = { kind: 'invited' | 'asked' | 'connected'; connection: ListedConnection };
