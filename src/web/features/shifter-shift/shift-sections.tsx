import { CLOCK_IN_EARLY_MINUTES, type ShifterShift } from '@/services/shifts';
import type { ThreadView } from '@/services/messaging';
import { dateTimeIn, formatDate, formatMoney, shiftHours, timeIn } from '@/web/format';
import { threadHref } from '../inbox/inbox';
import { mapLinks, placeQuery, zoneWords } from './shifter-shift.model';

/**
 * The parts of the worker's shift page (shifter-shift.tsx) that only read: when it is (on the
 * venue's clock, and on the worker's own when their zone differs), where (the address and links to
 * the phone's maps), the shift itself and its pay, the business's clock rules, and the conversation
 * with the business.
 */

/** The shift's length in hours, "8 h" or "7.5 h". */
export const hoursOf = (minutes: number) => `${Math.round((minutes / 60) * 100) / 100} h`;

/** The venue's zone differs from the worker's own: its times are labelled, and given on the worker's clock too. */
export const zonesDiffer = (d: ShifterShift) => d.venue.timezone !== d.shifter_timezone;

/** "09:00 (New York time)" when the zones differ, else "09:00": an instant on the venue's clock. */
export function venueTime(iso: string, d: ShifterShift, withDate = true): string {
  const t = withDate ? dateTimeIn(iso, d.venue.timezone) : timeIn(iso, d.venue.timezone);
  return zonesDiffer(d) ? `${t} (${zoneWords(d.venue.timezone)} time)` : t;
}

/** The shift's start and end on the worker's own clock: "Sun 15 Jun, 05:00–12:00", the end's date when it differs. */
function ownTimes(d: ShifterShift): string {
  const tz = d.shifter_timezone;
  const start = dateTimeIn(d.shift.starts_at, tz);
  const sameDay =
    new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date(d.shift.starts_at)) ===
    new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date(d.shift.ends_at));
  return `${start}–${sameDay ? timeIn(d.shift.ends_at, tz) : dateTimeIn(d.shift.ends_at, tz)}`;
}

export function WhenCard({ d }: { d: ShifterShift }) {
  const s = d.shift;
  const st = s.state_words;
  return (
    <section class="card sf-when" aria-labelledby="when-heading">
      <h2 id="when-heading">When</h2>
      <p class="sf-when-times">
        <strong>{`${formatDate(s.shift_date)} · ${shiftHours(s.shift_in, s.shift_out)}`}</strong>{' '}
        <span class="muted">{`(${hoursOf(s.duration_minutes)})`}</span>
      </p>
      {zonesDiffer(d) ? (
        <p class="sf-zone">
          <span class="badge badge-info">{`${zoneWords(d.venue.timezone)} time`}</span>{' '}
          {`These are the venue's times. On your own clock (${zoneWords(d.shifter_timezone)}): ${ownTimes(d)}.`}
        </p>
      ) : null}
      {s.is_flexible ? <p class="muted">The business says the times are flexible.</p> : null}
      <p class="sf-state">
        <span class="visually-hidden">Where it stands: </span>
        <span class={`badge shift-badge shift-${st.tone}`}>{st.label}</span>
      </p>
    </section>
  );
}

export function WhereCard({ d }: { d: ShifterShift }) {
  const v = d.venue;
  const links = mapLinks(v);
  const where = placeQuery(v);
  return (
    <section class="card sf-where" aria-labelledby="where-heading">
      <h2 id="where-heading">Where</h2>
      <p class="sf-venue">
        <strong>{v.name}</strong>
        {v.address ? (
          <>
            <br />
            <span>{v.address}</span>
          </>
        ) : v.city ? (
          <>
            <br />
            <span>{v.city}</span>
          </>
        ) : null}
      </p>
      {links.length ? (
        <ul class="sf-map-links">
          {links.map((l) => (
            <li>
              <a class={`button ${l.app ? 'button-primary' : 'button-secondary'}`} href={l.href} rel={l.app ? undefined : 'noreferrer'}>
                {l.label}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">{`${v.name} has not given its address yet: ask them where to go.`}</p>
      )}
      {links.length && !where ? <p class="hint">The links go to the spot the business marked for clocking in.</p> : null}
    </section>
  );
}

export function ShiftCard({ d }: { d: ShifterShift }) {
  const s = d.shift;
  const crew = d.standing === 'crew';
  return (
    <section class="card" aria-labelledby="shift-heading">
      <h2 id="shift-heading">The shift</h2>
      <dl class="pairs">
        <dt>Role</dt>
        <dd>{s.role ?? 'Not named'}</dd>
        <dt>{crew ? 'Rate offered' : 'Your rate'}</dt>
        <dd>{`${formatMoney(s.hourly_rate, s.currency)} an hour`}</dd>
        <dt>{crew ? 'Pay' : 'Your pay'}</dt>
        <dd>{`${formatMoney(s.scheduled_pay, s.currency)} for the ${hoursOf(s.duration_minutes)} scheduled`}</dd>
        <dt>Notes</dt>
        <dd>{s.note ?? 'None from the business'}</dd>
      </dl>
    </section>
  );
}

export function ClockRulesCard({ d }: { d: ShifterShift }) {
  const r = d.clock_rules;
  const name = d.venue.name;
  const radius = r.geofence_radius_m;
  return (
    <section class="card" aria-labelledby="rules-heading">
      <h2 id="rules-heading">Clocking in and out</h2>
      <ul class="sf-rules">
        <li>{`Clock-in opens ${CLOCK_IN_EARLY_MINUTES} minutes before the start, on the Clock page.`}</li>
        <li>
          {radius
            ? r.hard_geofence
              ? `Clock in within ${radius} m of ${name}. Farther away, the clock asks you to confirm you are there.`
              : `Clock in within ${radius} m of ${name}. Farther away, it still counts, and ${name} sees how far you were.`
            : `${name} sets no distance: your phone's location is sent with each punch, if you allow it.`}
        </li>
        <li>{r.require_clock_photo ? `${name} asks for a photo at the door with each punch.` : 'No photo needed (you may add one).'}</li>
      </ul>
    </section>
  );
}

export function ThreadCard({ d, thread }: { d: ShifterShift; thread: ThreadView | null }) {
  const name = d.venue.name;
  const last = thread?.last_message ?? null;
  return (
    <section class="card" aria-labelledby="thread-heading">
      <h2 id="thread-heading">Messages</h2>
      {thread ? (
        <>
          <p>
            {last ? `Last message ${dateTimeIn(last.at, d.shifter_timezone)}.` : 'No message yet.'}
            {thread.unread_count ? <strong>{` ${thread.unread_count} unread.`}</strong> : null}
          </p>
          <p>
            <a class="button button-secondary" href={threadHref(thread)}>
              {`Your conversation with ${name}`}
            </a>
          </p>
        </>
      ) : (
        <p class="empty">
          {`No conversation with ${name} yet. When they write to you, it is in your `}
          <a href="/inbox">Inbox</a>.
        </p>
      )}
    </section>
  );
}
