import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outboxEvents, requestAuthorizations } from '../../src/db/schema';
import { call } from '../helpers/api';
import { db, makeUser, type TestUser } from '../helpers/factory';
import { deliver, message } from '../helpers/queues';
import { signedIn } from '../helpers/signed-in';

const PAGE = '/dashboard/shifter/connections';
const idem = () => ({ _idem: crypto.randomUUID() });
// Storage is shared inside this file: every test names its businesses with a token of its own.
const token = () => `Z${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`;

async function businessNamed(name: string, place: { city_id?: number; state_id?: number; country_id?: number; timezone?: string } = {}) {
  return makeUser({ business: { name, ...place } });
}

/** The business invites the shifter through the API, as its crew page does; the connection's id. */
async function invite(biz: TestUser, sh: TestUser): Promise<string> {
  const sent = await call('POST', '/v1/request_authorization/send', {
    key: biz.key,
    body: { business_id: biz.businessId, shifter_id: sh.shifterId },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body.id as string;
}

const statusOf = async (id: string) =>
  (await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.id, id)).limit(1))[0]?.status;

/** The part of the page from the heading with `id` to the next section. */
function section(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start, `the page has a section #${id}`).toBeGreaterThan(-1);
  const end = html.indexOf('<section', start);
  return html.slice(start, end === -1 ? undefined : end);
}

describe('/dashboard/shifter/connections: invitations', () => {
  it('accepts an invitation from the page: the business moves to My businesses with its public profile', async () => {
    const t = token();
    const biz = await businessNamed(`${t} Harbor Street Events`);
    const sh = await makeUser({ shifter: true });
    const id = await invite(biz, sh);
    const b = await signedIn(sh);

    const page = await b.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Businesses</h1>');
    expect(page.html).toMatch(/href="\/dashboard\/shifter\/connections"[^>]*aria-current="page"[^>]*>Businesses</);
    const invitations = section(page.html, 'invitations');
    expect(invitations).toContain('Invitations (1)');
    expect(invitations).toContain(`${t} Harbor Street Events`);
    expect(invitations).toContain('Wants to add you to their crew');
    expect(invitations).toContain(`action="${PAGE}/${id}/accept"`);
    expect(invitations).toContain(`href="${PAGE}/${id}/decline"`);
    expect(section(page.html, 'crews')).toContain('You are not in a crew yet');

    const accepted = await b.post(`${PAGE}/${id}/accept`, idem());
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe(`${PAGE}?notice=accepted`);
    expect(await statusOf(id)).toBe('accepted');

    const after = await b.get(accepted.location!);
    expect(after.html).toContain('You are in their crew now');
    expect(section(after.html, 'invitations')).toContain('No invitation waiting');
    const crews = section(after.html, 'crews');
    const [row] = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.id, id));
    expect(crews).toMatch(new RegExp(`href="/b/[a-z0-9-]+">${t} Harbor Street Events</a>`));
    expect(crews).toContain(`href="${PAGE}/${row!.id}/remove"`);
    expect(crews).toContain(`/dashboard/shifter/find?business=${biz.businessId}`);

    // Remove, behind its confirmation.
    const confirm = await b.get(`${PAGE}/${id}/remove`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Leave this crew?');
    expect(confirm.html).toContain(`action="${PAGE}/${id}/remove"`);
    expect(await statusOf(id)).toBe('accepted');
    const removed = await b.post(`${PAGE}/${id}/remove`, idem());
    expect(removed.location).toBe(`${PAGE}?notice=removed`);
    expect(await statusOf(id)).toBe('removed');
  });

  it('declines an invitation after one confirmation page', async () => {
    const t = token();
    const biz = await businessNamed(`${t} Pier Cafe`);
    const sh = await makeUser({ shifter: true });
    const id = await invite(biz, sh);
    const b = await signedIn(sh);

    const confirm = await b.get(`${PAGE}/${id}/decline`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Decline this invitation?');
    expect(confirm.html).toContain(`${t} Pier Cafe`);
    expect(confirm.html).toContain(`action="${PAGE}/${id}/decline"`);
    expect(confirm.html).toContain('Keep it');
    expect(await statusOf(id)).toBe('pending');

    const declined = await b.post(`${PAGE}/${id}/decline`, idem());
    expect(declined.status).toBe(303);
    expect(declined.location).toBe(`${PAGE}?notice=declined`);
    expect(await statusOf(id)).toBe('declined');
    const after = await b.get(declined.location!);
    expect(after.html).toContain('Invitation declined.');
    expect(after.html).not.toContain(`${PAGE}/${id}/accept`);
  });

  it('shows the service’s words beside an invitation it refuses to accept', async () => {
    const t = token();
    const biz = await businessNamed(`${t} Dock Bar`);
    const sh = await makeUser({ shifter: true });
    const id = await invite(biz, sh);
    const b = await signedIn(sh);
    await b.get(PAGE);
    // The business withdraws it while the shifter's page is open.
    expect((await call('DELETE', `/v1/request_authorization/${id}`, { key: biz.key })).status).toBe(200);

    const refused = await b.post(`${PAGE}/${id}/accept`, idem());
    expect(refused.status).toBe(409);
    const card = section(refused.html, `invitation-${id}`);
    expect(card).toContain(`${t} Dock Bar`);
    expect(card).toMatch(/role="alert">Only a pending request can be accepted; this one is removed\.</);
    expect(await statusOf(id)).toBe('removed');
  });

  it("refuses to answer another shifter's invitation, and a business's own incoming request", async () => {
    const biz = await businessNamed(`${token()} Quay Kitchen`);
    const sh = await makeUser({ shifter: true });
    const id = await invite(biz, sh);
    const intruder = await makeUser({ shifter: true });
    const b = await signedIn(intruder);
    await b.get(PAGE);
    for (const what of ['accept', 'decline']) {
      const r = await b.post(`${PAGE}/${id}/${what}`, idem());
      expect(r.status).toBe(404);
      expect(r.html).toContain('not yours, or it no longer exists');
    }
    expect((await b.get(`${PAGE}/${id}/decline`)).status).toBe(404);
    expect((await b.post(`${PAGE}/${id}/remove`, idem())).status).toBe(404);
    expect(await statusOf(id)).toBe('pending');

    // A dual-profile owner: a shifter's request to their business is the crew page's, not this page's.
    const dual = await makeUser({ shifter: true, business: true });
    const asker = await makeUser({ shifter: true });
    const sent = await call('POST', '/v1/request_authorization/send', { key: asker.key, body: { business_id: dual.businessId } });
    const d = await signedIn(dual);
    await d.get(PAGE);
    expect((await d.post(`${PAGE}/${sent.body.id}/accept`, idem())).status).toBe(404);
    expect(await statusOf(sent.body.id)).toBe('pending');
  });
});

describe('/dashboard/shifter/connections: find businesses', () => {
  it('finds by name and by city, keeps what was typed, and says a short query beside its field', async () => {
    const t = token();
    const ny = await businessNamed(`${t} Harbor Grill`);
    const london = await businessNamed(`${t} Camden Lock Coffee`, { city_id: 10, state_id: 8, country_id: 3, timezone: 'Europe/London' });
    const sh = await makeUser({ shifter: true });
    const b = await signedIn(sh);

    const before = await b.get(PAGE);
    expect(section(before.html, 'find')).toContain('Type at least 2 letters of a name or a city, then Search.');

    const byName = section((await b.get(`${PAGE}?name=${t}+harbor&city=`)).html, 'find');
    expect(byName).toContain(`${t} Harbor Grill`);
    expect(byName).not.toContain(`${t} Camden Lock Coffee`);
    expect(byName).toContain(`value="${t} harbor"`);
    expect(byName).toContain(`name="business" value="${ny.businessId}"`);
    expect(byName).toContain('New York · on Shiftmarket since');
    expect(byName).toContain('No reviews yet');

    const byCity = section((await b.get(`${PAGE}?name=${t}&city=london`)).html, 'find');
    expect(byCity).toContain(`${t} Camden Lock Coffee`);
    expect(byCity).toContain(`name="business" value="${london.businessId}"`);
    expect(byCity).not.toContain(`${t} Harbor Grill`);

    const none = section((await b.get(`${PAGE}?name=${t}+nowhere`)).html, 'find');
    expect(none).toContain('No business matches this search.');

    const short = await b.get(`${PAGE}?name=h&city=`);
    expect(short.status).toBe(200);
    const form = section(short.html, 'find');
    expect(form).toMatch(/value="h"[^>]*aria-describedby="field-name-error"[^>]*aria-invalid="true"/);
    expect(form).toContain('id="field-name-error">Type at least 2 letters.</p>');
  });

  it('asks to connect: the request shows under Requests you sent and the result says so; withdraw it', async () => {
    const t = token();
    const biz = await businessNamed(`${t} Lantern Hall`);
    const sh = await makeUser({ shifter: true });
    const b = await signedIn(sh);
    await b.get(`${PAGE}?name=${t}`);

    const asked = await b.post(`${PAGE}/ask`, { ...idem(), business: biz.businessId!, name: t, city: '' });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(`${PAGE}?name=${t}&city=&notice=asked`);
    const [row] = await db()
      .select()
      .from(requestAuthorizations)
      .where(and(eq(requestAuthorizations.business_id, biz.businessId!), eq(requestAuthorizations.shifter_id, sh.shifterId!)));
    expect(row).toMatchObject({ status: 'pending', initiated_by: 'shifter' });

    const after = await b.get(asked.location!);
    expect(after.html).toContain('Request sent: you join their crew once they accept.');
    const sent = section(after.html, 'sent');
    expect(sent).toContain(`${t} Lantern Hall`);
    expect(sent).toContain(`href="${PAGE}/${row!.id}/remove"`);
    const found = section(after.html, 'find');
    expect(found).toContain('Request sent');
    expect(found).not.toContain(`name="business" value="${biz.businessId}"`);

    // Asking again (an old form) is refused in the service's words beside that business.
    const again = await b.post(`${PAGE}/ask`, { ...idem(), business: biz.businessId!, name: t, city: '' });
    expect(again.status).toBe(409);
    expect(section(again.html, `business-${biz.businessId}`)).toContain('A connection request from this side is already pending.');

    const confirm = await b.get(`${PAGE}/${row!.id}/remove`);
    expect(confirm.html).toContain('Withdraw your request?');
    const withdrawn = await b.post(`${PAGE}/${row!.id}/remove`, idem());
    expect(withdrawn.location).toBe(`${PAGE}?notice=withdrawn`);
    expect(await statusOf(row!.id)).toBe('removed');
  });
});

describe('linked from where the shifter looks', () => {
  it('the invitation notification carries the link to the page, and the page opens from it', async () => {
    const t = token();
    const biz = await businessNamed(`${t} Harbor Street Events`);
    const sh = await makeUser({ shifter: true });
    const id = await invite(biz, sh);
    const [row] = await db()
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.topic, 'notifications'), like(outboxEvents.body, `%connection_request%${id}%`)));
    const note = JSON.parse(row!.body) as { user_ids: string[]; title: string; body: string; data: { url: string } };
    expect(note.user_ids).toEqual([sh.userId]);
    expect(note.title).toBe(`${t} Harbor Street Events wants to add you to their crew`);
    expect(new URL(note.data.url).pathname).toBe(PAGE);
    expect(note.body).toBe(`Accept or decline it in your connections: ${note.data.url}`);

    // Delivered, the notification shows the address, which opens the page with the invitation.
    await deliver('shiftmarket-notifications', [message(JSON.parse(row!.body))]);
    const b = await signedIn(sh);
    const list = await b.get('/notifications');
    expect(list.html).toContain(note.data.url);
    const opened = await b.get(new URL(note.data.url).pathname);
    expect(opened.status).toBe(200);
    expect(section(opened.html, 'invitations')).toContain(`${PAGE}/${id}/accept`);
  });

  it('the home of someone in no crew says how to join one, and counts the invitations waiting', async () => {
    const sh = await makeUser({ shifter: true });
    const b = await signedIn(sh);
    const alone = await b.get('/dashboard/shifter');
    expect(alone.html).toContain('You are not in a crew yet');
    expect(alone.html).toContain(`href="${PAGE}#find"`);
    expect(alone.html).toContain(`href="${PAGE}#invitations">See invitations`);
    expect(alone.html).toContain('Open shifts show here once you are in a crew.');
    // Find shifts, empty for someone in no crew, leads to the same page.
    const find = await b.get('/dashboard/shifter/find');
    expect(find.html).toContain('You are not in a crew yet');
    expect(find.html).toContain(`href="${PAGE}">Find a business and see invitations`);

    await invite(await businessNamed(`${token()} One`), sh);
    await invite(await businessNamed(`${token()} Two`), sh);
    const invited = await b.get('/dashboard/shifter');
    expect(invited.html).toContain('2 invitations from businesses are waiting for your answer.');
    expect(invited.html).toContain(`href="${PAGE}#invitations">See the 2 invitations`);

    // In a crew: no more "not in a crew", but the invitation still waiting is counted.
    const page = await b.get(PAGE);
    const first = /action="\/dashboard\/shifter\/connections\/([^/"]+)\/accept"/.exec(page.html)![1]!;
    await b.post(`${PAGE}/${first}/accept`, idem());
    const inCrew = await b.get('/dashboard/shifter');
    expect(inCrew.html).not.toContain('You are not in a crew yet');
    expect(inCrew.html).toContain('A business invited you to its crew: 1 invitation is waiting for your answer.');
    expect(inCrew.html).toContain(`href="${PAGE}#invitations">See the invitation`);
  });
});
