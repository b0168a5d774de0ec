import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, kioskSessions, sessions, shiftRequests } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { webRouter } from '../../src/web';
import { BASE, call, expectError } from '../helpers/api';
import { isPublic, type OpenApiDoc, operations } from '../helpers/authorization';
import { addTeammate, db, makeUser, TEST_PASSWORD } from '../helpers/factory';
import { auditFor, DAY, insertShift, MINUTE, pngBytes, readShift } from '../helpers/shifts';
import type { WebClient } from '../helpers/web';
import { signedIn } from '../helpers/signed-in';

const idem = () => ({ _idem: crypto.randomUUID() });

/** A shift of the business with its shifter, started `minutesAgo` and lasting 4 hours: on today's board whatever the hour. */
function runningShift(businessId: string, shifterId: string, minutesAgo: number, set: Record<string, unknown> = {}) {
  return insertShift({ businessId, shifterId, startsAt: Date.now() - minutesAgo * MINUTE, minutes: 240, set });
}

/** The owner's browser turned into the kiosk (board → confirmation → start). */
async function startKioskFrom(b: WebClient, businessId?: string): Promise<WebClient> {
  const q = businessId ? `?business_id=${businessId}` : '';
  const ask = await b.get(`/dashboard/board/kiosk/start${q}`);
  expect(ask.status).toBe(200);
  expect(ask.html).toContain('Turn this device into the kiosk');
  const started = await b.post(`/dashboard/board/kiosk/start${q}`, idem());
  expect(started.status).toBe(303);
  expect(started.location).toBe('/kiosk');
  return b;
}

/** A punch as the kiosk's form sends it: multipart, with the page's CSRF token and maybe a photo. */
async function punch(k: WebClient, shiftId: string, side: 'in' | 'out', photo?: Uint8Array) {
  const form = new FormData();
  form.append('_csrf', k.cookies.get('sm_csrf')!);
  form.append('side', side);
  if (photo) form.append('photo', new File([photo], 'me.png', { type: 'image/png' }));
  const res = await k.worker(
    new Request(new URL(`/kiosk/shifts/${shiftId}/punch`, BASE), {
      method: 'POST',
      headers: { Cookie: k.cookieHeader() },
      body: form,
      redirect: 'manual',
    }),
  );
  return { status: res.status, location: res.headers.get('Location'), html: await res.text() };
}

describe('/dashboard/board', () => {
  it('shows who is in (distance, photo), who is late; marks a no-show and ends a shift early, each after a confirmation', async () => {
    const owner = await makeUser({ business: true });
    const inside = await makeUser({ shifter: true, name: 'Inside Ida' });
    const late = await makeUser({ shifter: true, name: 'Late Leo' });
    const running = await runningShift(owner.businessId!, inside.shifterId!, 60, {
      shift_start_at: Date.now() - 55 * MINUTE,
      shift_start_by_id: inside.userId,
      clock_in_distance_m: 42,
    });
    // A real stored photo, as the shifter's app uploads it, tied to the punch.
    const upload = new FormData();
    upload.append('file', new File([pngBytes()], 'in.png', { type: 'image/png' }));
    const photo = await call('POST', `/v1/shift_request/${running.id}/clock_photo`, {
      key: inside.key,
      body: upload,
      query: { side: 'in' },
    });
    expect(photo.status, JSON.stringify(photo.body)).toBe(201);
    await db().update(shiftRequests).set({ clock_in_photo_url: photo.body.url }).where(eq(shiftRequests.id, running.id));
    const missing = await runningShift(owner.businessId!, late.shifterId!, 30);
    const other = await makeUser({ business: true });
    const foreign = await runningShift(other.businessId!, late.shifterId!, 120, { shift_start_at: Date.now() - 100 * MINUTE });

    const b = await signedIn(owner);
    const board = await b.get('/dashboard/board');
    expect(board.status).toBe(200);
    expect(board.html).toContain('Inside Ida');
    expect(board.html).toContain('42 m from the venue');
    expect(board.html).toContain('Late: not clocked in');
    const src = /<img src="(\/dashboard\/board\/photos\/[^"]+)"/.exec(board.html)?.[1];
    expect(src).toBeDefined();
    const img = await b.get(src!);
    expect(img.status).toBe(200);
    expect(img.headers.get('Content-Type')).toBe('image/png');
    expect(img.headers.get('X-Content-Type-Options')).toBe('nosniff');

    // No-show: the confirmation first, then the mark.
    const ask = await b.get(`/dashboard/board/shifts/${missing.id}/no-show`);
    expect(ask.html).toContain('Mark Late Leo as a no-show');
    expect((await readShift(missing.id))!.is_noshow).toBe(false);
    const marked = await b.post(`/dashboard/board/shifts/${missing.id}/no-show`, idem());
    expect(marked.location).toContain('notice=no_show');
    expect((await readShift(missing.id))!.is_noshow).toBe(true);

    // Ending early: punched as the business, before the scheduled end.
    expect((await b.get(`/dashboard/board/shifts/${running.id}/end`)).html).toContain('End Inside Ida&#39;s shift now');
    const ended = await b.post(`/dashboard/board/shifts/${running.id}/end`, idem());
    expect(ended.location).toContain('notice=ended');
    const row = (await readShift(running.id))!;
    expect(row.shift_end_at).not.toBeNull();
    expect(row.shift_end_at!).toBeLessThan(row.ends_at);
    expect(row.shift_end_by_id).toBe(owner.userId);
    const [audit] = await auditFor(running.id, 'shift.clock_out');
    expect(JSON.parse(audit!.data!)).toMatchObject({ punched_as: 'manager', ended_early: true });

    // Another business's shift is not on this board, whatever its id.
    expect((await b.get(`/dashboard/board/shifts/${foreign.id}/end`)).status).toBe(404);
    expect((await b.post(`/dashboard/board/shifts/${foreign.id}/end`, idem())).status).toBe(404);
    expect((await readShift(foreign.id))!.shift_end_at).toBeNull();
  });

  it('lets a teammate run the board but not start a kiosk; a kiosk answers to the owner only', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({});
    await addTeammate(owner.businessId!, mate.userId);
    const crew = await makeUser({ shifter: true });
    const s = await runningShift(owner.businessId!, crew.shifterId!, 20, { shift_start_at: Date.now() - 10 * MINUTE });
    const m = await signedIn(mate);
    const board = await m.get(`/dashboard/board?business_id=${owner.businessId}`);
    expect(board.status).toBe(200);
    expect(board.html).toContain('The business owner starts kiosk mode.');
    expect((await m.get(`/dashboard/board/kiosk/start?business_id=${owner.businessId}`)).status).toBe(403);
    const forged = await m.post(`/dashboard/board/kiosk/start?business_id=${owner.businessId}`, idem());
    expect(forged.status).toBe(403);
    expect(forged.location).toBeNull();
    expect(m.cookies.has('sm_kiosk')).toBe(false);
    expect(await db().select().from(kioskSessions).where(eq(kioskSessions.business_id, owner.businessId!))).toHaveLength(0);
    // The teammate ends a shift early as the business.
    await m.post(`/dashboard/board/shifts/${s.id}/end?business_id=${owner.businessId}`, idem());
    expect((await readShift(s.id))!.shift_end_by_id).toBe(mate.userId);
  });
});

describe('kiosk mode', () => {
  it('signs the owner out on that browser; a shifter picks themselves and clocks in, attributed to them', async () => {
    const owner = await makeUser({ business: true });
    const crew = await makeUser({ shifter: true, name: 'Kiosk Kim' });
    const due = await runningShift(owner.businessId!, crew.shifterId!, 10);
    const b = await signedIn(owner);
    const sessionBefore = b.session!;
    await startKioskFrom(b);
    expect(b.session).toBeUndefined();
    expect(b.cookies.get('sm_kiosk')).toMatch(/^smq_[0-9A-Za-z]{40}$/);
    // The owner's session is ended, not only forgotten by this browser.
    const [ses] = await db().select().from(sessions).where(eq(sessions.user_id, owner.userId));
    expect(ses!.revoked_at).not.toBeNull();
    expectError(await call('GET', '/v1/user/details', { key: sessionBefore }), 401, 'AUTH-REQ-ERR');

    const list = await b.get('/kiosk');
    expect(list.status).toBe(200);
    expect(list.html).toContain('Kiosk Kim');
    expect(list.html).toContain('Clock in here.');
    expect(list.html).not.toContain('$');
    const confirm = await b.get(`/kiosk/shifts/${due.id}`);
    expect(confirm.html).toContain('Are you Kiosk Kim?');
    const done = await punch(b, due.id, 'in', pngBytes());
    expect(done.status, done.html).toBe(303);
    expect(done.location).toBe(`/kiosk?done=${due.id}`);
    const row = (await readShift(due.id))!;
    expect(row.shift_start_by_id).toBe(crew.userId);
    expect(row.clock_in_photo_url).toMatch(new RegExp(`^/v1/uploads/clock-photos/${due.id}/in/upl_`));
    const [audit] = await auditFor(due.id, 'shift.clock_in');
    expect(audit).toMatchObject({ actor_kind: 'user:kiosk', actor_user_id: owner.userId });
    expect(JSON.parse(audit!.data!)).toMatchObject({ punched_as: 'kiosk', attributed_to: crew.userId });
    expect((await b.get(done.location!)).html).toContain('Kiosk Kim, you are clocked in');

    // Clocking out opens a minute after the clock-in, as for the shifter: refused now, with the reason.
    const early = await punch(b, due.id, 'out');
    expect(early.status).toBe(422);
    expect(early.html).toContain('Not yet:');
    expect((await readShift(due.id))!.shift_end_at).toBeNull();
  });

  it('reaches no other page and no /v1 operation, punches only its own business’s shifts of today, and ends only with the owner’s password', async () => {
    const owner = await makeUser({ business: true });
    const crew = await makeUser({ shifter: true });
    // A second business of the same owner, and one of tomorrow: neither is the kiosk's to punch.
    const second = newId('business');
    const [first] = await db().select().from(businesses).where(eq(businesses.id, owner.businessId!));
    await db()
      .insert(businesses)
      .values({ ...first!, id: second, slug: `${first!.slug}-2`, is_default: false });
    const elsewhere = await runningShift(second, crew.shifterId!, 10);
    const tomorrow = await insertShift({
      businessId: owner.businessId!,
      shifterId: crew.shifterId!,
      startsAt: Date.now() + DAY + 60 * MINUTE,
    });
    const k = await startKioskFrom(await signedIn(owner));
    for (const id of [elsewhere.id, tomorrow.id]) {
      const res = await punch(k, id, 'in');
      expect(res.status, id).toBe(404);
      expect((await readShift(id))!.shift_start_at).toBeNull();
    }

    // Every page but the kiosk's (and the static files every page loads: assets, the service worker,
    // the manifest; and the calendar feed, which calendar apps read by its secret alone, never with a
    // session): a page goes back to the kiosk, a form is refused.
    const pages = webRouter.routes.filter(
      (r) =>
        (r.method === 'GET' || r.method === 'POST') &&
        !r.path.includes('*') &&
        !/^\/(kiosk|assets|favicon|cal\/|sw\.js$|app\.webmanifest$)/.test(r.path),
    );
    expect(pages.length).toBeGreaterThan(40);
    for (const r of pages) {
      const path = r.path.replace(/:[A-Za-z_]+/g, 'x');
      const res = r.method === 'GET' ? await k.get(path) : await k.post(path, idem());
      if (r.method === 'GET') {
        expect([res.status, res.location], `GET ${r.path}`).toEqual([303, '/kiosk']);
      } else {
        expect(res.status, `POST ${r.path}`).toBe(403);
      }
    }

    // Every /v1 operation: with the page token the kiosk is refused outright; without it the cookie is never read.
    const doc = (await call<OpenApiDoc>('GET', '/v1/openapi.json')).body;
    const csrf = k.cookies.get('sm_csrf')!;
    for (const o of operations(doc)) {
      const path = o.path.replace(/\{[^}]+\}/g, 'x');
      const asPage = await k.request(o.method, path, { headers: { 'X-CSRF-Token': csrf, Origin: BASE } });
      // The OAuth token route reads client credentials of its own, never a cookie: refused for want of them.
      const tokenRoute = path.startsWith('/v1/partner/oauth/');
      if (tokenRoute) expect(asPage.status, o.key).toBeGreaterThanOrEqual(400);
      else {
        expect(asPage.status, o.key).toBe(403);
        expect(JSON.parse(asPage.html).error.code, o.key).toBe('FORBIDDEN-ERR');
      }
      if (!isPublic(doc, o)) {
        const bare = await k.request(o.method, path);
        if (tokenRoute) expect(bare.status, o.key).toBeGreaterThanOrEqual(400);
        else expect(bare.status, `${o.key} without the page token`).toBe(401);
      }
    }

    // The way out: a wrong password keeps the kiosk; the owner's ends it and the browser is signed out.
    const wrong = await k.post('/kiosk/end', { password: 'not the password' });
    expect(wrong.status).toBe(403);
    expect(wrong.html).toMatch(/id="field-password-error">That is not the owner’s password\./);
    expect((await k.get('/dashboard')).location).toBe('/kiosk');
    const out = await k.post('/kiosk/end', { password: TEST_PASSWORD });
    expect(out.location).toBe('/login?notice=signed_out');
    expect(k.cookies.has('sm_kiosk')).toBe(false);
    expect((await db().select().from(kioskSessions).where(eq(kioskSessions.business_id, owner.businessId!)))[0]).toMatchObject({
      ended_by: 'kiosk',
    });
    expect((await k.get('/kiosk')).location).toBe('/login');
    expect((await k.get('/dashboard')).location).toMatch(/^\/login\?next=/);
  });

  it('is ended by the owner from the board, and keeps to ten live kiosks a business', async () => {
    const owner = await makeUser({ business: true });
    const k = await startKioskFrom(await signedIn(owner));
    const o = await signedIn(owner);
    const board = await o.get('/dashboard/board');
    expect(board.html).toContain('Live kiosks');
    const [live] = await db().select().from(kioskSessions).where(eq(kioskSessions.business_id, owner.businessId!));
    await o.post(`/dashboard/board/kiosks/${live!.id}/end`, idem());
    // The tablet is an ordinary, signed-out browser again.
    expect((await k.get('/kiosk')).location).toBe('/login');
    expect((await k.get('/dashboard')).location).toMatch(/^\/login/);

    const now = Date.now();
    for (let i = 0; i < 10; i++) {
      await db()
        .insert(kioskSessions)
        .values({
          id: newId('kiosk'),
          business_id: owner.businessId!,
          started_by_user_id: owner.userId,
          token_hash: crypto.randomUUID(),
          created_at: now,
          expires_at: now + DAY,
        });
    }
    const full = await o.post('/dashboard/board/kiosk/start', idem());
    expect(full.status).toBe(409);
    expect(full.html).toContain('at most 10 kiosks');
    expect(o.session).toBeDefined();
  });
});
