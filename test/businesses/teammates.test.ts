// inside: services/businesses
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOutbox, outboxEvents, teammateInvitations, teammates } from '../../src/db/schema';
import { INVITATION_TTL_MS } from '../../src/services/businesses/invitations';
import { call, expectError } from '../helpers/api';
import { registerVerified, uniqueEmail } from '../helpers/auth';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';

const invitePath = (businessId: string) => `/v1/business/${businessId}/teammates`;
const invite = (key: string, businessId: string, email: string) => call('POST', invitePath(businessId), { key, body: { email } });
const myInvitations = (key: string) => call('GET', '/v1/user/invitations', { key });

/** The in-app notifications queued for a user whose body mentions `text`. */
async function noticesFor(userId: string, text: string) {
  const rows = await db()
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.topic, 'notifications'), like(outboxEvents.body, `%${userId}%`), like(outboxEvents.body, `%${text}%`)));
  return rows.map((r) => JSON.parse(r.body) as { kind: string; user_ids: string[] });
}

describe('teammate invitations: routes reject bad credentials', () => {
  itRejectsBadCredentials({ method: 'GET', path: '/v1/business/biz_anything/teammates' });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/business/biz_anything/teammates', body: { email: 'x@example.test' } });
  itRejectsBadCredentials({ method: 'PUT', path: '/v1/business/biz_anything/teammates/usr_anything', body: { status: 0 } });
  itRejectsBadCredentials({ method: 'GET', path: '/v1/business/biz_anything/invitations' });
  itRejectsBadCredentials({ method: 'DELETE', path: '/v1/business/biz_anything/invitations/inv_anything' });
  itRejectsBadCredentials({ method: 'GET', path: '/v1/user/invitations' });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/user/invitations/inv_anything/accept' });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/user/invitations/inv_anything/decline' });
});

describe('teammates by consent (attack: adding someone without asking)', () => {
  it('answers the same whether or not the email has an account, and reveals nothing of the invitee', async () => {
    const owner = await makeUser({ business: true });
    const someone = await makeUser({ shifter: true, name: 'Private Person' });
    const withAccount = await invite(owner.key, owner.businessId!, someone.email.toUpperCase());
    const without = await invite(owner.key, owner.businessId!, uniqueEmail('nobody'));
    expect(withAccount.status).toBe(202);
    expect(without.status).toBe(202);
    expect(Object.keys(withAccount.body).sort()).toEqual(Object.keys(without.body).sort());
    for (const r of [withAccount, without]) {
      expect(r.body).toMatchObject({ business_id: owner.businessId, status: 'pending', responded_at: null });
      expect(r.body.id).toMatch(/^inv_/);
      expect(JSON.stringify(r.body)).not.toContain(someone.userId);
      expect(JSON.stringify(r.body)).not.toContain('Private Person');
    }
    expect(withAccount.body.email).toBe(someone.email);
    expect(Date.parse(withAccount.body.expires_at) - Date.parse(withAccount.body.created_at)).toBe(INVITATION_TTL_MS);

    // Not a teammate before accepting: no row, no standing, nothing listed.
    expect((await call('GET', invitePath(owner.businessId!), { key: owner.key })).body.data).toEqual([]);
    expect(await db().select().from(teammates).where(eq(teammates.business_id, owner.businessId!))).toHaveLength(0);
    expectError(await call('GET', invitePath(owner.businessId!), { key: someone.key }), 404, 'BUSINESS-NOT-FND-ERR');
    const pending = await call('GET', `/v1/business/${owner.businessId}/invitations`, { key: owner.key });
    expect(pending.body.data.map((i: { email: string }) => i.email).sort()).toEqual([someone.email, without.body.email].sort());
    expect(JSON.stringify(pending.body)).not.toContain(someone.userId);
  });

  it('lets the invitee see, accept and become an active teammate; the owner is told', async () => {
    const owner = await makeUser({ business: true, name: 'Olga Owner' });
    const mate = await makeUser({ shifter: true, name: 'Tess Teammate' });
    const inv = await invite(owner.key, owner.businessId!, mate.email);
    expect(await noticesFor(mate.userId, inv.body.id)).toEqual([
      expect.objectContaining({ kind: 'teammate_invitation', user_ids: [mate.userId] }),
    ]);

    const mine = await myInvitations(mate.key);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        id: inv.body.id,
        business_id: owner.businessId,
        business_name: 'Olga Owner Co',
        invited_by_name: 'Olga Owner',
        status: 'pending',
      }),
    ]);

    const accepted = await call('POST', `/v1/user/invitations/${inv.body.id}/accept`, { key: mate.key });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      business_id: owner.businessId,
      user_id: mate.userId,
      status: 1,
      is_active: true,
      display_name: 'Tess Teammate',
    });
    const team = await call('GET', invitePath(owner.businessId!), { key: owner.key });
    expect(team.body.data).toEqual([expect.objectContaining({ user_id: mate.userId, email: mate.email, status: 1 })]);
    expect((await call('GET', invitePath(owner.businessId!), { key: mate.key })).status).toBe(200);
    expect((await call('GET', '/v1/user/details', { key: mate.key })).body.teammate_of_business_ids).toEqual([owner.businessId]);
    expect(await noticesFor(owner.userId, owner.businessId!)).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'teammate_joined' })]),
    );

    // Answered once: accepting again or declining after is refused, and the list is empty.
    expectError(await call('POST', `/v1/user/invitations/${inv.body.id}/accept`, { key: mate.key }), 409, 'INVITATION-CLOSED-ERR');
    expectError(await call('POST', `/v1/user/invitations/${inv.body.id}/decline`, { key: mate.key }), 409, 'INVITATION-CLOSED-ERR');
    expect((await myInvitations(mate.key)).body.data).toEqual([]);
  });

  it('refuses an invitation to anyone but the invitee (404), even with its id', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ shifter: true });
    const thief = await makeUser({ shifter: true });
    const inv = await invite(owner.key, owner.businessId!, mate.email);
    for (const key of [thief.key, owner.key]) {
      expectError(await call('POST', `/v1/user/invitations/${inv.body.id}/accept`, { key }), 404, 'INVITATION-NOT-FND-ERR');
      expectError(await call('POST', `/v1/user/invitations/${inv.body.id}/decline`, { key }), 404, 'INVITATION-NOT-FND-ERR');
    }
    expect((await myInvitations(thief.key)).body.data).toEqual([]);
    expect(await db().select().from(teammates).where(eq(teammates.business_id, owner.businessId!))).toHaveLength(0);
  });

  it('emails an address without an account; it becomes acceptable once a new account verifies it', async () => {
    const owner = await makeUser({ business: true });
    const email = uniqueEmail('future-mate');
    const inv = await invite(owner.key, owner.businessId!, email);
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to_address, email), eq(emailOutbox.template, 'teammate_invitation')));
    expect(mail?.text_body).toContain('Co');

    const { key } = await registerVerified(email);
    const mine = await myInvitations(key);
    expect(mine.body.data.map((i: { id: string }) => i.id)).toEqual([inv.body.id]);
    expect((await call('POST', `/v1/user/invitations/${inv.body.id}/accept`, { key })).status).toBe(200);
  });

  it('lets the invitee decline; the business sees it declined', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ shifter: true });
    const inv = await invite(owner.key, owner.businessId!, mate.email);
    const declined = await call('POST', `/v1/user/invitations/${inv.body.id}/decline`, { key: mate.key });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ id: inv.body.id, status: 'declined' });
    expectError(await call('POST', `/v1/user/invitations/${inv.body.id}/accept`, { key: mate.key }), 409, 'INVITATION-CLOSED-ERR');
    expect((await call('GET', `/v1/business/${owner.businessId}/invitations`, { key: owner.key })).body.data).toEqual([]);
    expect(await db().select().from(teammates).where(eq(teammates.business_id, owner.businessId!))).toHaveLength(0);
  });

  it('lets the owner revoke; a revoked or expired invitation cannot be accepted', async () => {
    const owner = await makeUser({ business: true });
    const a = await makeUser({ shifter: true });
    const b = await makeUser({ shifter: true });
    const invA = await invite(owner.key, owner.businessId!, a.email);
    const invB = await invite(owner.key, owner.businessId!, b.email);

    const revoked = await call('DELETE', `/v1/business/${owner.businessId}/invitations/${invA.body.id}`, { key: owner.key });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: invA.body.id, status: 'revoked' });
    expectError(
      await call('DELETE', `/v1/business/${owner.businessId}/invitations/${invA.body.id}`, { key: owner.key }),
      409,
      'INVITATION-CLOSED-ERR',
    );
    expectError(await call('POST', `/v1/user/invitations/${invA.body.id}/accept`, { key: a.key }), 409, 'INVITATION-CLOSED-ERR');

    await db()
      .update(teammateInvitations)
      .set({ expires_at: Date.now() - 1 })
      .where(eq(teammateInvitations.id, invB.body.id));
    expect((await myInvitations(b.key)).body.data).toEqual([]);
    expectError(await call('POST', `/v1/user/invitations/${invB.body.id}/accept`, { key: b.key }), 409, 'INVITATION-CLOSED-ERR');
    const listed = await call('GET', `/v1/business/${owner.businessId}/invitations`, { key: owner.key });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: invB.body.id, status: 'expired' })]);

    // Inviting again re-sends the same invitation with a fresh expiry.
    const again = await invite(owner.key, owner.businessId!, b.email);
    expect(again.body).toMatchObject({ id: invB.body.id, status: 'pending' });
    expect(Date.parse(again.body.expires_at)).toBeGreaterThan(Date.now() + INVITATION_TTL_MS - 60_000);
    expect((await call('POST', `/v1/user/invitations/${invB.body.id}/accept`, { key: b.key })).status).toBe(200);
  });

  it('makes one teammate of ten concurrent accepts', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ shifter: true });
    const inv = await invite(owner.key, owner.businessId!, mate.email);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `/v1/user/invitations/${inv.body.id}/accept`, { key: mate.key })),
    );
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'INVITATION-CLOSED-ERR');
    expect(await db().select().from(teammates).where(eq(teammates.business_id, owner.businessId!))).toHaveLength(1);
  });

  it('keeps one pending invitation per email under concurrent invites', async () => {
    const owner = await makeUser({ business: true });
    const email = uniqueEmail('twice');
    const results = await Promise.all(Array.from({ length: 5 }, () => invite(owner.key, owner.businessId!, email)));
    for (const r of results) expect(r.status).toBe(202);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const rows = await db().select().from(teammateInvitations).where(eq(teammateInvitations.business_id, owner.businessId!));
    expect(rows).toHaveLength(1);
  });
});

describe('who may invite and manage the team', () => {
  it('refuses a teammate inviting or suspending (403) and a stranger (404)', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ shifter: true });
    const stranger = await makeUser({ business: true });
    await addTeammate(owner.businessId!, mate.userId);
    const path = invitePath(owner.businessId!);
    expectError(await invite(mate.key, owner.businessId!, stranger.email), 403, 'FORBIDDEN-ERR');
    expectError(await call('PUT', `${path}/${mate.userId}`, { key: mate.key, body: { status: 0 } }), 403, 'FORBIDDEN-ERR');
    expectError(await call('GET', `/v1/business/${owner.businessId}/invitations`, { key: mate.key }), 403, 'FORBIDDEN-ERR');
    expectError(await invite(stranger.key, owner.businessId!, stranger.email), 404, 'BUSINESS-NOT-FND-ERR');
    expectError(await call('GET', path, { key: stranger.key }), 404, 'BUSINESS-NOT-FND-ERR');
    expectError(await call('PUT', `${path}/${stranger.userId}`, { key: stranger.key, body: { status: 1 } }), 404, 'BUSINESS-NOT-FND-ERR');
    expectError(await call('GET', '/v1/business/biz_doesnotexist/teammates', { key: owner.key }), 404, 'BUSINESS-NOT-FND-ERR');
    const inv = await invite(owner.key, owner.businessId!, uniqueEmail('x'));
    expectError(
      await call('DELETE', `/v1/business/${owner.businessId}/invitations/${inv.body.id}`, { key: stranger.key }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(
      await call('DELETE', `/v1/business/${stranger.businessId}/invitations/${inv.body.id}`, { key: stranger.key }),
      404,
      'INVITATION-NOT-FND-ERR',
    );
  });

  it('refuses inviting the owner or a member of the team (409), and a malformed email (400)', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ shifter: true });
    await addTeammate(owner.businessId!, mate.userId, 0);
    expectError(await invite(owner.key, owner.businessId!, owner.email), 409, 'CONFLICT-ERR');
    expectError(await invite(owner.key, owner.businessId!, mate.email), 409, 'CONFLICT-ERR');
    expectError(await invite(owner.key, owner.businessId!, 'not-an-email'), 400, 'VALIDATION-ERR');
  });

  it('lets the owner suspend and reactivate; a suspended teammate has no standing', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ shifter: true });
    await addTeammate(owner.businessId!, mate.userId);
    const path = invitePath(owner.businessId!);
    const suspended = await call('PUT', `${path}/${mate.userId}`, { key: owner.key, body: { status: 0 } });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ user_id: mate.userId, status: 0, is_active: false });
    expectError(await call('GET', path, { key: mate.key }), 404, 'BUSINESS-NOT-FND-ERR');
    expect((await call('GET', '/v1/user/details', { key: mate.key })).body.teammate_of_business_ids).toEqual([]);
    const restored = await call('PUT', `${path}/${mate.userId}`, { key: owner.key, body: { status: 1 } });
    expect(restored.body).toMatchObject({ status: 1, is_active: true });
    const other = await makeUser({ shifter: true });
    expectError(await call('PUT', `${path}/${other.userId}`, { key: owner.key, body: { status: 0 } }), 404, 'NOT-FOUND-ERR');
    expectError(await call('PUT', `${path}/${other.userId}`, { key: owner.key, body: { status: 2 } }), 400, 'VALIDATION-ERR');
  });

  it('lets an admin invite for any business', async () => {
    const owner = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });
    const res = await invite(admin.key, owner.businessId!, uniqueEmail('by-admin'));
    expect(res.status).toBe(202);
    expect((await call('GET', `/v1/business/${owner.businessId}/invitations`, { key: admin.key })).body.data).toHaveLength(1);
  });
});
