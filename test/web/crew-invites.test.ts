import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { crewInvites, emailOutbox, requestAuthorizations, shifters, users } from '../../src/db/schema';
import { BASE, call } from '../helpers/api';
import { lastCode, randomIp, uniqueEmail } from '../helpers/auth';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { signedIn } from '../helpers/signed-in';
import { WebClient } from '../helpers/web';

const idem = () => ({ _idem: crypto.randomUUID() });
const visitor = () => new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });

/** The join token in the newest crew invitation emailed to `to`. */
async function mailedToken(to: string): Promise<string> {
  const [mail] = await db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to_address, to), eq(emailOutbox.template, 'crew_invitation')))
    .orderBy(desc(emailOutbox.created_at))
    .limit(1);
  const token = /\/join\/([0-9A-Za-z]{22})\b/.exec(mail?.text_body ?? '')?.[1];
  if (!token) throw new Error(`no crew invitation mailed to ${to}`);
  return token;
}

const tokenOf = (url: string) => url.split('/join/')[1]!;

describe('/dashboard/crew: invitations by email or text, and the join link', () => {
  it('invites an address, lists it masked with its dates, and withdraws it after a confirmation', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const page = await b.get('/dashboard/crew');
    expect(page.html).toContain('Their email address or mobile number');
    expect(page.html).toContain('No invitation is waiting.');
    expect(page.html).toContain('No join link yet.');

    const email = uniqueEmail('kit').toLowerCase();
    const sent = await b.post('/dashboard/crew/invite-address', { ...idem(), address: email, name: 'Kit Kane' });
    expect(sent.status).toBe(303);
    expect(sent.location).toContain('notice=invite_emailed');
    const after = await b.get(sent.location!);
    expect(after.html).toContain('The invitation was emailed.');
    expect(after.html).toContain('Invitations waiting (1)');
    expect(after.html).toContain('Kit Kane');
    expect(after.html).toContain('k•••@example.test');
    expect(after.html).not.toContain(email);
    expect(after.html).toMatch(/Sent \w+ \d+ \w+, the link works until \w+ \d+ \w+</);

    // Refused in words beside the field, what was typed kept: a number without its country code, the same address within the hour.
    const badPhone = await b.post('/dashboard/crew/invite-address', { ...idem(), address: '555 0142', name: 'Lee' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.html).toMatch(/id="field-address-error">Enter a mobile number with its country code/);
    expect(badPhone.html).toContain('value="555 0142"');
    expect(badPhone.html).toContain('value="Lee"');
    const again = await b.post('/dashboard/crew/invite-address', { ...idem(), address: email });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(again.html).toMatch(/id="field-address-error">This address was invited less than an hour ago/);

    const texted = await b.post('/dashboard/crew/invite-address', { ...idem(), address: '+44 20 7946 0958' });
    expect(texted.location).toContain('notice=invite_texted');

    const [row] = await db().select().from(crewInvites).where(eq(crewInvites.address, email));
    const ask = await b.get(`/dashboard/crew/crew-invites/${row!.id}/withdraw`);
    expect(ask.html).toContain('Withdraw the invitation to Kit Kane (k•••@example.test)?');
    expect((await db().select().from(crewInvites).where(eq(crewInvites.id, row!.id)))[0]!.status).toBe('pending');
    const done = await b.post(`/dashboard/crew/crew-invites/${row!.id}/withdraw`, idem());
    expect(done.location).toContain('notice=invite_withdrawn');
    expect((await db().select().from(crewInvites).where(eq(crewInvites.id, row!.id)))[0]!.status).toBe('revoked');

    // Another business's invitation is not found from this crew page.
    const other = await makeUser({ business: true });
    const ob = await signedIn(other);
    expect((await ob.get(`/dashboard/crew/crew-invites/${row!.id}/withdraw`)).status).toBe(404);
  });

  it('makes the join link with its QR code, prints the poster, and replaces it after a confirmation', async () => {
    const owner = await makeUser({ business: { name: 'Quay Cafe' } });
    const b = await signedIn(owner);
    const made = await b.post('/dashboard/crew/join-link', idem());
    expect(made.location).toContain('notice=link_made');
    const page = await b.get(made.location!);
    const url = /id="join-link-url" type="text" value="([^"]+)"/.exec(page.html)?.[1];
    expect(url).toMatch(/\/join\/[0-9A-Za-z]{22}$/);
    expect(page.html).toContain('aria-label="QR code of the crew’s join link"');
    expect(page.html).toContain('Nobody has joined with it yet.');

    const poster = await b.get('/dashboard/crew/join-poster');
    expect(poster.status).toBe(200);
    expect(poster.html).toContain('Join the crew of Quay Cafe');
    expect(poster.html).toContain(`<p class="poster-url">${url}</p>`);
    expect(poster.html).toMatch(/<svg class="qr join-qr join-qr-big"[^>]*><rect[^>]*><\/rect><path d="M[^"]+" fill="#000"/);
    expect(poster.html).toContain('class="poster-toolbar"');

    const ask = await b.get('/dashboard/crew/join-link');
    expect(ask.html).toContain('The current link stops working at once');
    const replaced = await b.post('/dashboard/crew/join-link', idem());
    expect(replaced.location).toContain('notice=link_replaced');
    const now = await b.get(replaced.location!);
    expect(now.html).not.toContain(url);
    const old = await visitor().get(`/join/${tokenOf(url!)}`);
    expect(old.html).toContain('Quay Cafe replaced this join link with a new one.');

    // A teammate sees and may share it too.
    const teammate = await makeUser();
    await addTeammate(owner.businessId!, teammate.userId);
    expect((await (await signedIn(teammate)).get('/dashboard/crew')).html).toContain('Print the poster');
  });

  it('finds shifters by part of their name and leads to the request’s confirmation', async () => {
    const owner = await makeUser({ business: true });
    const t = `Zed${crypto.randomUUID().slice(0, 6)}`;
    const found = await makeUser({ shifter: { display_name: `${t} Marlow`, headline: 'Barista' }, name: `${t} Marlow` });
    const b = await signedIn(owner);
    const res = await b.get(`/dashboard/crew/invite?shifter=${encodeURIComponent(t.toLowerCase())}`);
    expect(res.status).toBe(200);
    expect(res.html).toContain(`Shifters named like “${t.toLowerCase()}”`);
    expect(res.html).toContain(`${t} Marlow`);
    expect(res.html).toContain('Barista');
    const choose = new RegExp(`href="(/dashboard/crew/invite\\?[^"]*shifter=${found.shifterId}[^"]*)"`).exec(res.html)?.[1];
    expect(choose).toBeTruthy();
    const confirm = await b.get(choose!.replaceAll('&amp;', '&'));
    expect(confirm.html).toContain(`Send ${t} Marlow a request`);
    expect(await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.shifter_id, found.shifterId!))).toHaveLength(0);

    const short = await b.get('/dashboard/crew/invite?shifter=q');
    expect(short.status).toBe(400);
    expect(short.html).toMatch(/id="field-shifter-error">Type at least 2 letters of their name\./);
  });
});

describe('/join/{token}', () => {
  it('shows a visitor the business and the way in; a signed-in shifter joins with one button', async () => {
    const owner = await makeUser({ business: { name: 'Harbor Test Bar' } });
    const email = uniqueEmail('guest').toLowerCase();
    await call('POST', '/v1/request_authorization/invite', { key: owner.key, body: { business_id: owner.businessId, email, name: 'Gus' } });
    const token = await mailedToken(email);

    const v = await visitor().get(`/join/${token}`);
    expect(v.status).toBe(200);
    expect(v.html).toContain('Join the crew of Harbor Test Bar');
    expect(v.html).toContain('invites Gus to join their crew');
    expect(v.html).toContain(`href="/signup?invite=${token}"`);
    expect(v.html).toContain(`href="/login?next=%2Fjoin%2F${token}"`);
    expect(v.html).not.toContain(email);

    // The owner is told the link is for others.
    expect((await (await signedIn(owner)).get(`/join/${token}`)).html).toContain('You act for Harbor Test Bar');

    const shifter = await makeUser({ shifter: true });
    const s = await signedIn(shifter);
    const page = await s.get(`/join/${token}`);
    expect(page.html).toContain('Join the crew of Harbor Test Bar</button>');
    const joined = await s.post(`/join/${token}`, idem());
    expect(joined.status).toBe(303);
    expect(joined.location).toBe(`/join/${token}?notice=joined`);
    const landed = await s.get(joined.location!);
    expect(landed.html).toContain('You joined the crew.');
    expect(landed.html).toContain('You are in the crew of Harbor Test Bar.');
    const [c] = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.shifter_id, shifter.shifterId!));
    expect(c).toMatchObject({ business_id: owner.businessId, status: 'accepted' });

    // Used: another person is told so, in words, with what to do.
    const late = await makeUser({ shifter: true });
    const refused = await (await signedIn(late)).get(`/join/${token}`);
    expect(refused.html).toContain('This invitation was used already: each one works once. Ask Harbor Test Bar for a new invitation');
    expect(refused.html).not.toContain(`action="/join/${token}"`);
  });

  it('adds the shifter side for an account without one, and explains an expired invitation and an unknown link', async () => {
    const owner = await makeUser({ business: { name: 'Dock Deli' } });
    const link = (
      await call('POST', '/v1/request_authorization/join_link/rotate', { key: owner.key, body: { business_id: owner.businessId } })
    ).body.link.url as string;
    const plain = await makeUser();
    const p = await signedIn(plain);
    const page = await p.get(`/join/${tokenOf(link)}`);
    expect(page.html).toContain('Work shifts and join Dock Deli');
    const joined = await p.post(`/join/${tokenOf(link)}`, { ...idem(), start: 'shifter' });
    expect(joined.location).toContain('notice=joined');
    const [sh] = await db().select().from(shifters).where(eq(shifters.user_id, plain.userId));
    expect(sh).toBeTruthy();
    const [c] = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.shifter_id, sh!.id));
    expect(c?.status).toBe('accepted');

    const email = uniqueEmail('expired').toLowerCase();
    await call('POST', '/v1/request_authorization/invite', { key: owner.key, body: { business_id: owner.businessId, email } });
    const token = await mailedToken(email);
    await db().update(crewInvites).set({ expires_at: 1_700_000_000_000 }).where(eq(crewInvites.address, email));
    const expired = await visitor().get(`/join/${token}`);
    expect(expired.html).toContain('This invitation expired on 14 November 2023. Ask Dock Deli to send you a new one.');
    expect(expired.html).not.toContain('Create an account and join');

    const unknown = await visitor().get(`/join/${'B'.repeat(22)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('No invitation has this address.');
  });

  it('bounds links that match nothing per client: 429 with Retry-After', async () => {
    const v = visitor();
    for (let i = 0; i < 30; i++) expect((await v.get(`/join/${'C'.repeat(21)}${i % 10}`)).status).toBe(404);
    const refused = await v.get(`/join/${'D'.repeat(22)}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('carries the invitation through sign-up and the emailed code: the new account lands in the crew', async () => {
    const owner = await makeUser({ business: { name: 'Pier Pantry' } });
    const invited = uniqueEmail('newbie').toLowerCase();
    await call('POST', '/v1/request_authorization/invite', { key: owner.key, body: { business_id: owner.businessId, email: invited } });
    const token = await mailedToken(invited);

    const v = visitor();
    const form = await v.get(`/signup?invite=${token}`);
    expect(form.html).toContain('You are joining the crew of Pier Pantry');
    expect(form.html).toContain(`name="invite" value="${token}"`);
    expect(form.html).not.toContain('value="business"');

    // They sign up with another address than the one invited: the link, not the address, carries the invitation.
    const email = uniqueEmail('signup').toLowerCase();
    const password = 'a long enough password 42';
    const registered = await v.post('/signup', { kind: 'shifter', display_name: 'Newbie Nell', email, password, invite: token });
    expect(registered.status, registered.html.slice(0, 400)).toBe(303);
    expect(registered.location).toContain(`invite=${token}`);
    const step = await v.get(registered.location!);
    expect(step.html).toContain(`name="invite" value="${token}"`);
    const verified = await v.post('/signup/verify', { email, code: await lastCode(email), password, as: 'shifter', invite: token });
    expect(verified.status).toBe(303);
    expect(verified.location).toBe(`/join/${token}?notice=joined`);
    expect(v.session).toBeTruthy();
    const landed = await v.get(verified.location!);
    expect(landed.html).toContain('You are in the crew of Pier Pantry.');

    const [u] = await db().select().from(users).where(eq(users.email, email));
    const [sh] = await db().select().from(shifters).where(eq(shifters.user_id, u!.id));
    const [c] = await db()
      .select()
      .from(requestAuthorizations)
      .where(and(eq(requestAuthorizations.business_id, owner.businessId!), eq(requestAuthorizations.shifter_id, sh!.id)));
    expect(c).toMatchObject({ status: 'accepted', initiated_by: 'shifter' });
    expect((await db().select().from(crewInvites).where(eq(crewInvites.address, invited)))[0]!.status).toBe('accepted');

    // The owner's crew page shows them.
    expect((await (await signedIn(owner)).get('/dashboard/crew')).html).toContain('Newbie Nell');
  });
});
