import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WIDGET_BUNDLES } from '../../generated/widgets/bundles';
import { businesses, requestAuthorizations, reviews } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import { newId } from '../../src/lib/ids';
import { consumeRateLimit } from '../../src/services/kernel';
import { WIDGET_FRAME_IP_LIMIT } from '../../src/web/embed/limit';
import { BASE, call, workerWith, type WorkerFetch } from '../helpers/api';
import { connect, db, makeUser, TEST_PASSWORD } from '../helpers/factory';
import { DAY, HOUR, insertShift, postShift } from '../helpers/shifts';
import { WebClient } from '../helpers/web';

const NAMES = ['connect', 'schedule', 'profile', 'shifts', 'reviews', 'rate'] as const;
const self: WorkerFetch = (req) => exports.default.fetch(req);

async function get(path: string, init: RequestInit = {}, worker: WorkerFetch = self) {
  const res = await worker(new Request(new URL(path, BASE), init));
  return { res, text: await res.text() };
}

function frame(name: string, params: Record<string, string>, worker?: WorkerFetch) {
  return get(`/embed/v1/frame/${name}?${new URLSearchParams(params)}`, {}, worker);
}

async function sha384(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-384', new TextEncoder().encode(text));
  return `sha384-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`;
}

async function slugOf(businessId: string): Promise<string> {
  const [b] = await db().select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, businessId));
  return b!.slug;
}

async function insertReview(
  onBusiness: string,
  byShifter: string,
  rating: number,
  text: string,
  dispute: 'upheld' | 'pending' | 'rejected' | null,
) {
  const now = Date.now();
  const [owner] = await db().select({ user_id: businesses.user_id }).from(businesses).where(eq(businesses.id, onBusiness));
  await db()
    .insert(reviews)
    .values({
      id: newId('review'),
      reviewer_user_id: owner!.user_id,
      review_by: 'shifter',
      review_by_id: byShifter,
      review_on: 'business',
      review_on_id: onBusiness,
      rating,
      review_text: text,
      dispute_status: dispute,
      disputed_at: dispute ? now : null,
      created_at: now,
      updated_at: now,
    });
}

describe('widget scripts', () => {
  it('serves each of the six scripts as JavaScript with revalidated caching, CORS *, nosniff and stable bytes', async () => {
    const manifest = await get('/embed/v1/manifest.json');
    const listed = JSON.parse(manifest.text).scripts as Record<string, { url: string; integrity: string }>;
    for (const name of NAMES) {
      const a = await get(`/embed/v1/${name}.js`);
      const b = await get(`/embed/v1/${name}.js`);
      expect(a.res.status, name).toBe(200);
      expect(a.res.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
      expect(a.res.headers.get('Cache-Control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
      expect(a.res.headers.get('Cache-Control')).not.toContain('immutable');
      expect(a.res.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(a.res.headers.get('X-Content-Type-Options')).toBe('nosniff');
      // Partners load it from their own origin: a same-origin resource policy would block it.
      expect(a.res.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin');
      expect(a.text).toBe(b.text);
      expect(a.text).toBe(WIDGET_BUNDLES.v1.scripts[name].body);
      expect(a.text.length).toBeGreaterThan(500);
      expect(a.res.headers.get('ETag')).toBe(b.res.headers.get('ETag'));
      // The published SRI hash is the hash of the served bytes.
      expect(listed[name]!.integrity).toBe(await sha384(a.text));
      expect(listed[name]!.url).toBe(`${BASE}/embed/v1/${name}.js`);
      const again = await get(`/embed/v1/${name}.js`, { headers: { 'If-None-Match': a.res.headers.get('ETag')! } });
      expect(again.res.status).toBe(304);
      expect(again.text).toBe('');
    }
  });

  it('answers 404 for an unknown widget or version', async () => {
    expect((await get('/embed/v1/nosuch.js')).res.status).toBe(404);
    expect((await get('/embed/v9/profile.js')).res.status).toBe(404);
    expect((await get('/embed/v1/frame/nosuch?slug=x')).res.status).toBe(404);
  });

  it('serves the frame stylesheet and script at hashed, immutable addresses named by the frame page', async () => {
    const owner = await makeUser({ business: true });
    const { text } = await frame('profile', { kind: 'business', slug: await slugOf(owner.businessId!) });
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(text)?.[1];
    const js = /<script src="([^"]+)"/.exec(text)?.[1];
    expect(css).toMatch(/^\/embed\/v1\/assets\/frame\.[0-9a-f]{8}\.css$/);
    expect(js).toMatch(/^\/embed\/v1\/assets\/frame\.[0-9a-f]{12}\.js$/);
    for (const [path, type] of [
      [css!, 'text/css; charset=utf-8'],
      [js!, 'text/javascript; charset=utf-8'],
    ] as const) {
      const r = await get(path);
      expect(r.res.status).toBe(200);
      expect(r.res.headers.get('Content-Type')).toBe(type);
      expect(r.res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
      expect(r.res.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin');
    }
  });
});

describe('widget frame pages', () => {
  it('profile: CSP with frame-ancestors *, no inline script, lang, the chosen theme, the frame id and host origin', async () => {
    const owner = await makeUser({ business: { name: 'Blue Door Cafe' } });
    const slug = await slugOf(owner.businessId!);
    for (const theme of ['light', 'dark'] as const) {
      const { res, text } = await frame('profile', {
        kind: 'business',
        slug,
        theme,
        id: 'abcdef0123456789',
        origin: 'https://partner.example',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('Content-Security-Policy')!;
      expect(csp).toContain('frame-ancestors *');
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toMatch(/https?:\/\/(?!example\.com)/);
      // The app's SAMEORIGIN default would forbid partners' pages; frame-ancestors decides.
      expect(res.headers.get('X-Frame-Options')).not.toMatch(/SAMEORIGIN|DENY/i);
      expect(text).toMatch(/<html lang="en"/);
      expect(text).toContain(`data-theme="${theme}"`);
      expect(text).toContain(`<meta name="color-scheme" content="${theme}"`);
      expect(text).toContain('data-widget-id="abcdef0123456789"');
      expect(text).toContain('data-host-origin="https://partner.example"');
      expect(text).toContain('Blue Door Cafe');
      // Every script has a src: nothing inline.
      expect(text.match(/<script\b[^>]*>/g)!.every((tag) => / src="\/embed\/v1\/assets\//.test(tag))).toBe(true);
      expect(text).not.toMatch(/\son[a-z]+=/);
    }
  });

  it('takes no host origin that is not an http(s) origin, and no malformed frame id', async () => {
    const owner = await makeUser({ business: true });
    const slug = await slugOf(owner.businessId!);
    for (const origin of ['javascript:alert(1)', 'https://partner.example/path', '*', 'null']) {
      const { text } = await frame('profile', { slug, origin, id: '"><script>' });
      expect(text).not.toContain('data-host-origin');
      expect(text).not.toContain('data-widget-id');
    }
  });

  it('a narrower WIDGET_FRAME_ANCESTORS is what frame-ancestors names; a value that would end the directive fails closed', async () => {
    const owner = await makeUser({ business: true });
    const slug = await slugOf(owner.businessId!);
    const narrow = await frame('profile', { slug }, workerWith({ WIDGET_FRAME_ANCESTORS: 'https://partner.example' }));
    expect(narrow.res.headers.get('Content-Security-Policy')).toContain('frame-ancestors https://partner.example');
    const broken = await frame('profile', { slug }, workerWith({ WIDGET_FRAME_ANCESTORS: "* ; script-src 'unsafe-inline'" }));
    expect(broken.res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    expect(broken.res.headers.get('Content-Security-Policy')).not.toContain('unsafe-inline');
  });

  it('an unknown slug (or a malformed one) is a clear empty state page inside the frame, not an error body', async () => {
    for (const name of ['profile', 'shifts', 'reviews', 'rate', 'connect']) {
      for (const slug of ['no-such-business-000000', 'BAD slug!', '']) {
        const { res, text } = await frame(name, { kind: 'business', slug, theme: 'dark' });
        expect(res.status, `${name} ${slug}`).toBe(404);
        expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('Content-Security-Policy')).toContain('frame-ancestors *');
        expect(text).toContain('Profile not found');
        expect(text).toContain('data-theme="dark"');
        expect(text).not.toContain('"error"');
      }
    }
  });

  it('profile of a paused shifter shows the Paused badge; a shifter taking requests shows none', async () => {
    const paused = await makeUser({ name: 'Chris Paused', shifter: { accept_shift_req: false, headline: 'Prep cook' } });
    const active = await makeUser({ name: 'Jordan Active', shifter: { accept_shift_req: true } });
    const slug = async (id: string) => (await db().query.shifters.findFirst({ where: (s, { eq: e }) => e(s.id, id) }))!.slug;
    const p = await frame('profile', { kind: 'shifter', slug: await slug(paused.shifterId!) });
    expect(p.res.status).toBe(200);
    expect(p.text).toContain('Chris Paused');
    expect(p.text).toContain('Prep cook');
    expect(p.text).toMatch(/class="badge"[^>]*>\s*Paused/);
    const a = await frame('profile', { kind: 'shifter', slug: await slug(active.shifterId!) });
    expect(a.text).toContain('Jordan Active');
    expect(a.text).not.toContain('Paused');
  });

  it('reviews leave out the upheld-dispute review and count only the others in the rating', async () => {
    const owner = await makeUser({ business: true });
    const s1 = await makeUser({ name: 'Oliver Reviewer', shifter: true });
    const s2 = await makeUser({ name: 'Amelia Reviewer', shifter: true });
    await insertReview(owner.businessId!, s1.shifterId!, 5, 'Lovely team and regulars.', null);
    await insertReview(owner.businessId!, s2.shifterId!, 1, 'Worst place ever, the owner is a crook.', 'upheld');
    await insertReview(owner.businessId!, s2.shifterId!, 4, 'Fair manager, disputed but kept.', 'rejected');
    const { res, text } = await frame('reviews', { kind: 'business', slug: await slugOf(owner.businessId!) });
    expect(res.status).toBe(200);
    expect(text).toContain('Lovely team and regulars.');
    expect(text).toContain('Fair manager, disputed but kept.');
    expect(text).not.toContain('Worst place ever');
    expect(text).toContain('4.50 from 2 reviews');
    expect(text.match(/data-review-id=/g)).toHaveLength(2);
  });

  it('shifts lists only the open broadcasts (is_broadcast=1, request_status=1, not started) with the role label', async () => {
    const owner = await makeUser({ business: true });
    const shifter = await makeUser({ shifter: true });
    const now = Date.now();
    const open1 = await insertShift({
      businessId: owner.businessId!,
      startsAt: now + 2 * DAY,
      status: 1,
      broadcast: true,
      role: 2,
      rateMinor: 2250,
    });
    const open2 = await insertShift({ businessId: owner.businessId!, startsAt: now + DAY, status: 1, broadcast: true, role: 3 });
    await insertShift({
      businessId: owner.businessId!,
      shifterId: shifter.shifterId,
      startsAt: now + 3 * DAY,
      status: 1,
      broadcast: false,
    });
    await insertShift({ businessId: owner.businessId!, shifterId: shifter.shifterId, startsAt: now + 4 * DAY, status: 2, broadcast: true });
    await insertShift({ businessId: owner.businessId!, startsAt: now + 5 * DAY, status: 7, broadcast: true });
    await insertShift({ businessId: owner.businessId!, startsAt: now - 2 * HOUR, status: 1, broadcast: true });
    const { res, text } = await frame('shifts', { kind: 'business', slug: await slugOf(owner.businessId!) });
    expect(res.status).toBe(200);
    expect(text.match(/<li>/g)).toHaveLength(2);
    expect(text).toContain('Bartender');
    expect(text).toContain('Line Cook');
    expect(text).toContain('$22.50/h');
    // Soonest first.
    expect(text.indexOf('Line Cook')).toBeLessThan(text.indexOf('Bartender'));
    expect(text).toContain(open1.shift_in);
    expect(text).toContain(open2.shift_in);
  });

  it('shifts of a business without open broadcasts says so', async () => {
    const owner = await makeUser({ business: true });
    const { res, text } = await frame('shifts', { kind: 'business', slug: await slugOf(owner.businessId!) });
    expect(res.status).toBe(200);
    expect(text).toContain('No open shifts right now.');
  });

  it('rate: too little data is a clear message; enough data shows the median; a missing role says so', async () => {
    // Phoenix (city 7) and the host role (5): no other test in this file works there.
    const thin = await makeUser({ business: { city_id: 7, state_id: 5, country_id: 1, timezone: 'America/Phoenix' } });
    const thinSlug = await slugOf(thin.businessId!);
    const shifter = await makeUser({ shifter: true });
    const now = Date.now();
    for (const [i, rate] of [1800, 2000, 2200].entries()) {
      await insertShift({
        businessId: thin.businessId!,
        shifterId: shifter.shifterId,
        tz: 'America/Phoenix',
        startsAt: now - (i + 2) * DAY,
        status: 2,
        role: 5,
        rateMinor: rate,
        set: { shift_start_at: now - (i + 2) * DAY, shift_end_at: now - (i + 2) * DAY + 4 * HOUR },
      });
    }
    const few = await frame('rate', { kind: 'business', slug: thinSlug, role: 'host' });
    expect(few.res.status).toBe(200);
    expect(few.text).toContain('data-sufficient="false"');
    expect(few.text).toContain('Not enough data yet to show a going rate.');
    expect(few.text).toContain('3 worked shifts in the last 90 days; the going rate is shown from 10.');

    // Another business in the same city (its own cache entry), with the minimum sample at 3.
    const other = await makeUser({ business: { city_id: 7, state_id: 5, country_id: 1, timezone: 'America/Phoenix' } });
    const enough = await frame(
      'rate',
      { kind: 'business', slug: await slugOf(other.businessId!), role: 'host' },
      workerWith({ GOING_RATE_MIN_SAMPLE: '3' }),
    );
    expect(enough.text).toContain('data-sufficient="true"');
    expect(enough.text).toContain('$20.00/h');
    expect(enough.text).toContain('Host in Phoenix');

    const noRole = await frame('rate', { kind: 'business', slug: thinSlug });
    expect(noRole.res.status).toBe(200);
    expect(noRole.text).toContain('No role was chosen');
    const unknownRole = await frame('rate', { kind: 'business', slug: thinSlug, role: 'astronaut' });
    expect(unknownRole.text).toContain('No going rate for this role');
  });
});

describe('widget frames per client address', () => {
  it('limits the frames one address loads (429 page with Retry-After, still a frame); other addresses and the scripts go on', async () => {
    const owner = await makeUser({ business: true });
    const slug = await slugOf(owner.businessId!);
    const ip = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
    const from = (addr: string, path = `/embed/v1/frame/profile?${new URLSearchParams({ kind: 'business', slug })}`) =>
      get(path, { headers: { 'CF-Connecting-IP': addr } });
    // Most of the address's budget is spent already (as by a scraper walking slugs); the last frames pass, then none.
    const { limit, windowSeconds } = WIDGET_FRAME_IP_LIMIT;
    for (let i = 0; i < limit - 3; i++) await consumeRateLimit(env as AppBindings, `widget-ip:${ip}`, limit, windowSeconds);
    const answers = await Promise.all(Array.from({ length: 8 }, () => from(ip)));
    expect(answers.filter((a) => a.res.status === 200)).toHaveLength(3);
    for (const { res, text } of answers.filter((a) => a.res.status !== 200)) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
      // A page the frame can show, with the frames' own policy, not a JSON error inside a partner's site.
      expect(res.headers.get('Content-Type')).toContain('text/html');
      expect(res.headers.get('Content-Security-Policy')).toContain('frame-ancestors');
      expect(text).toContain('Too many requests');
    }
    // Every frame counts, the signed-in widgets' too; scripts and other addresses are not held back.
    expect((await from(ip, '/embed/v1/frame/schedule')).res.status).toBe(429);
    expect((await from(ip, '/embed/v1/profile.js')).res.status).toBe(200);
    expect((await from('203.0.113.251')).res.status).toBe(200);
  });
});

describe('widget edge cache', () => {
  it('a second view is served from the cache without reading D1; a settings change purges it', async () => {
    const owner = await makeUser({ business: { name: 'Harbor Grill' } });
    const slug = await slugOf(owner.businessId!);
    const first = await frame('profile', { kind: 'business', slug });
    expect(first.res.headers.get('X-Widget-Cache')).toBe('miss');
    expect(first.text).toContain('Harbor Grill');
    const second = await frame('profile', { kind: 'business', slug, theme: 'dark' });
    expect(second.res.headers.get('X-Widget-Cache')).toBe('hit');
    // A change written behind the services' back is not seen: the view did not read D1.
    await db().update(businesses).set({ name: 'Changed Behind' }).where(eq(businesses.id, owner.businessId!));
    const third = await frame('profile', { kind: 'business', slug });
    expect(third.res.headers.get('X-Widget-Cache')).toBe('hit');
    expect(third.text).toContain('Harbor Grill');
    // A change through the service purges the entry: the next view reads the new name.
    const put = await call('PUT', '/v1/business/update_settings', {
      key: owner.key,
      body: { business_id: owner.businessId, name: 'Harbor Grill & Bar' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const fourth = await frame('profile', { kind: 'business', slug });
    expect(fourth.res.headers.get('X-Widget-Cache')).toBe('miss');
    expect(fourth.text).toContain('Harbor Grill &amp; Bar');
  });

  it('an unknown slug is cached too (probing slugs does not reach D1)', async () => {
    const a = await frame('profile', { kind: 'business', slug: 'probe-nobody-here' });
    const b = await frame('profile', { kind: 'business', slug: 'probe-nobody-here' });
    expect([a.res.headers.get('X-Widget-Cache'), b.res.headers.get('X-Widget-Cache')]).toEqual(['miss', 'hit']);
    expect(b.res.status).toBe(404);
  });

  it('a broadcast posted and cancelled through the services shows in the shifts widget at once', async () => {
    const owner = await makeUser({ business: true });
    const slug = await slugOf(owner.businessId!);
    const empty = await frame('shifts', { kind: 'business', slug });
    expect(empty.text).toContain('No open shifts right now.');
    expect((await frame('shifts', { kind: 'business', slug })).res.headers.get('X-Widget-Cache')).toBe('hit');

    const posted = await postShift(owner.key, { business_id: owner.businessId, is_broadcast: 1, shiftrole_id: 2 });
    const afterPost = await frame('shifts', { kind: 'business', slug });
    expect(afterPost.res.headers.get('X-Widget-Cache')).toBe('miss');
    expect(afterPost.text).toContain('Bartender');

    const cancel = await call('POST', `/v1/shift_request/${posted.id}/cancel`, { key: owner.key, body: { reason: 'not needed' } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const afterCancel = await frame('shifts', { kind: 'business', slug });
    expect(afterCancel.res.headers.get('X-Widget-Cache')).toBe('miss');
    expect(afterCancel.text).toContain('No open shifts right now.');
  });

  it('a broadcast claimed by a crew member leaves the shifts widget at once', async () => {
    const owner = await makeUser({ business: true });
    const crew = await makeUser({ shifter: true });
    await connect(owner.businessId!, crew.shifterId!);
    const slug = await slugOf(owner.businessId!);
    const posted = await postShift(owner.key, { business_id: owner.businessId, is_broadcast: 1, shiftrole_id: 4 });
    expect((await frame('shifts', { kind: 'business', slug })).text).toContain('Dishwasher');
    expect((await frame('shifts', { kind: 'business', slug })).res.headers.get('X-Widget-Cache')).toBe('hit');
    const claimed = await call('POST', `/v1/shift_request/${posted.id}/claim`, { key: crew.key });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    const after = await frame('shifts', { kind: 'business', slug });
    expect(after.res.headers.get('X-Widget-Cache')).toBe('miss');
    expect(after.text).toContain('No open shifts right now.');
  });

  it('a review dispute upheld by an admin disappears from the reviews widget at once', async () => {
    const owner = await makeUser({ business: true });
    const shifter = await makeUser({ shifter: true });
    const admin = await makeUser({ admin: true });
    await insertReview(owner.businessId!, shifter.shifterId!, 1, 'Rude remark about the owner.', 'pending');
    const slug = await slugOf(owner.businessId!);
    expect((await frame('reviews', { kind: 'business', slug })).text).toContain('Rude remark');
    expect((await frame('reviews', { kind: 'business', slug })).res.headers.get('X-Widget-Cache')).toBe('hit');
    const [row] = await db().select({ id: reviews.id }).from(reviews).where(eq(reviews.review_on_id, owner.businessId!));
    const resolved = await call('PUT', '/v1/review/dispute/resolve', { key: admin.key, query: { review_id: row!.id, decision: 'upheld' } });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const after = await frame('reviews', { kind: 'business', slug });
    expect(after.res.headers.get('X-Widget-Cache')).toBe('miss');
    expect(after.text).not.toContain('Rude remark');
  });
});

describe('signed-in widgets (connect, schedule)', () => {
  it('the frames hold no personal data and link to first-party pages; those refuse without a session', async () => {
    const owner = await makeUser({ business: { name: 'Camden Coffee' } });
    const slug = await slugOf(owner.businessId!);
    const connect = await frame('connect', { kind: 'business', slug });
    expect(connect.res.status).toBe(200);
    expect(connect.text).toContain('Camden Coffee');
    expect(connect.text).toContain(`href="${BASE}/embed/v1/connect/${slug}"`);
    expect(connect.text).toContain('target="_blank"');
    const schedule = await frame('schedule', {});
    expect(schedule.res.status).toBe(200);
    expect(schedule.text).toContain(`href="${BASE}/embed/v1/schedule"`);

    // No session: sign in first (a redirect, nothing shown, nothing done).
    for (const path of [`/embed/v1/connect/${slug}`, '/embed/v1/schedule']) {
      const r = await get(path, { redirect: 'manual' });
      expect(r.res.status, path).toBe(303);
      expect(r.res.headers.get('Location')).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    // A cross-site form post (no CSRF token, foreign origin) is refused before anything runs.
    const forged = await get(`/embed/v1/connect/${slug}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(forged.res.status).toBe(403);
    const rows = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.business_id, owner.businessId!));
    expect(rows).toHaveLength(0);
  });

  it('a signed-in shifter asks to connect on the first-party page; a session cookie is never needed in the frame', async () => {
    const owner = await makeUser({ business: { name: 'Camden Coffee' } });
    const shifter = await makeUser({ shifter: true });
    const slug = await slugOf(owner.businessId!);
    const web = new WebClient(BASE);
    const signedIn = await web.signIn(shifter.email, TEST_PASSWORD, `/embed/v1/connect/${slug}`);
    expect(signedIn.status).toBe(303);
    const page = await web.get(`/embed/v1/connect/${slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Connect with Camden Coffee');
    const sent = await web.post(`/embed/v1/connect/${slug}`, {});
    expect(sent.status).toBe(200);
    expect(sent.html).toContain('Request sent');
    const [row] = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.business_id, owner.businessId!));
    expect(row).toMatchObject({ shifter_id: shifter.shifterId, status: 'pending', initiated_by: 'shifter' });
    const again = await web.post(`/embed/v1/connect/${slug}`, {});
    expect(again.status).toBe(409);

    // Their schedule lists their own upcoming accepted shifts only.
    await insertShift({ businessId: owner.businessId!, shifterId: shifter.shifterId, startsAt: Date.now() + DAY, status: 2, role: 4 });
    const mine = await web.get('/embed/v1/schedule');
    expect(mine.status).toBe(200);
    // A first-party page with personal data: not loadable cross-origin, not framable.
    expect(mine.headers.get('Cross-Origin-Resource-Policy')).toBe('same-origin');
    expect(mine.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    expect(mine.html).toContain('Dishwasher at Camden Coffee');
    const stranger = new WebClient(BASE);
    const other = await makeUser({ shifter: true });
    await stranger.signIn(other.email, TEST_PASSWORD);
    expect((await stranger.get('/embed/v1/schedule')).html).not.toContain('Camden Coffee');
  });
});

describe('example host page', () => {
  it('is served with DEMO_MODE on (the tests) and not otherwise', async () => {
    const on = await get('/embed/examples/');
    expect(on.res.status).toBe(200);
    expect(on.text).toContain('data-shiftmarket-widget="profile"');
    expect(on.text).toContain('<script src="/embed/v1/profile.js"');
    expect(on.text).not.toContain('{{');
    expect(on.res.headers.get('Content-Security-Policy')).toContain("script-src 'self'");
    const off = await get('/embed/examples/', {}, workerWith({ DEMO_MODE: 'false' }));
    expect(off.res.status).toBe(404);
  });
});
