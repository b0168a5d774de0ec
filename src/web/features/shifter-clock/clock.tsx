import type { Context } from 'hono';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { outsideRadius } from '@/lib/geo';
import { addDays, TIME_RE, wallClockToInstant } from '@/lib/shift-time';
import {
  CLOCK_IN_EARLY_MINUTES,
  type ClockPlace,
  type ClockWindow,
  clockIn,
  clockOut,
  clockPlaces,
  clockTimesOfView,
  clockWindow,
  getShiftRequest,
  listRequests,
  type ShiftRequestView,
} from '@/services/shifts';
import { CsrfField, IdempotencyField } from '@/web/components';
import { dateTimeIn, formatDate, shiftHours, timeIn } from '@/web/format';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { shifterShiftPath } from '../shifter-shift/shifter-shift.model';
import { noScriptPhotoWords, placeWords, punchButtonWords, punchDistanceWords, refusalWords } from './clock.model';

/**
 * The shifter's clock ({app_url}/dashboard/shifter/clock): every accepted shift not yet clocked out
 * from now to a week ahead (the service worker keeps this page for the days ahead, offline). A shift
 * whose clock window is open gets a big button; the `clock` island asks for the location at the
 * moment of the punch (accuracy and distance to the business shown), takes the photo with the camera
 * button (a preview of it shown) and uploads it through the clock_photo API, offers "I'm here" where
 * hard mode refuses, and queues the punch on the phone when there is no network, the card then saying
 * "Clocked in at HH:MM · waiting to send" until it is sent. Without script the button still punches
 * (no position, no photo: the camera button is the island's, so it stays hidden). Refusals are said in
 * the worker's words (clock.model.ts refusalWords), on the page and in the island alike.
 */
const PATH = '/dashboard/shifter/clock';
const DAYS_AHEAD = 7;

/** A punch that opens within this long is rendered waiting, so the island (and the page kept offline) opens it on time. */
const WAITING_HOURS = 18;

/** The shifter's clock window on a shift (the clock service's rule, services/shifts clockWindow). */
const windowOf = (s: ShiftRequestView, now: number): ClockWindow => clockWindow(clockTimesOfView(s), now, 'shifter');

export interface ClockIslandProps {
  shiftId: string;
  side: 'in' | 'out';
  businessName: string;
  /** The business's zone: the island says the punch's time on the business's clock, like the cards. */
  timeZone: string;
  place: ClockPlace | null;
  /** The clock window's bounds (ISO): the form waits until `opensAt` and closes at `closesAt`. */
  opensAt: string | null;
  closesAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The camera drawn beside "Take a photo" (decoration: the label says it). */
function CameraIcon() {
  return (
    <svg class="camera-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
        stroke-linejoin="round"
      />
      <circle cx="12" cy="13" r="4" fill="none" stroke="currentColor" stroke-width="2" />
    </svg>
  );
}

function PunchForm({
  s,
  side,
  place,
  csrf,
  w,
}: {
  s: ShiftRequestView;
  side: 'in' | 'out';
  place: ClockPlace | null;
  csrf: string;
  w: ClockWindow;
}) {
  const id = `${s.id}-${side}`;
  const business = s.business_name ?? 'the business';
  const photoRequired = place?.require_clock_photo ?? false;
  // A photo is offered with every clock-in, and with a clock-out where the business asks for one.
  const offerPhoto = photoRequired || side === 'in';
  const radius = side === 'in' ? place?.geofence_radius_m : null;
  const props: ClockIslandProps = {
    shiftId: s.id,
    side,
    businessName: business,
    timeZone: s.timezone ?? 'UTC',
    place,
    opensAt: iso(w.opensAt),
    closesAt: iso(w.closesAt),
  };
  return (
    <form
      method="post"
      action={`${PATH}/${encodeURIComponent(s.id)}/${side}`}
      class="punch-form"
      data-island="clock"
      data-props={JSON.stringify(props)}
      hidden={w.can !== side}
    >
      <CsrfField token={csrf} />
      <IdempotencyField />
      <p class="punch-where" id={`${id}-where`} data-where aria-live="polite">
        {placeWords({ business, side, radius: radius ?? null, hard: place?.hard_geofence ?? false })}
      </p>
      {offerPhoto ? (
        // The camera button is the island's (the plain form sends no file): shown when it runs.
        <div class="punch-photo-field" data-photo-field hidden>
          <input
            id={`${id}-photo`}
            class="camera-input"
            type="file"
            accept="image/*"
            capture="environment"
            data-photo
            aria-describedby={`${id}-photo-hint`}
          />
          <label for={`${id}-photo`} class="button button-secondary camera-button">
            <CameraIcon />
            <span data-photo-label>Take a photo</span>
          </label>
          <p class="hint" id={`${id}-photo-hint`}>
            {photoRequired
              ? `${business} asks for a photo at the door with each punch.`
              : `Optional: a photo at the door shows ${business} you are there.`}
          </p>
          <div class="photo-preview" data-photo-preview hidden>
            <button type="button" class="button button-secondary" data-photo-remove>
              Remove the photo
            </button>
          </div>
        </div>
      ) : null}
      {photoRequired ? (
        <noscript>
          <p class="hint">{noScriptPhotoWords(business)}</p>
        </noscript>
      ) : null}
      {side === 'out' ? <ClockOutFields id={id} /> : null}
      <div class="choice punch-override" hidden={!place?.hard_geofence || !place.geofence_radius_m || side === 'out'} data-override>
        <input type="checkbox" id={`${id}-here`} name="im_here" value="1" />
        <label for={`${id}-here`}>I'm here: I am at {business}, even if my phone puts me farther away</label>
      </div>
      <button type="submit" class="button button-primary button-punch" aria-describedby={`${id}-where`}>
        {punchButtonWords(side, null)}
      </button>
      <p class="punch-status" data-status role="status" aria-live="polite" />
    </form>
  );
}

/**
 * What the plain clock-out adds for the timesheet: one break (start and end on the business's clock,
 * unpaid), whether the breaks were taken, and a note for the business. Inside `noscript`: the island
 * sends the punch through the API and, offline, keeps it in the phone's queue with the punch's own
 * fields only, so these are the plain form's.
 */
function ClockOutFields({ id }: { id: string }) {
  return (
    <noscript>
      <fieldset class="punch-breaks">
        <legend>Breaks and a note (optional)</legend>
        <div class="form-grid">
          <div class="field">
            <label for={`${id}-break-start`}>Unpaid break from</label>
            <input id={`${id}-break-start`} name="break_start" type="time" step={60} />
          </div>
          <div class="field">
            <label for={`${id}-break-end`}>Unpaid break until</label>
            <input id={`${id}-break-end`} name="break_end" type="time" step={60} />
          </div>
        </div>
        <div class="field">
          <label for={`${id}-attest`}>My breaks</label>
          <select id={`${id}-attest`} name="break_attestation">
            <option value="">Say nothing</option>
            <option value="taken">I took my breaks in full</option>
            <option value="short">My breaks were cut short</option>
            <option value="waived">I chose to skip my breaks</option>
          </select>
        </div>
        <div class="field">
          <label for={`${id}-note`}>Note for the business</label>
          <textarea id={`${id}-note`} name="note" rows={2} maxlength={500} />
        </div>
      </fieldset>
    </noscript>
  );
}

type ClockOutExtras = {
  breaks?: { start: string; end: string; paid: boolean }[];
  break_attestation?: 'taken' | 'short' | 'waived';
  note?: string;
};

/** The plain clock-out's break and note fields as the clock-out service takes them; a string is a refusal in words. */
export function clockOutExtras(
  body: Record<string, unknown>,
  s: Pick<ShiftRequestView, 'shift_date' | 'starts_at' | 'shift_start_at' | 'timezone'> | null,
): ClockOutExtras | string {
  const text = (k: string, max: number) => (typeof body[k] === 'string' ? (body[k] as string).slice(0, max).trim() : '');
  const out: ClockOutExtras = {};
  const start = text('break_start', 8);
  const end = text('break_end', 8);
  if (start || end) {
    if (!TIME_RE.test(start) || !TIME_RE.test(end)) return 'Give both the start and the end of the break, or neither.';
    if (!s) return 'The break could not be read for this shift.';
    const tz = s.timezone ?? 'UTC';
    const from = Date.parse(s.shift_start_at ?? s.starts_at);
    // A time before the clock-in is on the next day (a shift past midnight).
    const at = (hhmm: string) => {
      const same = wallClockToInstant(s.shift_date, hhmm, tz);
      return same < from ? wallClockToInstant(addDays(s.shift_date, 1), hhmm, tz) : same;
    };
    const a = at(start);
    const b = at(end);
    if (b <= a) return 'The break ends after it starts.';
    out.breaks = [{ start: new Date(a).toISOString(), end: new Date(b).toISOString(), paid: false }];
  }
  const attestation = text('break_attestation', 10);
  if (attestation === 'taken' || attestation === 'short' || attestation === 'waived') out.break_attestation = attestation;
  const note = text('note', 500);
  if (note) out.note = note;
  return out;
}

/**
 * Where a punch kept on the phone is said ("Clocked in at HH:MM · waiting to send", clock.model.ts):
 * the island writes it, from the queue, in place of the form until it is sent; the page then says the
 * recorded state. Empty until then, so the page never carries a punch it does not have.
 */
function Waiting({ side }: { side: 'in' | 'out' }) {
  return <div class="punch-waiting" data-waiting={side} role="status" tabindex={-1} hidden />;
}

/** The punch's distance as the business sees it, when it was outside the radius (clock.model.ts punchDistanceWords). */
function punchDistance(s: ShiftRequestView, place: ClockPlace | null): string | null {
  const d = s.clock_in_distance_m;
  return punchDistanceWords({
    distanceM: d,
    outside: d !== null && outsideRadius(d, place?.geofence_radius_m ?? null),
    override: s.clock_in_override,
  });
}

function Punched({ s, side, tz, place }: { s: ShiftRequestView; side: 'in' | 'out'; tz: string; place: ClockPlace | null }) {
  const at = side === 'in' ? s.shift_start_at : s.shift_end_at;
  if (!at) return null;
  const received = side === 'in' ? s.clock_in_received_at : s.clock_out_received_at;
  const far = side === 'in' ? punchDistance(s, place) : null;
  return (
    <p class="punched">
      {side === 'in' ? 'Clocked in at ' : 'Clocked out at '}
      <time datetime={at}>{timeIn(at, tz)}</time>
      {far ? <span class="punch-far">{`, ${far}.`}</span> : null}
      {received ? <span class="badge badge-offline">{` Made offline: your phone's time; sent ${timeIn(received, tz)}`}</span> : null}
    </p>
  );
}

function ShiftCard({ s, place, now, csrf }: { s: ShiftRequestView; place: ClockPlace | null; now: number; csrf: string }) {
  const tz = s.timezone ?? 'UTC';
  const w = windowOf(s, now);
  // The side the card is about: the punch open now, or the next one to open.
  const side = w.state === 'in' ? 'out' : w.state === 'due' ? 'in' : null;
  const waiting = w.can === null && w.opensAt !== null;
  const opens = iso(w.opensAt);
  return (
    <li class={`clock-card clock-${w.state}`} data-shift={s.id}>
      <h3>
        {s.business_name ?? 'Shift'} · {s.role ?? 'Shift'}
      </h3>
      <p class="clock-when">
        {formatDate(s.shift_date)} · {shiftHours(s.shift_in, s.shift_out)}
      </p>
      <p class="clock-shift-link">
        <a class="shift-link" href={shifterShiftPath(s.id)}>
          Shift details<span class="visually-hidden">{`: ${s.business_name ?? 'shift'}, ${formatDate(s.shift_date)} ${s.shift_in}`}</span>
        </a>
      </p>
      <Punched s={s} side="in" tz={tz} place={place} />
      {waiting && opens ? (
        <p class="clock-opens" data-opens>
          {side === 'out' ? 'Clock-out opens ' : 'Clock-in opens '}
          <time datetime={opens}>{dateTimeIn(opens, tz)}</time>
          {side === 'out' && w.reason ? <span class="hint">{` ${w.reason}`}</span> : null}
        </p>
      ) : null}
      {w.state === 'missed' || w.state === 'no_show' ? <p class="muted">{w.reason}</p> : null}
      {w.state === 'due' ? (
        <p class="muted" data-closed hidden>
          The clock window has closed: ask the business to record the shift.
        </p>
      ) : null}
      {side && (w.can === side || (w.opensAt !== null && w.opensAt - now <= WAITING_HOURS * 3_600_000)) ? (
        <>
          <Waiting side={side} />
          <PunchForm s={s} side={side} place={place} csrf={csrf} w={w} />
        </>
      ) : null}
    </li>
  );
}

function ClockView({
  base,
  shifts,
  places,
  now,
  notice,
  error,
}: {
  base: DashboardBase;
  shifts: ShiftRequestView[];
  places: Map<string, ClockPlace>;
  now: number;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const atHand = shifts.filter((s) => {
    const w = windowOf(s, now);
    return w.can !== null || w.state === 'in';
  });
  const later = shifts.filter((s) => !atHand.includes(s));
  const island = WEB_ENTRIES.islands.clock;
  return (
    <AppShell
      base={base}
      side="shifter"
      current={PATH}
      title="Clock in and out"
      notice={notice}
      error={error}
      scripts={island ? [island.js] : []}
      styles={island?.css ? [island.css] : []}
    >
      <div class="clock-queue" data-island="clock-queue" data-props="{}">
        <p class="clock-queue-status" data-queue-status role="status" aria-live="polite" />
      </div>
      <section aria-labelledby="at-hand">
        <h2 id="at-hand">Now</h2>
        {atHand.length ? (
          <ul class="clock-list">
            {atHand.map((s) => (
              <ShiftCard s={s} place={places.get(s.business_id) ?? null} now={now} csrf={base.csrfToken} />
            ))}
          </ul>
        ) : (
          <p class="empty">No shift to clock right now. Clock-in opens {CLOCK_IN_EARLY_MINUTES} minutes before a shift starts.</p>
        )}
      </section>
      <section aria-labelledby="next-days">
        <h2 id="next-days">Next {DAYS_AHEAD} days</h2>
        {later.length ? (
          <ul class="clock-list">
            {later.map((s) => (
              <ShiftCard s={s} place={places.get(s.business_id) ?? null} now={now} csrf={base.csrfToken} />
            ))}
          </ul>
        ) : (
          <p class="empty">
            No accepted shift in the next {DAYS_AHEAD} days. <a href="/dashboard/shifter/find">Find shifts</a>
          </p>
        )}
      </section>
    </AppShell>
  );
}

async function clockShifts(c: Context<AppEnv>) {
  const ctx = serviceCtx(c);
  const now = ctx.now();
  const list = await listRequests(ctx, {
    as: 'shifter',
    status: 2,
    limit: 100,
    date_from: new Date(now - 2 * 86_400_000).toISOString().slice(0, 10),
  });
  const horizon = now + DAYS_AHEAD * 86_400_000;
  const shifts = list.data
    .filter(
      (s) =>
        !s.shift_end_at &&
        !s.is_noshow &&
        Date.parse(s.starts_at) < horizon &&
        (s.shift_start_at || Date.parse(s.ends_at) >= now - 6 * 3_600_000),
    )
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  // A shift's business position, by business id (clockPlaces answers by business).
  return { now, shifts, places: await clockPlaces(ctx, shifts) };
}

/**
 * The notices after a punch: `?notice=` is one of these keys with `shift=` its id, and the words come
 * from the shift as stored (its punch time on the business's clock), never from the address; a key
 * whose punch the shift does not have shows nothing.
 */
const PUNCH_NOTICES = {
  clocked_in: { side: 'in', words: 'Clocked in at' },
  clocked_out: { side: 'out', words: 'Clocked out at' },
  sent_in: { side: 'in', words: 'Sent: your clock-in made offline at' },
  sent_out: { side: 'out', words: 'Sent: your clock-out made offline at' },
} as const;

/** Where a page goes after a punch, to show its notice (the island goes to the same address). */
export const punchNoticeUrl = (key: keyof typeof PUNCH_NOTICES, shiftId: string) =>
  `${PATH}?notice=${key}&shift=${encodeURIComponent(shiftId)}`;

async function punchNotice(c: Context<AppEnv>): Promise<string | undefined> {
  const key = c.req.query('notice');
  const id = c.req.query('shift');
  if (!key || !id || !Object.hasOwn(PUNCH_NOTICES, key)) return undefined;
  const n = PUNCH_NOTICES[key as keyof typeof PUNCH_NOTICES];
  const ctx = serviceCtx(c);
  const s = await getShiftRequest(ctx, id).catch(() => null);
  const at = n.side === 'in' ? s?.shift_start_at : s?.shift_end_at;
  const offline = n.side === 'in' ? s?.clock_in_offline : s?.clock_out_offline;
  if (!s || !at || key.startsWith('sent_') !== Boolean(offline)) return undefined;
  const time = timeIn(at, s.timezone ?? 'UTC');
  // A clock-in outside the business's radius says so: the business sees its distance.
  const far =
    n.side === 'in' && s.clock_in_distance_m !== null ? punchDistance(s, (await clockPlaces(ctx, [s])).get(s.business_id) ?? null) : null;
  const where = far ? `, ${far}` : '';
  return key.startsWith('sent_')
    ? `${n.words} ${time} is recorded with your phone's time${where}.`
    : `${n.words} ${time} · ${s.business_name ?? 'the business'}${where}${where ? '.' : ''}`;
}

export async function renderClock(c: Context<AppEnv>, error?: string): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const [{ now, shifts, places }, notice] = await Promise.all([clockShifts(c), error ? undefined : punchNotice(c)]);
  return renderPage(
    c,
    <ClockView base={base} shifts={shifts} places={places} now={now} notice={notice} error={error} />,
    error ? 422 : 200,
  );
}

/** The plain form's punch (no script): no position, no photo; the island sends the API call instead. */
export async function postPunch(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? '';
  const side = c.req.param('side');
  if (side !== 'in' && side !== 'out') return c.notFound();
  const body = await c.req.parseBody();
  const input = body.im_here === '1' ? { im_here: true } : {};
  let extras: ClockOutExtras = {};
  if (side === 'out') {
    const read = clockOutExtras(body, await getShiftRequest(serviceCtx(c), id).catch(() => null));
    if (typeof read === 'string') return renderClock(c, read);
    extras = read;
  }
  try {
    const s = side === 'in' ? await clockIn(serviceCtx(c), id, input) : await clockOut(serviceCtx(c), id, { ...input, ...extras });
    return c.redirect(punchNoticeUrl(side === 'in' ? 'clocked_in' : 'clocked_out', s.id), 303);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // The refusal in the worker's words, with the shift's business and clock (when the shift is theirs).
    const ctx = serviceCtx(c);
    const s = await getShiftRequest(ctx, id).catch(() => null);
    const words = refusalWords(
      { code: err.code, message: err.message, details: err.details },
      {
        business: s?.business_name ?? 'the business',
        side,
        timeZone: s?.timezone ?? 'UTC',
        // The plain form sends no photo, so a photo limit never stops it.
        photoRequired: false,
        script: false,
        now: ctx.now(),
      },
    );
    return renderClock(c, words);
  }
}
