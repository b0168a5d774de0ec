import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { endKiosk, type KioskView, listKiosks, startKiosk } from '@/services/kiosk';
import { clockOut, clockSideSchema, markNoShow, readClockPhoto, type ShiftRequestView, shiftIsLate, todaysShifts } from '@/services/shifts';
import { Card, CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { clearAppCookie, readAppCookie, setAppCookie } from '@/http/cookies';
import { rotateCsrfToken } from '@/web/csrf';
import { dateTimeIn, formatDate, shiftHours, timeIn } from '@/web/format';
import { renderError, renderPage } from '@/web/render';
import { clearSessionCookie } from '@/web/session';
import { ConfirmPage } from '../dashboard/confirm-page';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { todayStanding } from './home';
import { noticeOf, refusalOf } from '../dashboard/refusals';
import { LiveRegion } from '../dashboard/live-region';
import { AppShell } from '../dashboard/shell';

/**
 * The clock board (/dashboard/board): today's shifts of the business in its zone (and last night's
 * still running), who is in and since when, the distance and photo each punch recorded, who is late
 * or missing; marking a no-show and ending a shift early (the clock-out service acting as the
 * business: punched as the manager, any time a minute after the clock-in), each after a confirmation.
 * The owner starts kiosk mode here on the venue's tablet (services/kiosk) and sees and ends the live
 * kiosks. Clock photos are served through this page's own route, with the signed-in person's session.
 */

const BOARD = '/dashboard/board';
const NOTICES = {
  no_show: 'The shift is marked as a no-show. The shifter is told.',
  ended: 'The shift was ended now: the shifter is clocked out.',
  kiosk_ended: 'The kiosk was ended: that device is an ordinary browser again, signed out.',
} as const;

const shiftPath = (id: string, action: string) => `${BOARD}/shifts/${encodeURIComponent(id)}/${action}`;

const canEnd = (s: ShiftRequestView) => s.status === 'accepted' && s.shift_start_at !== null && s.shift_end_at === null;
const isIn = canEnd;

/** A clock photo's address on this page (the API's /v1/uploads address needs the API's credentials). */
export function boardPhotoHref(url: string | null): string | null {
  const m = url ? /^\/v1\/uploads\/clock-photos\/(sr_[0-9A-Za-z]+)\/(in|out)\/(upl_[0-9A-Za-z]+\.[a-z]{3,4})$/.exec(url) : null;
  return m ? `${BOARD}/photos/${m[1]}/${m[2]}/${m[3]}` : null;
}

function distanceText(m: number | null): string {
  if (m === null) return 'no position sent';
  return m < 1000 ? `${Math.round(m)} m from the venue` : `${(m / 1000).toFixed(1)} km from the venue`;
}

function Punch({ s, side, tz }: { s: ShiftRequestView; side: 'in' | 'out'; tz: string }) {
  const at = side === 'in' ? s.shift_start_at : s.shift_end_at;
  if (!at) return null;
  const distance = side === 'in' ? s.clock_in_distance_m : s.clock_out_distance_m;
  const photo = boardPhotoHref(side === 'in' ? s.clock_in_photo_url : s.clock_out_photo_url);
  const who = s.shifter_name ?? 'the shifter';
  const early = side === 'out' && Date.parse(at) < Date.parse(s.ends_at);
  const received = side === 'in' ? s.clock_in_received_at : s.clock_out_received_at;
  return (
    <div class="punch">
      <dt>{side === 'in' ? 'In' : 'Out'}</dt>
      <dd>
        <time datetime={at}>{timeIn(at, tz)}</time>
        {` · ${distanceText(distance)}`}
        {side === 'in' && s.clock_in_override ? ' · said “I’m here”' : ''}
        {early ? ' · before the scheduled end' : ''}
        {received ? ` · made offline (the phone's time), sent ${timeIn(received, tz)}` : ''}
        {photo ? (
          <a class="punch-photo" href={photo}>
            <img src={photo} alt={`${who} at the ${side === 'in' ? 'clock-in' : 'clock-out'}, ${timeIn(at, tz)}`} width={72} height={72} />
          </a>
        ) : null}
      </dd>
    </div>
  );
}

function ShiftCard({ base, s, nowMs, today }: { base: DashboardBase; s: ShiftRequestView; nowMs: number; today: string }) {
  const tz = base.business!.timezone;
  const st = todayStanding(s, nowMs);
  const late = shiftIsLate(s, nowMs);
  const who = s.shifter_name ?? (s.is_broadcast ? 'Open to the crew: nobody yet' : 'Waiting for the shifter’s answer');
  const headId = `shift-${s.id}`;
  return (
    <li class={`card board-card${late ? ' board-late' : ''}`} aria-labelledby={headId}>
      <div class="template-head">
        <h3 id={headId}>
          {/* The shift's own page: its story and what may be done with it (features/shift). */}
          <a
            class="shift-link"
            href={dashboardHref(base, `/dashboard/shifts/${encodeURIComponent(s.id)}`)}
          >{`${shiftHours(s.shift_in, s.shift_out)} · ${s.role ?? 'Shift'}`}</a>
        </h3>
        <span class={`badge${st.tone ? ` badge-${st.tone}` : ''}`}>{st.label}</span>
      </div>
      <p>
        {who}
        {s.shift_date !== today ? <span class="muted">{` · started ${formatDate(s.shift_date)}`}</span> : null}
      </p>
      {s.shift_start_at || s.shift_end_at ? (
        <dl class="punches">
          <Punch s={s} side="in" tz={tz} />
          <Punch s={s} side="out" tz={tz} />
        </dl>
      ) : null}
      {late || canEnd(s) ? (
        <div class="actions">
          {late ? (
            <a class="button button-danger" href={dashboardHref(base, shiftPath(s.id, 'no-show'))}>
              Mark no-show<span class="visually-hidden">{`: ${who}, ${s.shift_in}`}</span>
            </a>
          ) : null}
          {canEnd(s) ? (
            <a class="button button-secondary" href={dashboardHref(base, shiftPath(s.id, 'end'))}>
              End the shift now<span class="visually-hidden">{`: ${who}, ${s.shift_in}`}</span>
            </a>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function KioskCard({ base, kiosks }: { base: DashboardBase; kiosks: KioskView[] | null }) {
  const tz = base.business!.timezone;
  return (
    <Card title="Kiosk mode">
      <p>
        Put a tablet at the venue: your staff pick themselves from today's shifts and clock in or out, and each punch is theirs. The tablet
        reaches nothing else, and only your password ends kiosk mode on it.
      </p>
      {kiosks === null ? (
        <p class="aside">The business owner starts kiosk mode.</p>
      ) : (
        <>
          <p>
            <a class="button button-primary" href={dashboardHref(base, `${BOARD}/kiosk/start`)}>
              Start kiosk mode on this device
            </a>
          </p>
          <h3>Live kiosks</h3>
          {kiosks.length ? (
            <ul class="list-plain">
              {kiosks.map((k) => (
                <li class="row-split">
                  <span>
                    {`Started ${dateTimeIn(k.started_at, tz)}`}
                    <span class="muted">{` · last used ${k.last_seen_at ? dateTimeIn(k.last_seen_at, tz) : 'never'} · ends by itself ${dateTimeIn(k.expires_at, tz)}`}</span>
                    {k.user_agent ? <span class="muted device">{k.user_agent}</span> : null}
                  </span>
                  <form method="post" action={dashboardHref(base, `${BOARD}/kiosks/${encodeURIComponent(k.id)}/end`)} class="inline-form">
                    <CsrfField token={base.csrfToken} />
                    <IdempotencyField />
                    <SubmitButton variant="secondary">
                      End<span class="visually-hidden">{` the kiosk started ${dateTimeIn(k.started_at, tz)}`}</span>
                    </SubmitButton>
                  </form>
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">No kiosk is running.</p>
          )}
        </>
      )}
    </Card>
  );
}

interface BoardData {
  today: string;
  shifts: ShiftRequestView[];
  kiosks: KioskView[] | null;
  nowMs: number;
}

async function loadBoard(c: Context<AppEnv>, base: DashboardBase): Promise<BoardData> {
  const ctx = serviceCtx(c);
  const b = base.business!;
  const owner = b.role === 'owner';
  const [{ today, shifts }, kiosks] = await Promise.all([todaysShifts(ctx, b), owner ? listKiosks(ctx, b.id) : Promise.resolve(null)]);
  return { today, shifts, kiosks, nowMs: ctx.now() };
}

function BoardView({
  base,
  data,
  notice,
  error,
}: {
  base: DashboardBase;
  data: BoardData;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const b = base.business!;
  const { shifts, nowMs } = data;
  const staffed = shifts.filter((s) => s.status === 'accepted' || s.status === 'completed');
  const counts = [
    { value: staffed.filter(isIn).length, label: 'in now' },
    { value: staffed.filter((s) => shiftIsLate(s, nowMs)).length, label: 'late: not clocked in' },
    { value: staffed.filter((s) => s.shift_end_at).length, label: 'done' },
    { value: staffed.filter((s) => !s.shift_start_at && !s.is_noshow && Date.parse(s.starts_at) > nowMs).length, label: 'still to come' },
    { value: shifts.filter((s) => s.status === 'pending').length, label: 'not filled yet' },
  ];
  return (
    <AppShell
      base={base}
      title="Clock board"
      current={BOARD}
      notice={notice}
      error={error}
      action={
        <a class="button button-secondary" href={dashboardHref(base, BOARD)}>
          Refresh
        </a>
      }
    >
      <LiveRegion id="board" on={['shifts']} src={dashboardHref(base, BOARD)} label="Clock board">
        <p class="aside">{`${b.name} · ${formatDate(data.today)} · times in ${b.timezone} · as of ${timeIn(new Date(nowMs).toISOString(), b.timezone)}`}</p>
        <ul class="stat-row" aria-label="Today at a glance">
          {counts.map((x) => (
            <li>
              <span class="stat">{x.value}</span>
              <span class="stat-label">{x.label}</span>
            </li>
          ))}
        </ul>
        <section aria-labelledby="board-head">
          <h2 id="board-head">Today's shifts</h2>
          {shifts.length ? (
            <ul class="board-list">
              {shifts.map((s) => (
                <ShiftCard base={base} s={s} nowMs={nowMs} today={data.today} />
              ))}
            </ul>
          ) : (
            <p class="empty">
              No shifts today. <a href={dashboardHref(base, '/dashboard/shifts/new')}>Post a shift</a>
            </p>
          )}
        </section>
      </LiveRegion>
      <KioskCard base={base} kiosks={data.kiosks} />
    </AppShell>
  );
}

export async function renderBoard(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  return renderPage(c, <BoardView base={base} data={await loadBoard(c, base)} notice={noticeOf(c, NOTICES)} />);
}

/** One of today's shifts of this business (another business's, or another day's, is not on the board). */
async function boardShift(c: Context<AppEnv>, base: DashboardBase): Promise<ShiftRequestView | null> {
  const id = c.req.param('id') ?? '';
  const { shifts } = await todaysShifts(serviceCtx(c), base.business!);
  return shifts.find((s) => s.id === id) ?? null;
}

const notOnBoard = (c: Context<AppEnv>) =>
  renderError(c, 404, 'Not on the board', 'This shift is not one of today’s shifts of this business.');

export async function renderNoShow(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const s = await boardShift(c, base);
  if (!s) return notOnBoard(c);
  const who = s.shifter_name ?? 'the shifter';
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Mark a no-show"
      current={BOARD}
      action={shiftPath(s.id, 'no-show')}
      button={`Mark ${who} as a no-show`}
      variant="danger"
      back={BOARD}
      error={shiftIsLate(s, serviceCtx(c).now()) ? undefined : 'This shift is not late: it has not started, or someone clocked in.'}
    >
      <p>{`${who} was due at ${s.shift_in} (${s.role ?? 'shift'}) and has not clocked in. Mark them as a no-show? They are told, it counts against their reliability, and they can no longer clock in to this shift.`}</p>
    </ConfirmPage>,
  );
}

export async function postNoShow(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const s = await boardShift(c, base);
  if (!s) return notOnBoard(c);
  try {
    await markNoShow(serviceCtx(c), s.id);
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <BoardView base={base} data={await loadBoard(c, base)} error={`Not marked: ${r.message}`} />, r.status);
  }
  return c.redirect(dashboardHref(base, BOARD, { notice: 'no_show' }), 303);
}

export async function renderEndShift(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const s = await boardShift(c, base);
  if (!s) return notOnBoard(c);
  const tz = base.business.timezone;
  const who = s.shifter_name ?? 'the shifter';
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="End a shift now"
      current={BOARD}
      action={shiftPath(s.id, 'end')}
      button={`End ${who}'s shift now`}
      variant="danger"
      back={BOARD}
      error={canEnd(s) ? undefined : 'Only a shift someone is clocked in to can be ended.'}
    >
      <p>
        {`${who} clocked in at ${s.shift_start_at ? timeIn(s.shift_start_at, tz) : '—'} for ${shiftHours(s.shift_in, s.shift_out)}. End the shift now, before its scheduled end at ${s.shift_out}? They are clocked out at this moment, recorded as done by you; the shift is paid as scheduled.`}
      </p>
    </ConfirmPage>,
  );
}

export async function postEndShift(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const s = await boardShift(c, base);
  if (!s) return notOnBoard(c);
  try {
    // Acting as the business (no actor_id): a manager's clock-out, allowed before the end (ended_early in the audit row).
    await clockOut(serviceCtx(c), s.id, {});
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <BoardView base={base} data={await loadBoard(c, base)} error={`Not ended: ${r.message}`} />, r.status);
  }
  return c.redirect(dashboardHref(base, BOARD, { notice: 'ended' }), 303);
}

/** A clock photo of a shift the person may see (readClockPhoto checks it), shown inline: it is a sniffed image. */
export async function boardPhoto(c: Context<AppEnv>): Promise<Response> {
  const side = clockSideSchema.safeParse(c.req.param('side'));
  if (!side.success) return renderError(c, 404, 'Not found', 'There is no such photo.');
  try {
    const photo = await readClockPhoto(serviceCtx(c), {
      shift_request_id: (c.req.param('shiftId') ?? '').slice(0, 64),
      side: side.data,
      file: (c.req.param('file') ?? '').slice(0, 64),
    });
    if (!photo.content_type.startsWith('image/')) return renderError(c, 404, 'Not found', 'There is no such photo.');
    return c.body(photo.body, 200, {
      'Content-Type': photo.content_type,
      'Cache-Control': 'private, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return renderError(c, 404, 'Not found', 'There is no such photo.');
    throw err;
  }
}

export async function renderStartKiosk(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  if (base.business.role !== 'owner') return renderError(c, 403, 'Owner only', 'Only the owner of the business starts kiosk mode.');
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Start kiosk mode"
      current={BOARD}
      action={`${BOARD}/kiosk/start`}
      button="Start kiosk mode"
      back={BOARD}
    >
      <p>{`Turn this device into the kiosk of ${base.business.name}?`}</p>
      <ul>
        <li>You are signed out here, and this browser reaches nothing but the kiosk: today's shifts, clock in and clock out.</li>
        <li>Your staff pick their own name; each punch is recorded as theirs.</li>
        <li>Ending kiosk mode on the device needs your password. You can also end it from this board on another device.</li>
        <li>It ends by itself after 7 days.</li>
      </ul>
    </ConfirmPage>,
  );
}

export async function postStartKiosk(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  let started: Awaited<ReturnType<typeof startKiosk>>;
  try {
    started = await startKiosk(serviceCtx(c), base.business.id, { userAgent: c.req.header('User-Agent') });
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(
      c,
      <BoardView base={base} data={await loadBoard(c, base)} error={`Kiosk mode not started: ${r.message}`} />,
      r.status,
    );
  }
  // This browser is the kiosk now: the person's session (ended by the service) and trusted-device cookies go.
  clearSessionCookie(c);
  if (readAppCookie(c, 'device')) clearAppCookie(c, 'device');
  setAppCookie(c, 'kiosk', started.token, { maxAgeSeconds: Math.floor((started.expiresAt - Date.now()) / 1000) });
  rotateCsrfToken(c);
  return c.redirect('/kiosk', 303);
}

export async function postEndKiosk(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  try {
    await endKiosk(serviceCtx(c), base.business.id, c.req.param('id') ?? '');
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <BoardView base={base} data={await loadBoard(c, base)} error={r.message} />, r.status);
  }
  return c.redirect(dashboardHref(base, BOARD, { notice: 'kiosk_ended' }), 303);
}
