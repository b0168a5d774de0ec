// inside: services/accounts
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema';
import { describeUserAgent } from '../../src/services/accounts/devices';
import { BASE, call, expectError } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { authorizePath, MCP_ORIGIN, pkcePair, registerPublicClient } from '../helpers/mcp';
import { WebClient } from '../helpers/web';

/*
 * Pages a person can trust: the sessions list names each device and shows times in the person's own
 * zone (UTC said as UTC when none is known); regenerating the API key asks first and says what stops;
 * the agent consent page never ticks payment for the person; every page has an icon.
 */

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

async function browserSignedIn(user: TestUser, userAgent = LAPTOP): Promise<WebClient> {
  const web = new WebClient(BASE, { 'CF-Connecting-IP': randomIp(), 'User-Agent': userAgent });
  const res = await web.signIn(user.email, TEST_PASSWORD);
  expect(res.status, res.html.slice(0, 200)).toBe(303);
  return web;
}

/** Signs in through the API (a session token), as a program with this User-Agent. */
async function apiLogin(user: TestUser, userAgent: string) {
  const res = await call('POST', '/v1/auth/login', {
    body: { email: user.email, password: TEST_PASSWORD },
    headers: { 'CF-Connecting-IP': randomIp(), 'User-Agent': userAgent },
  });
  expect(res.status).toBe(200);
}

/** The session blocks of the sessions page, each as its text (tags removed). */
function sessionBlocks(html: string): string[] {
  return html
    .split('<li class="session-item">')
    .slice(1)
    .map((b) =>
      b
        .split('</li>')[0]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
}

describe('sessions page: device and local time', () => {
  it('names each session’s device and browser from its User-Agent, this browser marked, API sign-ins included', async () => {
    const user = await makeUser({ shifter: { timezone: 'Europe/Berlin' } });
    const phone = await browserSignedIn(user, PHONE);
    await apiLogin(user, 'curl/8.5.0');
    const laptop = await browserSignedIn(user, LAPTOP);

    const page = await laptop.get('/account/sessions');
    expect(page.status).toBe(200);
    const blocks = sessionBlocks(page.html);
    expect(blocks).toHaveLength(3);
    // Newest first: this laptop, the API sign-in, the phone.
    expect(blocks[0]).toContain('Computer: Firefox 133 on Windows (This browser)');
    expect(blocks[1]).toContain('A program: curl/8.5.0');
    expect(blocks[2]).toContain('iPhone: Safari 17 on iOS');
    expect(page.html.match(/\(This browser\)/g)).toHaveLength(1);
    // The revoke button says which device it ends.
    expect(page.html).toContain('iPhone: Safari 17 on iOS, signed in');
    expect((await phone.get('/account/sessions')).html).toContain('iPhone: Safari 17 on iOS</strong> <strong>(This browser)</strong>');

    // Kept with the session (bounded), and in the API's list too.
    const rows = await db().select({ ua: sessions.user_agent }).from(sessions).where(eq(sessions.user_id, user.userId));
    expect(rows.map((r) => r.ua).sort()).toEqual([LAPTOP, PHONE, 'curl/8.5.0'].sort());
    const api = await call('GET', '/v1/user/sessions', { key: user.key });
    expect(api.status).toBe(200);
    const phoneView = api.body.data.find((s: { user_agent: string }) => s.user_agent === PHONE);
    expect(phoneView.device).toEqual({
      browser: 'Safari 17',
      os: 'iOS',
      type: 'mobile',
      model: 'iPhone',
      label: 'iPhone: Safari 17 on iOS',
    });
  });

  it('shows times in the shifter profile’s zone, else the business’s, and says UTC when the account has none', async () => {
    const berlin = await makeUser({ shifter: { timezone: 'Europe/Berlin' } });
    const page = await (await browserSignedIn(berlin)).get('/account/sessions');
    expect(page.html).toContain('Times are in <strong>Europe/Berlin</strong>, your shifter profile’s time zone.');
    const [row] = await db().select().from(sessions).where(eq(sessions.user_id, berlin.userId));
    const local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(
      row!.created_at,
    );
    // Berlin is UTC+1 or +2: the zone is named by its offset.
    expect(page.html).toMatch(new RegExp(`>${local} GMT\\+[12]</time>`));

    const owner = await makeUser({ business: { timezone: 'America/Los_Angeles' } });
    const ownerPage = await (await browserSignedIn(owner)).get('/account/sessions');
    expect(ownerPage.html).toContain('Times are in <strong>America/Los_Angeles</strong>, your business’s time zone.');
    expect(ownerPage.html).toMatch(/ P[SD]T<\/time>/);

    const nobody = await makeUser();
    const plain = await (await browserSignedIn(nobody)).get('/account/sessions');
    expect(plain.html).toContain('Times are in <strong>UTC</strong>: your account has no time zone yet');
    expect(plain.html).toMatch(/ UTC<\/time>/);
  });

  it('a sign-in without a User-Agent says so; a huge one is cut to 512 characters', async () => {
    const user = await makeUser();
    const bare = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
    expect((await bare.signIn(user.email, TEST_PASSWORD)).status).toBe(303);
    expect(sessionBlocks((await bare.get('/account/sessions')).html)[0]).toContain('Device not recorded');
    const long = `${LAPTOP} ${'x'.repeat(2000)}`;
    await apiLogin(user, long);
    const stored = await db().select({ ua: sessions.user_agent }).from(sessions).where(eq(sessions.user_id, user.userId));
    expect(stored.map((r) => r.ua?.length ?? 0).sort((a, b) => a - b)).toEqual([0, 512]);
    expect(describeUserAgent(long)?.label).toBe('Computer: Firefox 133 on Windows');
  });
});

describe('API key: regenerating asks first', () => {
  it('the key page links to a confirm step that says every program using the key stops working; only its form regenerates', async () => {
    const user = await makeUser();
    const web = await browserSignedIn(user);
    const page = await web.get('/account/api-key');
    expect(page.html).toContain('href="/account/api-key/regenerate"');
    expect(page.html).not.toMatch(/<form method="post" action="\/account\/api-key\/regenerate"/);

    const confirm = await web.get('/account/api-key/regenerate');
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Regenerate your API key?');
    expect(confirm.html).toContain('Every program using your current key stops working at once');
    expect(confirm.html).toContain(`<code>${user.key.slice(0, 12)}…</code>`);
    expect(confirm.html).toContain('name="confirm" value="yes"');
    expect(confirm.html).toContain('href="/account/api-key"'); // cancel
    // Still the same key: looking at the confirm step changes nothing.
    expect((await call('GET', '/v1/user/details', { key: user.key })).status).toBe(200);

    // A post without the confirm step's field is not a regeneration: the step is shown again.
    const unconfirmed = await web.post('/account/api-key/regenerate');
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.html).toContain('Regenerate your API key?');
    expect((await call('GET', '/v1/user/details', { key: user.key })).status).toBe(200);

    const done = await web.post('/account/api-key/regenerate', { confirm: 'yes' });
    expect(done.status).toBe(200);
    const key = /<input id="new-api-key" type="text" value="([^"]+)"/.exec(done.html)?.[1];
    expect(key).toMatch(/^smk_/);
    expectError(await call('GET', '/v1/user/details', { key: user.key }), 401, 'AUTH-REQ-ERR');
  });
});

describe('agent consent: payment is never ticked for the person', () => {
  it('asked for read, write and payment, the page ticks read and write only, and says payment stays off', async () => {
    const user = await makeUser();
    const client = await registerPublicClient();
    const { challenge } = await pkcePair();
    const web = new WebClient(MCP_ORIGIN);
    expect((await web.signIn(user.email, TEST_PASSWORD)).status).toBe(303);
    const page = await web.get(authorizePath(client, challenge, 'st', ['read', 'write', 'payment']));
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/value="read" checked/);
    expect(page.html).toMatch(/value="write" checked/);
    expect(page.html).toContain('name="scope" value="payment"');
    expect(page.html).not.toMatch(/value="payment" checked/);
    expect(page.html).toContain('it stays off unless you tick it');
  });
});

describe('favicon', () => {
  it('every page links an SVG icon the Worker serves (hashed, cached); /favicon.ico answers the same SVG', async () => {
    const page = await new WebClient(BASE).get('/login');
    const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml"/.exec(page.html)?.[1];
    expect(href).toMatch(/^\/assets\/favicon\.[0-9a-f]{8}\.svg$/);
    const icon = await call('GET', href!);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('Content-Type')).toBe('image/svg+xml');
    expect(icon.headers.get('Cache-Control')).toContain('immutable');
    expect(String(icon.body)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const ico = await call('GET', '/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers.get('Content-Type')).toBe('image/svg+xml');
    expect(ico.body).toBe(icon.body);
  });
});
