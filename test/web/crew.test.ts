import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requestAuthorizations, teammateInvitations, teammates } from '../../src/db/schema';
import { call } from '../helpers/api';
import { addTeammate, connect, db, makeUser } from '../helpers/factory';
import { PDF_BYTES } from '../helpers/fixtures';
import { DAY, HOUR, insertShift } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

const connection = async (businessId: string, shifterId: string) =>
  (
    await db()
      .select()
      .from(requestAuthorizations)
      .where(and(eq(requestAuthorizations.business_id, businessId), eq(requestAuthorizations.shifter_id, shifterId)))
  )[0];

const idem = () => ({ _idem: crypto.randomUUID() });

describe('/dashboard/crew', () => {
  it('answers requests (decline and remove after a confirmation) and invites by public name, link or id', async () => {
    const owner = await makeUser({ business: true });
    const asking = await makeUser({ shifter: true, name: 'Asking Ann' });
    const second = await makeUser({ shifter: true, name: 'Second Sam' });
    const member = await makeUser({ shifter: true, name: 'Member Mo' });
    const slug = `casey-${crypto.randomUUID().slice(0, 8)}`;
    const invitee = await makeUser({ shifter: { slug }, name: 'Casey Invitee' });
    for (const s of [asking, second]) {
      const sent = await call('POST', '/v1/request_authorization/send', { key: s.key, body: { business_id: owner.businessId } });
      expect(sent.status).toBe(201);
    }
    await connect(owner.businessId!, member.shifterId!);
    const b = await signedIn(owner);

    const page = await b.get('/dashboard/crew');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Asking to join (2)');
    expect(page.html).toContain('Member Mo');

    const ann = await connection(owner.businessId!, asking.shifterId!);
    const accepted = await b.post(`/dashboard/crew/connections/${ann!.id}/accept`, idem());
    expect(accepted.location).toContain('notice=accepted');
    expect((await connection(owner.businessId!, asking.shifterId!))!.status).toBe('accepted');

    const sam = await connection(owner.businessId!, second.shifterId!);
    const ask = await b.get(`/dashboard/crew/connections/${sam!.id}/decline`);
    expect(ask.html).toContain('Decline Second Sam&#39;s request');
    expect((await connection(owner.businessId!, second.shifterId!))!.status).toBe('pending');
    await b.post(`/dashboard/crew/connections/${sam!.id}/decline`, idem());
    expect((await connection(owner.businessId!, second.shifterId!))!.status).toBe('declined');

    const mo = await connection(owner.businessId!, member.shifterId!);
    expect((await b.get(`/dashboard/crew/connections/${mo!.id}/remove`)).html).toContain('Remove Member Mo from the crew');
    await b.post(`/dashboard/crew/connections/${mo!.id}/remove`, idem());
    expect((await connection(owner.businessId!, member.shifterId!))!.status).toBe('removed');

    // By a profile link: who it is first, then the request.
    const lookup = await b.get(`/dashboard/crew/invite?shifter=${encodeURIComponent(`https://app.example.com/s/${slug}/`)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.html).toContain('Send Casey Invitee a request');
    expect(await connection(owner.businessId!, invitee.shifterId!)).toBeUndefined();
    const sent = await b.post('/dashboard/crew/invite', { ...idem(), shifter_id: invitee.shifterId!, shifter: slug });
    expect(sent.location).toContain('notice=invited');
    expect(await connection(owner.businessId!, invitee.shifterId!)).toMatchObject({ status: 'pending', initiated_by: 'business' });

    // By id, someone already connected: the service's refusal beside the field, what was typed kept.
    expect((await b.get(`/dashboard/crew/invite?shifter=${asking.shifterId}`)).html).toContain('Send Asking Ann a request');
    const again = await b.post('/dashboard/crew/invite', { ...idem(), shifter_id: asking.shifterId!, shifter: asking.shifterId! });
    expect(again.status).toBe(409);
    expect(again.html).toMatch(/id="field-shifter-error">These parties are already connected\./);
    expect(again.html).toContain(`value="${asking.shifterId}"`);

    const unknown = await b.get('/dashboard/crew/invite?shifter=nobody-by-this-name');
    expect(unknown.status).toBe(404);
    expect(unknown.html).toMatch(/id="field-shifter-error">No shifter has this public name or id/);
    expect(unknown.html).toContain('value="nobody-by-this-name"');
  });

  it('shows pay in the analytics to the owner only, and each shifter’s public details and shared credentials', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({});
    await addTeammate(owner.businessId!, mate.userId);
    const crew = await makeUser({ shifter: { headline: 'Line cook, six years' }, name: 'Crew Cara' });
    await connect(owner.businessId!, crew.shifterId!);
    const started = Date.now() - 3 * DAY;
    await insertShift({
      businessId: owner.businessId!,
      shifterId: crew.shifterId!,
      startsAt: started,
      minutes: 240,
      rateMinor: 2150,
      set: { shift_start_at: started, shift_end_at: started + 4 * HOUR },
    });
    const records = `/v1/shifter/${crew.shifterId}/credentials`;
    const shown = await call('POST', records, { key: crew.key, body: { label: 'Food handler card', issuer: 'NYC DOHMH' } });
    const hidden = await call('POST', records, { key: crew.key, body: { label: 'Medical note', is_visible: false } });
    const form = new FormData();
    form.append('file', new File([PDF_BYTES], 'card.pdf', { type: 'application/pdf' }));
    expect((await call('POST', `${records}/${shown.body.id}/document`, { key: crew.key, body: form })).status).toBe(201);

    const o = await signedIn(owner);
    const crewPage = await o.get('/dashboard/crew');
    expect(crewPage.html).toContain('<th scope="col">Paid</th>');
    expect(crewPage.html).toContain('$86.00');
    const m = await signedIn(mate);
    const mates = await m.get(`/dashboard/crew?business_id=${owner.businessId}`);
    expect(mates.status).toBe(200);
    expect(mates.html).toContain('Crew Cara');
    expect(mates.html).not.toContain('<th scope="col">Paid</th>');
    expect(mates.html).not.toContain('$86.00');
    expect(mates.html).toContain('Pay figures are shown to the business owner.');

    const details = await o.get(`/dashboard/crew/shifters/${crew.shifterId}`);
    expect(details.status).toBe(200);
    expect(details.html).toContain('Line cook, six years');
    expect(details.html).toContain('Food handler card');
    expect(details.html).not.toContain('Medical note');
    expect(details.html).toContain('$86.00');
    expect((await m.get(`/dashboard/crew/shifters/${crew.shifterId}?business_id=${owner.businessId}`)).html).not.toContain('$86.00');

    const doc = await o.get(`/dashboard/crew/shifters/${crew.shifterId}/credentials/${shown.body.id}/document`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('Content-Disposition')).toMatch(/^attachment;/);
    expect(doc.headers.get('Content-Security-Policy')).toContain('sandbox');
    expect((await o.get(`/dashboard/crew/shifters/${crew.shifterId}/credentials/${hidden.body.id}/document`)).status).toBe(404);
    // A shifter with no tie to the business is not shown through it.
    const stranger = await makeUser({ shifter: true });
    expect((await o.get(`/dashboard/crew/shifters/${stranger.shifterId}`)).status).toBe(404);
  });

  it('lets the owner invite, suspend and reactivate teammates after confirming; a teammate changes nothing', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ name: 'Mate Mia' });
    await addTeammate(owner.businessId!, mate.userId);
    const o = await signedIn(owner);
    await o.get('/dashboard/crew');

    const bad = await o.post('/dashboard/crew/teammates/invite', { ...idem(), email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(/id="field-email-error">Enter an email address/);
    expect(bad.html).toContain('value="not-an-email"');

    const email = `new-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const confirm = await o.post('/dashboard/crew/teammates/invite', { ...idem(), email });
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain(`Invite ${email} to the team`);
    const invitations = () => db().select().from(teammateInvitations).where(eq(teammateInvitations.business_id, owner.businessId!));
    expect(await invitations()).toHaveLength(0);
    const invited = await o.post('/dashboard/crew/teammates/invite', { ...idem(), email, confirm: '1' });
    expect(invited.location).toContain('notice=team_invited');
    expect(await invitations()).toHaveLength(1);
    expect((await o.get('/dashboard/crew')).html).toContain(email);

    const own = await o.post('/dashboard/crew/teammates/invite', { ...idem(), email: owner.email, confirm: '1' });
    expect(own.status).toBe(409);
    expect(own.html).toMatch(/id="field-email-error">The owner is not a teammate/);

    expect((await o.get(`/dashboard/crew/teammates/${mate.userId}/suspend`)).html).toContain('Suspend Mate Mia');
    await o.post(`/dashboard/crew/teammates/${mate.userId}/status`, { ...idem(), status: '0' });
    const status = async () =>
      (
        await db()
          .select()
          .from(teammates)
          .where(and(eq(teammates.business_id, owner.businessId!), eq(teammates.user_id, mate.userId)))
      )[0]!.status;
    expect(await status()).toBe(0);
    expect((await o.get('/dashboard/crew')).html).toContain('Suspended');
    await o.post(`/dashboard/crew/teammates/${mate.userId}/status`, { ...idem(), status: '1' });
    expect(await status()).toBe(1);

    // The teammate sees the team but no form to change it, and a forged change is refused by the service.
    const m = await signedIn(mate);
    const theirs = await m.get(`/dashboard/crew?business_id=${owner.businessId}`);
    expect(theirs.html).toContain('Only the owner invites, suspends or reactivates teammates.');
    expect(theirs.html).not.toContain('id="invite-teammate"');
    const forged = await m.post(`/dashboard/crew/teammates/${mate.userId}/status?business_id=${owner.businessId}`, {
      ...idem(),
      status: '0',
    });
    expect(forged.status).toBe(403);
    expect(await status()).toBe(1);
    const sneaky = await m.post(`/dashboard/crew/teammates/invite?business_id=${owner.businessId}`, {
      ...idem(),
      email: 'x@example.test',
      confirm: '1',
    });
    expect(sneaky.status).toBe(403);
    expect(await invitations()).toHaveLength(1);
    const [inv] = await invitations();
    expect((await m.get(`/dashboard/crew/invitations/${inv!.id}/revoke?business_id=${owner.businessId}`)).status).toBe(403);
    expect((await m.post(`/dashboard/crew/invitations/${inv!.id}/revoke?business_id=${owner.businessId}`, idem())).status).toBe(403);

    // The owner withdraws it after confirming.
    expect((await o.get(`/dashboard/crew/invitations/${inv!.id}/revoke`)).html).toContain(`Withdraw the invitation to ${email}`);
    await o.post(`/dashboard/crew/invitations/${inv!.id}/revoke`, idem());
    expect((await invitations())[0]!.status).toBe('revoked');
  });
});
