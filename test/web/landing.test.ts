import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, shifters } from '../../src/db/schema';
import { BASE } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { addTeammate, db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { WebClient } from '../helpers/web';

/** Where a person lands (src/web/features/dashboard/context.ts, landingOf) and the Welcome page (today/welcome.tsx). */

const browser = (origin = BASE) => new WebClient(origin, { 'CF-Connecting-IP': randomIp() });

/** Signs `u` in on `b` and follows the redirects from there: the path of the page it lands on, and that page. */
async function signInAndLand(b: WebClient, u: TestUser) {
  const signedIn = await b.signIn(u.email, TEST_PASSWORD);
  expect(signedIn.status).toBe(303);
  return follow(b, signedIn.location!);
}

async function follow(b: WebClient, path: string) {
  let at = path;
  for (let hops = 0; hops < 5; hops++) {
    const page = await b.get(at);
    if (page.status !== 303) return { path: at, page };
    at = page.location!;
  }
  throw new Error(`more than 5 redirects from ${path}`);
}

const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const errorOf = (html: string, name: string) => new RegExp(`id="field-${name}-error">([^<]*)<`).exec(html)?.[1] ?? null;
const sideCookie = (b: WebClient) => b.cookies.get('__Host-sm_side') ?? b.cookies.get('sm_side');

describe('where a shifter lands', () => {
  it('a shifter-only account lands on the shifter side after sign-in and on /dashboard, never on the business Welcome', async () => {
    const sh = await makeUser({ shifter: true });
    const b = browser();
    const landed = await signInAndLand(b, sh);
    expect(landed.path).toBe('/dashboard/shifter');
    expect(landed.page.status).toBe(200);
    expect(h1(landed.page.html)).toBe('Your shifts');

    const home = await b.get('/dashboard');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/dashboard/shifter');
    // A two-factor or a `next` of /dashboard ends the same way: the landing is /dashboard's, not the sign-in's.
    expect((await b.get('/login')).location).toBe('/dashboard');
  });

  it('keeps an address that names its side: ?business_id= and ?side=business open the business side as typed', async () => {
    const sh = await makeUser({ shifter: true });
    const b = browser();
    await signInAndLand(b, sh);
    for (const path of ['/dashboard?side=business', '/dashboard?business_id=biz_unknown']) {
      const page = await b.get(path);
      expect(page.status, path).toBe(200);
      expect(h1(page.html), path).toBe('Welcome');
    }
    // The shifter side leads there: the side switch offers the business side to a shifter without one.
    expect((await b.get('/dashboard/shifter')).html).toContain('href="/dashboard?side=business">Business side</a>');
  });

  it('a person with both sides lands on the side used last in this browser; another person on it lands on their own', async () => {
    const dual = await makeUser({ shifter: true, business: true });
    const b = browser('https://app.example.com');
    // Never chosen in this browser: the business side, as before.
    let landed = await signInAndLand(b, dual);
    expect(landed.path).toBe('/dashboard');
    expect(h1(landed.page.html)).toBe('Today');
    expect(sideCookie(b)).toBe(`business.${dual.userId}`);

    // The shifter side used: the next sign-in opens it, and so does /dashboard.
    await b.get('/dashboard/shifter/schedule');
    expect(sideCookie(b)).toBe(`shifter.${dual.userId}`);
    expect((await b.get('/dashboard')).location).toBe('/dashboard/shifter');
    await b.post('/logout');
    landed = await signInAndLand(b, dual);
    expect(landed.path).toBe('/dashboard/shifter');
    // On HTTPS the cookie is the host's own, HttpOnly and Lax, like the session's.
    const set = (await b.request('GET', `/dashboard?business_id=${dual.businessId}`)).headers.getSetCookie().join('\n');
    expect(set).toMatch(/__Host-sm_side=business\.[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax/);

    // A typed or bookmarked business page stays where it is, and using it switches the side back.
    await b.get('/dashboard/shifter');
    const bookmarked = await b.get('/dashboard/schedule');
    expect(bookmarked.status).toBe(200);
    expect(sideCookie(b)).toBe(`business.${dual.userId}`);
    await b.post('/logout');
    expect((await signInAndLand(b, dual)).path).toBe('/dashboard');

    // The side is this person's: another person with both sides signing in here starts from the business side.
    await b.get('/dashboard/shifter');
    await b.post('/logout');
    const other = await makeUser({ shifter: true, business: true });
    expect((await signInAndLand(b, other)).path).toBe('/dashboard');
  });

  it('a business-only account is never sent to the shifter side; a shifter with a teammate seat starts on the business', async () => {
    const owner = await makeUser({ business: true });
    const b = browser();
    const landed = await signInAndLand(b, owner);
    expect(landed.path).toBe('/dashboard');
    expect(h1(landed.page.html)).toBe('Today');
    expect((await b.get('/dashboard/shifter')).location).toBe('/dashboard');

    // A teammate seat is a business side: such a shifter has both, and lands as a person with both does.
    const mate = await makeUser({ shifter: true });
    await addTeammate(owner.businessId!, mate.userId);
    const m = browser();
    const first = await signInAndLand(m, mate);
    expect(first.path).toBe('/dashboard');
    expect(h1(first.page.html)).toBe('Today');
    expect(first.page.html).toContain('href="/dashboard/shifter">Shifter side</a>');
    await m.get('/dashboard/shifter/find');
    expect((await m.get('/dashboard')).location).toBe('/dashboard/shifter');
  });
});

describe('the Welcome page', () => {
  it('a person without a business creates one from Welcome (name and time zone) and lands on its Today, once', async () => {
    const sh = await makeUser({ shifter: true });
    const b = browser();
    await signInAndLand(b, sh);
    const welcome = await b.get('/dashboard?side=business');
    expect(welcome.status).toBe(200);
    expect(welcome.html).not.toContain('/v1/');
    expect(welcome.html).toContain('<form method="post" action="/dashboard"');
    expect(welcome.html).toContain('name="_idem"');
    // Every IANA zone of the runtime, grouped by region, UTC chosen without a better guess; the island may pick the browser's.
    expect(welcome.html).toContain('<option value="America/New_York">New York</option>');
    expect(welcome.html).toContain('<option value="America/Argentina/La_Rioja">La Rioja (Argentina)</option>');
    expect(welcome.html).toMatch(/<option value="UTC" selected="">/);
    expect(welcome.html).toContain('data-island="time-zone" data-props="{&quot;pick&quot;:true}"');
    expect(welcome.html).toMatch(/<script[^>]+src="\/assets\/time-zone\.[0-9a-f]+\.js"/);
    expect(welcome.html).toContain('href="/dashboard/shifter"');

    // Refused: the words beside the field, what was typed kept (the zone too), nothing created.
    const idem = crypto.randomUUID();
    const refused = await b.post('/dashboard', { start: 'business', name: '  ', timezone: 'Europe/Lisbon', _idem: idem });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.html, 'name')).toBe('Enter the business’s name, up to 120 characters.');
    expect(refused.html).toContain('<option value="Europe/Lisbon" selected="">Lisbon</option>');
    expect(refused.html).toContain('data-props="{&quot;pick&quot;:false}"');
    const badZone = await b.post('/dashboard', { start: 'business', name: 'Corner Cafe', timezone: 'Mars/Olympus', _idem: idem });
    expect(badZone.status).toBe(400);
    expect(errorOf(badZone.html, 'timezone')).toBe('Choose the time zone the business’s shifts are in.');
    expect(badZone.html).toContain('value="Corner Cafe"');
    expect(badZone.html).not.toContain('IANA');
    expect(await db().select().from(businesses).where(eq(businesses.user_id, sh.userId))).toHaveLength(0);

    // Created with the person as owner, in the zone chosen; the same form sent twice creates one business.
    const form = { start: 'business', name: 'Corner Cafe', timezone: 'Europe/Lisbon', _idem: idem };
    const made = await b.post('/dashboard', form);
    expect(made.status).toBe(303);
    const again = await b.post('/dashboard', form);
    expect(again.location).toBe(made.location);
    const rows = await db().select().from(businesses).where(eq(businesses.user_id, sh.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Corner Cafe', timezone: 'Europe/Lisbon', is_default: true });
    expect(made.location).toBe(`/dashboard?business_id=${rows[0]!.id}&notice=business_created`);

    const today = await b.get(made.location!);
    expect(h1(today.html)).toBe('Today');
    expect(today.html).toContain('Corner Cafe · ');
    expect(today.html).toContain('times in Europe/Lisbon');
    expect(today.html).toContain('Your business is ready.');
  });

  it('a person with neither side is offered both: starting the shifter side opens it', async () => {
    const nobody = await makeUser();
    const b = browser();
    const landed = await signInAndLand(b, nobody);
    expect(landed.path).toBe('/dashboard');
    expect(h1(landed.page.html)).toBe('Welcome');
    expect(landed.page.html).toContain('Start working shifts');
    const started = await b.post('/dashboard', { start: 'shifter', _idem: crypto.randomUUID() });
    expect(started.status).toBe(303);
    expect(started.location).toBe('/dashboard/shifter');
    expect(await db().select().from(shifters).where(eq(shifters.user_id, nobody.userId))).toHaveLength(1);
    expect(h1((await b.get('/dashboard/shifter')).html)).toBe('Your shifts');
    // Now a shifter without a business: /dashboard is the shifter side.
    expect((await b.get('/dashboard')).location).toBe('/dashboard/shifter');
  });
});
