import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { uploadGuard } from '@/lib/uploads';
import {
  endKioskWithPassword,
  type KioskShift,
  kioskActor,
  kioskPunch,
  kioskSeenIsStale,
  kioskShifts,
  type ResolvedKiosk,
  resolveKiosk,
  touchKiosk,
} from '@/services/kiosk';
import { CLOCK_PHOTO_MAX_BYTES } from '@/services/shifts';
import { CsrfField, Notice, SubmitButton, TextField } from '@/web/components';
import { clearAppCookie, readAppCookie } from '@/http/cookies';
import { formatDate, shiftHours, timeIn } from '@/web/format';
import { Document } from '@/web/layout';
import { renderError, renderPage } from '@/web/render';

/**
 * The kiosk ({app_url}/kiosk): a venue's tablet in kiosk mode (services/kiosk). Today's shifts of the
 * one business it is bound to, each shifter picking themselves to clock in or out, and the way out,
 * which needs the owner's password. Nothing else: the kiosk has no navigation, and every other page
 * and the API refuse a browser holding a kiosk token (src/web/index.ts `kioskLock`,
 * http/middleware/auth.ts). Plain forms; no script.
 */

/** The kiosk of each request, by its context (the body limit replaces the request object itself). */
const resolved = new WeakMap<Context<AppEnv>, ResolvedKiosk>();

/**
 * Reads the kiosk cookie of a /kiosk request and, for a live kiosk, makes it the request's actor.
 * Mounted in app.ts before the body limit, so the limit sees a signed-in caller and lets a punch's
 * photo through at the clock photo's size.
 */
export const resolveKioskRequest: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = readAppCookie(c, 'kiosk');
  if (token) {
    const now = Date.now();
    const kiosk = await resolveKiosk(c.get('db'), token, now);
    if (kiosk) {
      resolved.set(c, kiosk);
      c.set('actor', kioskActor(kiosk));
      if (kioskSeenIsStale(kiosk, now))
        c.executionCtx.waitUntil(
          touchKiosk(c.get('db'), kiosk.id, now)
            .run()
            .catch(() => undefined),
        );
    }
  }
  await next();
};

/** The live kiosk of this request (resolveKioskRequest ran), or null. */
export function requestKiosk(c: Context<AppEnv>): ResolvedKiosk | null {
  return resolved.get(c) ?? null;
}

function KioskDocument({ kiosk, title, children }: { kiosk: ResolvedKiosk; title: string; children: Child }) {
  return (
    <Document title={`${title} · ${kiosk.businessName}`} bodyClass="kiosk">
      <header class="site-header">
        <div class="site-header-inner kiosk-header">
          <p class="brand">{kiosk.businessName}</p>
          <p class="muted">Kiosk</p>
        </div>
      </header>
      <main id="main" class="kiosk-main" tabindex={-1}>
        {children}
      </main>
      <footer class="kiosk-footer">
        <a href="/kiosk/end">End kiosk mode</a>
      </footer>
    </Document>
  );
}

function stateText(s: KioskShift, tz: string): string {
  const at = (iso: string | null) => (iso ? timeIn(iso, tz) : '');
  switch (s.state) {
    case 'no_show':
      return 'Marked as a no-show: ask the manager.';
    case 'done':
      return `Done: in ${at(s.clocked_in_at)}, out ${at(s.clocked_out_at)}.`;
    case 'missed':
      return 'The clock-in closed at the end of the shift: ask the manager.';
    case 'in':
      return s.can
        ? `In since ${at(s.clocked_in_at)}. Clock out here.`
        : `In since ${at(s.clocked_in_at)}. Clock-out opens at ${at(s.opens_at)}.`;
    case 'due':
      return s.can ? 'Clock in here.' : `Clock-in opens at ${at(s.opens_at)}.`;
  }
}

function ShiftItem({ s, tz }: { s: KioskShift; tz: string }) {
  const what = `${shiftHours(s.shift_in, s.shift_out)}${s.role ? ` · ${s.role}` : ''}`;
  const body = (
    <>
      <span class="kiosk-name">{s.shifter_name}</span>
      <span class="kiosk-when">{what}</span>
      <span class="kiosk-state">{stateText(s, tz)}</span>
    </>
  );
  return (
    <li>
      {s.can ? (
        <a class={`kiosk-person kiosk-${s.can}`} href={`/kiosk/shifts/${encodeURIComponent(s.id)}`}>
          {body}
        </a>
      ) : (
        <div class="kiosk-person kiosk-idle">{body}</div>
      )}
    </li>
  );
}

async function renderBoard(
  c: Context<AppEnv>,
  kiosk: ResolvedKiosk,
  refused?: { status: ContentfulStatusCode; message: string },
): Promise<Response> {
  const { today, shifts } = await kioskShifts(serviceCtx(c), kiosk);
  const doneId = c.req.query('done');
  const done = doneId ? shifts.find((s) => s.id === doneId) : undefined;
  const tz = kiosk.timezone;
  const notice =
    done?.state === 'in'
      ? `${done.shifter_name}, you are clocked in (${timeIn(done.clocked_in_at!, tz)}). Have a good shift!`
      : done?.state === 'done'
        ? `${done.shifter_name}, you are clocked out (${timeIn(done.clocked_out_at!, tz)}). Thank you!`
        : undefined;
  return renderPage(
    c,
    <KioskDocument kiosk={kiosk} title="Clock in or out">
      <h1>Clock in or out</h1>
      <p class="aside">{`${formatDate(today)} · tap your name`}</p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {refused ? <Notice kind="error">{refused.message}</Notice> : null}
      {shifts.length ? (
        <ul class="kiosk-list">
          {shifts.map((s) => (
            <ShiftItem s={s} tz={tz} />
          ))}
        </ul>
      ) : (
        <p class="empty">No one is on the schedule today.</p>
      )}
      <p>
        <a href="/kiosk">Refresh the list</a>
      </p>
    </KioskDocument>,
    refused?.status ?? 200,
  );
}

function PunchView({ c, kiosk, s, error }: { c: Context<AppEnv>; kiosk: ResolvedKiosk; s: KioskShift; error?: string | undefined }) {
  const side = s.can ?? (s.state === 'in' ? 'out' : 'in');
  const verb = side === 'in' ? 'Clock in' : 'Clock out';
  const photoHint = kiosk.requireClockPhoto ? 'Required by the business.' : 'Optional.';
  return (
    <KioskDocument kiosk={kiosk} title={verb}>
      <h1>{`${verb}: ${s.shifter_name}`}</h1>
      {error ? <Notice kind="error">{error}</Notice> : null}
      <p>{`${formatDate(s.shift_date)} · ${shiftHours(s.shift_in, s.shift_out)}${s.role ? ` · ${s.role}` : ''}`}</p>
      <p>{`Are you ${s.shifter_name}? Only clock yourself ${side}: the punch is recorded as yours.`}</p>
      <form method="post" action={`/kiosk/shifts/${encodeURIComponent(s.id)}/punch`} enctype="multipart/form-data">
        <CsrfField token={c.get('csrfToken')} />
        <input type="hidden" name="side" value={side} />
        <div class="field">
          <label for="field-photo">{`A photo of you (${photoHint.toLowerCase().replace('.', '')})`}</label>
          <input
            id="field-photo"
            name="photo"
            type="file"
            accept="image/*"
            capture="user"
            required={kiosk.requireClockPhoto}
            aria-describedby="field-photo-hint"
          />
          <p class="hint" id="field-photo-hint">
            {`${photoHint} A picture at the venue, at most 8 MB.`}
          </p>
        </div>
        <div class="actions">
          <SubmitButton>{`${verb} as ${s.shifter_name}`}</SubmitButton>
          <a class="button button-secondary" href="/kiosk">
            Not me
          </a>
        </div>
      </form>
    </KioskDocument>
  );
}

/** Refusals said for someone standing at a tablet: what happened and whom to ask. */
function punchMessage(err: unknown): { status: ContentfulStatusCode; message: string } {
  if (!(err instanceof AppError)) throw err;
  const words: Partial<Record<string, string>> = {
    'SHFT-CLOCK-WINDOW-ERR': `Not yet: ${err.message}`,
    'SHFT-PHOTO-REQ-ERR': 'The business asks for a photo: take one and try again.',
    'SHFT-STATE-ERR': `This shift cannot be punched now: ${err.message} Ask the manager.`,
    'SHFT-NOT-FND-ERR': 'This shift is not on the kiosk today. Ask the manager.',
    'RATE-LIMIT-ERR': 'Too many punches from this tablet just now: wait a few minutes.',
  };
  return { status: err.status as ContentfulStatusCode, message: words[err.code] ?? err.message };
}

export const kioskPages = new Hono<AppEnv>();

/** Every kiosk page needs a live kiosk; without one the browser is an ordinary one again. */
kioskPages.use('*', async (c, next) => {
  if (requestKiosk(c)) return next();
  if (readAppCookie(c, 'kiosk')) clearAppCookie(c, 'kiosk');
  return c.redirect('/login', 303);
});

kioskPages.get('/', (c) => renderBoard(c, requestKiosk(c)!));

kioskPages.get('/shifts/:id', async (c) => {
  const kiosk = requestKiosk(c)!;
  const s = (await kioskShifts(serviceCtx(c), kiosk)).shifts.find((x) => x.id === c.req.param('id'));
  if (!s?.can) return c.redirect('/kiosk', 303);
  return renderPage(c, <PunchView c={c} kiosk={kiosk} s={s} />);
});

kioskPages.post('/shifts/:id/punch', uploadGuard(CLOCK_PHOTO_MAX_BYTES, 'photo'), async (c) => {
  const kiosk = requestKiosk(c)!;
  const id = c.req.param('id');
  const body = await c.req.parseBody();
  const side = body.side === 'out' ? 'out' : 'in';
  const photo = body.photo instanceof File && body.photo.size > 0 ? body.photo : null;
  const ctx = serviceCtx(c);
  try {
    await kioskPunch(ctx, kiosk, id, side, photo);
  } catch (err) {
    const { status, message } = punchMessage(err);
    if (status === 429) c.header('Retry-After', (err as AppError).headers?.['Retry-After'] ?? '60');
    const s = (await kioskShifts(ctx, kiosk)).shifts.find((x) => x.id === id);
    if (!s) return renderBoard(c, kiosk, { status, message });
    return renderPage(c, <PunchView c={c} kiosk={kiosk} s={s} error={message} />, status);
  }
  return c.redirect(`/kiosk?done=${encodeURIComponent(id)}`, 303);
});

function EndView({ c, kiosk, error }: { c: Context<AppEnv>; kiosk: ResolvedKiosk; error?: string | undefined }) {
  return (
    <KioskDocument kiosk={kiosk} title="End kiosk mode">
      <h1>End kiosk mode</h1>
      <p>The owner of the business ends kiosk mode with their password. The tablet is then an ordinary browser again, signed out.</p>
      <form method="post" action="/kiosk/end">
        <CsrfField token={c.get('csrfToken')} />
        <TextField
          label="The owner's password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          maxLength={256}
          error={error}
          autofocus
        />
        <div class="actions">
          <SubmitButton variant="danger">End kiosk mode</SubmitButton>
          <a class="button button-secondary" href="/kiosk">
            Back to the kiosk
          </a>
        </div>
      </form>
    </KioskDocument>
  );
}

kioskPages.get('/end', (c) => renderPage(c, <EndView c={c} kiosk={requestKiosk(c)!} />));

kioskPages.post('/end', async (c) => {
  const kiosk = requestKiosk(c)!;
  const password = (await c.req.parseBody()).password;
  try {
    await endKioskWithPassword(serviceCtx(c), kiosk, typeof password === 'string' ? password.slice(0, 256) : '');
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const wrong = err.code === 'PASSWORD-WRONG-ERR';
    if (err.code === 'RATE-LIMIT-ERR') c.header('Retry-After', err.headers?.['Retry-After'] ?? '60');
    const message = wrong
      ? 'That is not the owner’s password.'
      : err.code === 'RATE-LIMIT-ERR'
        ? 'Too many wrong passwords: wait a while.'
        : err.message;
    return renderPage(c, <EndView c={c} kiosk={kiosk} error={message} />, err.status as ContentfulStatusCode);
  }
  clearAppCookie(c, 'kiosk');
  return c.redirect('/login?notice=signed_out', 303);
});

/**
 * Every other page, for a browser holding a kiosk token: a live kiosk reaches nothing but /kiosk (a
 * page is sent there, a form is refused); an ended or expired one's cookie is dropped and the browser
 * goes on as an ordinary one.
 */
export const kioskLock: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = readAppCookie(c, 'kiosk');
  if (!token) return next();
  if (!(await resolveKiosk(c.get('db'), token, Date.now()))) {
    clearAppCookie(c, 'kiosk');
    return next();
  }
  c.get('log')?.warn('kiosk reached for another page', { method: c.req.method, path: c.req.path });
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return c.redirect('/kiosk', 303);
  return renderError(c, 403, 'Kiosk mode', 'This device is a kiosk: it only clocks shifters in and out. End kiosk mode first.');
};
