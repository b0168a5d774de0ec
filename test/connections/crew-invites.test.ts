// inside: services/connections
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { crewInvites, emailOutbox, outboxEvents, requestAuthorizations, smsOutbox, users } from '../../src/db/schema';
import { CREW_INVITE_BOUNDS, CREW_INVITE_TTL_MS, inviteToCrew, joinCrew, previewCrewInvitation } from '../../src/services/connections';
import { addressKey } from '../../src/services/connections/invite-tokens';
import { call, expectError } from '../helpers/api';
import { uniqueEmail } from '../helpers/auth';
import { contextAt } from '../helpers/clock';
import { addTeammate, connect, db, makeUser } from '../helpers/factory';
import { deliver, message } from '../helpers/queues';
import { itRejectsBadCredentials } from '../helpers/security';

const invite = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('POST', '/v1/request_authorization/invite', { key, body, headers });
const join = (key: string, token: string) => call('POST', '/v1/request_authorization/join', { key, body: { token } });
const invites = (key: string, businessId: string) =>
  call('GET', '/v1/request_authorization/invites', { key, query: { business_id: businessId } });
const rotate = (key: string, businessId: string) =>
  call('POST', '/v1/request_authorization/join_link/rotate', { key, body: { business_id: businessId } });

/** The token of the join link in the newest crew invitation emailed to `to`. */
async function mailedToken(to: string): Promise<string> {
  const rows = await db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to_address, to), eq(emailOutbox.template, 'crew_invitation')));
  const token = /\/join\/([0-9A-Za-z]{22})\b/.exec(rows.at(-1)?.text_body ?? '')?.[1];
  if (!token) throw new Error(`no crew invitation mailed to ${to}`);
  return token;
}

const pair = async (businessId: string, shifterId: string) =>
  (
    await db()
      .select()
      .from(requestAuthorizations)
      .where(and(eq(requestAuthorizations.business_id, businessId), eq(requestAuthorizations.shifter_id, shifterId)))
  )[0];

/** Forgets one business's hour-long bound on an address, as an hour passing would. */
async function anHourLater(businessId: string, address: string) {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`crew-invite-address:${businessId}:${await addressKey(address)}`));
  await runInDurableObject(stub, async (_o, state) => {
    await state.storage.deleteAll();
  });
}

describe('crew invitation routes reject bad credentials', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/request_authorization/invite', body: { business_id: 'biz_x', email: 'a@b.test' } });
  itRejectsBadCredentials({ method: 'GET', path: '/v1/request_authorization/invites?business_id=biz_x' });
  itRejectsBadCredentials({ method: 'DELETE', path: '/v1/request_authorization/invites/cin_x' });
  itRejectsBadCredentials({ method: 'GET', path: '/v1/request_authorization/join_link?business_id=biz_x' });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/request_authorization/join_link/rotate', body: { business_id: 'biz_x' } });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/request_authorization/join', body: { token: 'x' } });
});

describe('inviting by email or phone', () => {
  it('sends a shifter with that verified email the ordinary connection request, and mails nobody', async () => {
    const owner = await makeUser({ business: true });
    const sam = await makeUser({ shifter: true, name: 'Sam Verified' });
    const res = await invite(owner.key, { business_id: owner.businessId, email: sam.email.toUpperCase() });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({
      sent_as: 'connection_request',
      invite: null,
      connection: { status: 'pending', initiated_by: 'business' },
    });
    expect(await pair(owner.businessId!, sam.shifterId!)).toMatchObject({ status: 'pending', initiated_by: 'business' });
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, sam.email))).toHaveLength(0);
    expect(await db().select().from(crewInvites).where(eq(crewInvites.business_id, owner.businessId!))).toHaveLength(0);
    // Spec 2.2 unchanged: inviting them again is the pending request's refusal.
    await anHourLater(owner.businessId!, sam.email);
    expectError(await invite(owner.key, { business_id: owner.businessId, email: sam.email }), 409, 'CONNECTION-EXISTS-ERR');

    // An account whose email is not verified is not matched: it gets an invitation by email.
    const unverified = await makeUser({ shifter: true, verified: false });
    const other = await invite(owner.key, { business_id: owner.businessId, email: unverified.email });
    expect(other.body.sent_as).toBe('invitation');
    expect(await pair(owner.businessId!, unverified.shifterId!)).toBeUndefined();
  });

  it('mails a new address a single-use link that joins the crew, keeping only a hash of its token', async () => {
    const owner = await makeUser({ business: true, name: 'Olga Owner' });
    const email = uniqueEmail('Newcomer');
    const res = await invite(owner.key, { business_id: owner.businessId, email, name: '  Nia New ' });
    expect(res.status).toBe(202);
    expect(res.body.sent_as).toBe('invitation');
    const inv = res.body.invite;
    expect(inv).toMatchObject({ channel: 'email', name: 'Nia New', status: 'pending', address: `n•••@example.test` });
    expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(CREW_INVITE_TTL_MS);
    expect(JSON.stringify(res.body)).not.toContain(email.toLowerCase());

    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email.toLowerCase()));
    expect(mail).toMatchObject({ template: 'crew_invitation', sensitive: true, status: 'queued' });
    expect(mail!.subject).toContain('Olga Owner Co invites you to join their crew');
    expect(mail!.text_body).toContain('Hello Nia New');
    const token = await mailedToken(email.toLowerCase());
    const [row] = await db().select().from(crewInvites).where(eq(crewInvites.id, inv.id));
    expect(row!.address).toBe(email.toLowerCase());
    expect(JSON.stringify(row)).not.toContain(token);

    const listed = await invites(owner.key, owner.businessId!);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([inv.id]);
    expect(JSON.stringify(listed.body)).not.toContain(email.toLowerCase());

    // Whoever opens it sees the business, never the address.
    const visitor = contextAt(Date.now(), { userId: 'usr_visitor', keyId: 'key_visitor' });
    const preview = await previewCrewInvitation({ ...visitor, actor: { kind: 'anonymous' } }, token, 'test-client');
    expect(preview).toMatchObject({ kind: 'invite', state: 'open', name: 'Nia New', viewer: null, business: { name: 'Olga Owner Co' } });
    expect(JSON.stringify(preview)).not.toContain(email.toLowerCase());

    const newcomer = await makeUser({ shifter: true, name: 'Nia New' });
    const joined = await join(newcomer.key, token);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body).toMatchObject({ already_connected: false, connection: { status: 'accepted', initiated_by: 'shifter' } });
    expect(await pair(owner.businessId!, newcomer.shifterId!)).toMatchObject({ status: 'accepted' });
    const [used] = await db().select().from(crewInvites).where(eq(crewInvites.id, inv.id));
    expect(used).toMatchObject({ status: 'accepted', accepted_shifter_id: newcomer.shifterId });
    // The business hears of it.
    const notes = await db()
      .select()
      .from(outboxEvents)
      .where(and(like(outboxEvents.body, '%connection_accepted%'), like(outboxEvents.body, `%${owner.userId}%`)));
    expect(notes.map((n) => JSON.parse(n.body).title)).toContain('Nia New joined your crew');

    // Single use: a second person is refused in words, and so is a second go.
    const second = await makeUser({ shifter: true });
    const again = expectError(await join(second.key, token), 409, 'CREW-INVITE-CLOSED-ERR');
    expect(again.details).toEqual({ state: 'used' });
    expect(again.message).toMatch(/used already: each one works once/);
    expect(await pair(owner.businessId!, second.shifterId!)).toBeUndefined();
    expect((await invites(owner.key, owner.businessId!)).body.data).toEqual([]);
  });

  it('texts a phone number through the outbox, and never matches a phone to an account', async () => {
    const owner = await makeUser({ business: true });
    const holder = await makeUser({ shifter: true });
    await db().update(users).set({ phone: '+1 212 555 0142' }).where(eq(users.id, holder.userId));
    const res = await invite(owner.key, { business_id: owner.businessId, phone: '+1 (212) 555-0142' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ sent_as: 'invitation', invite: { channel: 'sms', address: '•••• 42' } });
    expect(await pair(owner.businessId!, holder.shifterId!)).toBeUndefined();

    const [text] = await db().select().from(smsOutbox).where(eq(smsOutbox.to_number, '+12125550142'));
    expect(text).toMatchObject({ status: 'queued', template: 'crew_invitation', sensitive: true });
    expect(text!.text_body).toMatch(/\/join\/[0-9A-Za-z]{22}/);
    const [event] = await db()
      .select()
      .from(outboxEvents)
      .where(like(outboxEvents.body, `%${text!.id}%`));
    expect(JSON.parse(event!.body)).toEqual({ type: 'sms.send', outbox_id: text!.id });

    // The notifications queue sends it once through the local stand-in; a redelivery sends nothing.
    const first = await deliver('shiftmarket-notifications', [message({ type: 'sms.send', outbox_id: text!.id })]);
    expect(first.explicitAcks).toHaveLength(1);
    const [sent] = await db().select().from(smsOutbox).where(eq(smsOutbox.id, text!.id));
    expect(sent).toMatchObject({ status: 'sent', provider: 'local', attempts: 1 });
    await deliver('shiftmarket-notifications', [message({ type: 'sms.send', outbox_id: text!.id })]);
    expect((await db().select().from(smsOutbox).where(eq(smsOutbox.id, text!.id)))[0]!.attempts).toBe(1);

    // A number without its country code is refused beside the field.
    const bad = expectError(await invite(owner.key, { business_id: owner.businessId, phone: '555 0142' }), 400, 'VALIDATION-ERR');
    expect(bad.details).toEqual([{ field: 'phone', message: 'Enter a mobile number with its country code, like +1 212 555 0100.' }]);
    expectError(await invite(owner.key, { business_id: owner.businessId }), 400, 'VALIDATION-ERR');
    expectError(
      await invite(owner.key, { business_id: owner.businessId, email: 'a@b.test', phone: '+12125550100' }),
      400,
      'VALIDATION-ERR',
    );
  });

  it('answers a retried invitation from the first one: one row, one email', async () => {
    const owner = await makeUser({ business: true });
    const email = uniqueEmail('retry').toLowerCase();
    const key = `idem-${crypto.randomUUID()}`;
    const a = await invite(owner.key, { business_id: owner.businessId, email }, { 'Idempotency-Key': key });
    const b = await invite(owner.key, { business_id: owner.businessId, email }, { 'Idempotency-Key': key });
    expect(b.status).toBe(202);
    expect(b.body.invite.id).toBe(a.body.invite.id);
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email))).toHaveLength(1);
  });

  it('sending to an address again retires the link sent before', async () => {
    const owner = await makeUser({ business: true });
    const email = uniqueEmail('twice').toLowerCase();
    await invite(owner.key, { business_id: owner.businessId, email });
    const oldToken = await mailedToken(email);
    await anHourLater(owner.businessId!, email);
    const again = await invite(owner.key, { business_id: owner.businessId, email });
    expect(again.status).toBe(202);
    const newToken = await mailedToken(email);
    expect(newToken).not.toBe(oldToken);
    const shifter = await makeUser({ shifter: true });
    expect(expectError(await join(shifter.key, oldToken), 409, 'CREW-INVITE-CLOSED-ERR').details).toEqual({ state: 'replaced' });
    expect((await join(shifter.key, newToken)).status).toBe(200);
  });
});

describe('bounds on invitations (429 with Retry-After)', () => {
  it('refuses the same address from the same business within the hour', async () => {
    const owner = await makeUser({ business: true });
    const email = uniqueEmail('hourly');
    expect((await invite(owner.key, { business_id: owner.businessId, email })).status).toBe(202);
    const again = await invite(owner.key, { business_id: owner.businessId, email: email.toUpperCase() });
    expectError(again, 429, 'RATE-LIMIT-ERR');
    expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Another business may still invite them.
    const other = await makeUser({ business: true });
    expect((await invite(other.key, { business_id: other.businessId, email })).status).toBe(202);
  });

  it(`refuses a business's invitation beyond ${CREW_INVITE_BOUNDS.perBusiness.limit} a day, and an address beyond ${CREW_INVITE_BOUNDS.perAddressEverywhere.limit} a day from all businesses`, async () => {
    const owner = await makeUser({ business: true });
    const ctx = contextAt(Date.now(), owner);
    for (let i = 0; i < CREW_INVITE_BOUNDS.perBusiness.limit; i++) {
      await inviteToCrew(ctx, { business_id: owner.businessId!, email: uniqueEmail(`day-${i}`), phone: null, name: null });
    }
    const over = await invite(owner.key, { business_id: owner.businessId, email: uniqueEmail('one-more') });
    expect(expectError(over, 429, 'RATE-LIMIT-ERR').message).toMatch(/at most 50 invitations a day/);
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThan(0);

    const email = uniqueEmail('popular');
    for (let i = 0; i < CREW_INVITE_BOUNDS.perAddressEverywhere.limit; i++) {
      const b = await makeUser({ business: true });
      expect((await invite(b.key, { business_id: b.businessId, email })).status).toBe(202);
    }
    const late = await makeUser({ business: true });
    const refused = await invite(late.key, { business_id: late.businessId, email });
    expect(expectError(refused, 429, 'RATE-LIMIT-ERR').message).toMatch(/enough invitations today/);
    expect(refused.headers.get('Retry-After')).toBeTruthy();
  });
});

describe('who may see and withdraw an invitation', () => {
  it('another business, a suspended teammate and the crew cannot see or withdraw it; an active teammate can', async () => {
    const owner = await makeUser({ business: true });
    const email = uniqueEmail('private');
    const inv = (await invite(owner.key, { business_id: owner.businessId, email })).body.invite;
    const token = await mailedToken(email.toLowerCase());
    const stranger = await makeUser({ business: true, shifter: true });
    const suspended = await makeUser();
    await addTeammate(owner.businessId!, suspended.userId, 0);
    const crew = await makeUser({ shifter: true });
    await connect(owner.businessId!, crew.shifterId!);
    for (const who of [stranger, suspended, crew]) {
      expectError(await call('DELETE', `/v1/request_authorization/invites/${inv.id}`, { key: who.key }), 404, 'CREW-INVITE-NOT-FND-ERR');
      expectError(await invites(who.key, owner.businessId!), 404, 'BUSINESS-NOT-FND-ERR');
    }
    expect((await db().select().from(crewInvites).where(eq(crewInvites.id, inv.id)))[0]!.status).toBe('pending');

    const teammate = await makeUser();
    await addTeammate(owner.businessId!, teammate.userId);
    expect((await invites(teammate.key, owner.businessId!)).body.data).toHaveLength(1);
    const withdrawn = await call('DELETE', `/v1/request_authorization/invites/${inv.id}`, { key: teammate.key });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('revoked');
    // Withdrawing again changes nothing; the link says it was withdrawn.
    expect((await call('DELETE', `/v1/request_authorization/invites/${inv.id}`, { key: owner.key })).body.status).toBe('revoked');
    const shifter = await makeUser({ shifter: true });
    const closed = expectError(await join(shifter.key, token), 409, 'CREW-INVITE-CLOSED-ERR');
    expect(closed.details).toEqual({ state: 'withdrawn' });
    expect(closed.message).toContain('withdrew this invitation');
  });
});

describe('joining with a token', () => {
  it('refuses an expired invitation in words, and a token that matches nothing', async () => {
    const owner = await makeUser({ business: true });
    const email = uniqueEmail('late');
    await invite(owner.key, { business_id: owner.businessId, email });
    const token = await mailedToken(email.toLowerCase());
    const shifter = await makeUser({ shifter: true });
    const later = contextAt(Date.now() + CREW_INVITE_TTL_MS + 60_000, shifter);
    await expect(joinCrew(later, { token })).rejects.toMatchObject({ code: 'CREW-INVITE-CLOSED-ERR', details: { state: 'expired' } });
    await expect(joinCrew(later, { token })).rejects.toThrow(/This invitation expired on .+ Ask .+ to send you a new one/);
    expect(await previewCrewInvitation(later, token, 'test-client')).toMatchObject({ state: 'expired', viewer: 'can_join' });
    expect(await pair(owner.businessId!, shifter.shifterId!)).toBeUndefined();

    expectError(await join(shifter.key, 'A'.repeat(22)), 404, 'CREW-INVITE-NOT-FND-ERR');
    expectError(await join(shifter.key, 'not a token'), 404, 'CREW-INVITE-NOT-FND-ERR');
  });

  it('needs a shifter profile, and is not for the business’s own people', async () => {
    const owner = await makeUser({ business: true, shifter: true });
    const link = (await rotate(owner.key, owner.businessId!)).body.link;
    const token = link.url.split('/join/')[1];
    expectError(await join(owner.key, token), 409, 'CONFLICT-ERR');
    const teammate = await makeUser({ shifter: true });
    await addTeammate(owner.businessId!, teammate.userId);
    expectError(await join(teammate.key, token), 409, 'CONFLICT-ERR');
    const noShifter = await makeUser();
    expectError(await join(noShifter.key, token), 404, 'SHIFTER-NOT-FND-ERR');
  });

  it('accepts a pending request of either side, reopens a removed one, and changes nothing for the crew', async () => {
    const owner = await makeUser({ business: true });
    const token = (await rotate(owner.key, owner.businessId!)).body.link.url.split('/join/')[1];
    const asked = await makeUser({ shifter: true });
    await connect(owner.businessId!, asked.shifterId!, 'pending'); // sent by the business
    const joined = await join(asked.key, token);
    expect(joined.body).toMatchObject({ already_connected: false, connection: { status: 'accepted', initiated_by: 'business' } });

    const removed = await makeUser({ shifter: true });
    await connect(owner.businessId!, removed.shifterId!);
    await db().update(requestAuthorizations).set({ status: 'removed' }).where(eq(requestAuthorizations.shifter_id, removed.shifterId!));
    expect((await join(removed.key, token)).body.connection).toMatchObject({ status: 'accepted', initiated_by: 'shifter' });

    const again = await join(asked.key, token);
    expect(again.body.already_connected).toBe(true);
    expect(
      (await call('GET', '/v1/request_authorization/join_link', { key: owner.key, query: { business_id: owner.businessId! } })).body.link
        .uses,
    ).toBe(2);
  });
});

describe('the crew join link', () => {
  it('joins anyone with it until it is rotated; the old link is then refused', async () => {
    const owner = await makeUser({ business: true });
    const before = await call('GET', '/v1/request_authorization/join_link', { key: owner.key, query: { business_id: owner.businessId! } });
    expect(before.body).toEqual({ link: null });
    const made = await rotate(owner.key, owner.businessId!);
    expect(made.status).toBe(200);
    const url: string = made.body.link.url;
    expect(url).toMatch(/\/join\/[0-9A-Za-z]{22}$/);
    const token = url.split('/join/')[1]!;
    const [a, b] = [await makeUser({ shifter: true }), await makeUser({ shifter: true })];
    for (const s of [a, b]) expect((await join(s.key, token)).body.connection.status).toBe('accepted');

    const rotated = await rotate(owner.key, owner.businessId!);
    const fresh = rotated.body.link.url.split('/join/')[1]!;
    expect(fresh).not.toBe(token);
    const late = await makeUser({ shifter: true });
    const refused = expectError(await join(late.key, token), 409, 'CREW-INVITE-CLOSED-ERR');
    expect(refused.details).toEqual({ state: 'replaced' });
    expect(refused.message).toMatch(/replaced this join link/);
    expect((await join(late.key, fresh)).status).toBe(200);
    const now = await call('GET', '/v1/request_authorization/join_link', { key: owner.key, query: { business_id: owner.businessId! } });
    expect(now.body.link).toMatchObject({ url: rotated.body.link.url, uses: 1 });

    // Another business neither sees nor rotates it.
    const stranger = await makeUser({ business: true });
    expectError(
      await call('GET', '/v1/request_authorization/join_link', { key: stranger.key, query: { business_id: owner.businessId! } }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(await rotate(stranger.key, owner.businessId!), 404, 'BUSINESS-NOT-FND-ERR');
  });
});
