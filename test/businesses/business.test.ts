import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/db/client';
import { admins, auditLog, businesses } from '../../src/db/schema';
import { call, expectError } from '../helpers/api';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';

const newBusiness = (name: string, extra: Record<string, unknown> = {}) => ({ name, timezone: 'America/New_York', city_id: 1, ...extra });

describe('POST /v1/business/create', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/business/create', body: newBusiness('Nope') });

  it('makes the first business the default, and moves the flag when asked', async () => {
    const u = await makeUser({ shifter: true });
    const first = await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('First Cafe', { address: '1 Main St' }) });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      name: 'First Cafe',
      user_id: u.userId,
      is_default: true,
      timezone: 'America/New_York',
      address: '1 Main St',
      city_id: 1,
      currency: expect.stringMatching(/^[A-Z]{3}$/),
    });
    expect(first.body.id).toMatch(/^biz_/);
    expect(first.body.slug).toEqual(expect.any(String));

    const second = await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('Second Cafe') });
    expect(second.status).toBe(201);
    expect(second.body.is_default).toBe(false);

    let list = await call('GET', '/v1/business/of_user', { key: u.key });
    expect(list.body.data.map((b: { id: string }) => b.id)).toEqual([first.body.id, second.body.id]);

    const third = await call('POST', '/v1/business/create', {
      key: u.key,
      body: newBusiness('Third Cafe', { is_default: true, currency: 'eur' }),
    });
    expect(third.status).toBe(201);
    expect(third.body).toMatchObject({ is_default: true, currency: 'EUR' });

    list = await call('GET', '/v1/business/of_user', { key: u.key });
    const data: Array<{ id: string; is_default: boolean }> = list.body.data;
    expect(data).toHaveLength(3);
    expect(data[0]).toMatchObject({ id: third.body.id, is_default: true });
    expect(data.filter((b) => b.is_default)).toHaveLength(1);

    const details = await call('GET', '/v1/user/details', { key: u.key });
    expect(details.body).toMatchObject({ default_business_id: third.body.id, has_business_profile: true, is_dual_profile: true });
    expect(details.body.business_ids).toHaveLength(3);

    const audit = await db().select().from(auditLog).where(eq(auditLog.subject_id, first.body.id));
    expect(audit.map((a) => a.action)).toContain('business.create');
  });

  it('refuses an unknown city_id (400)', async () => {
    const u = await makeUser();
    const err = expectError(
      await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('Ghost Town', { city_id: 987_654 }) }),
      400,
      'VALIDATION-ERR',
    );
    expect(err.details).toEqual([expect.objectContaining({ field: 'city_id' })]);
    expect((await call('GET', '/v1/business/of_user', { key: u.key })).body.data).toEqual([]);
  });

  it('refuses a time zone that is not an IANA name (400)', async () => {
    const u = await makeUser();
    for (const timezone of ['Mars/Olympus_Mons', 'EST5EDT-ish', '', '+02:00']) {
      const err = expectError(
        await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('Clockless', { timezone }) }),
        400,
        'VALIDATION-ERR',
      );
      expect((err.details as Array<{ field: string }>).map((d) => d.field)).toContain('json.timezone');
    }
  });

  it('refuses an unsupported currency and a missing name (400)', async () => {
    const u = await makeUser();
    expectError(
      await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('Coins', { currency: 'XQZ' }) }),
      400,
      'VALIDATION-ERR',
    );
    expectError(await call('POST', '/v1/business/create', { key: u.key, body: { timezone: 'UTC' } }), 400, 'VALIDATION-ERR');
  });
});

describe('GET /v1/business/of_user', () => {
  itRejectsBadCredentials({ method: 'GET', path: '/v1/business/of_user' });

  it("lists the caller's businesses, default first", async () => {
    const u = await makeUser({ business: { name: 'Old Default', is_default: false, created_at: 1 } });
    const made = await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('New Default', { is_default: true }) });
    const res = await call('GET', '/v1/business/of_user', { key: u.key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((b: { id: string }) => b.id)).toEqual([made.body.id, u.businessId]);
  });

  it('answers an empty list for a user without businesses', async () => {
    const u = await makeUser({ shifter: true });
    const res = await call('GET', '/v1/business/of_user', { key: u.key, query: { user_id: u.userId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it("refuses another user's id (403) but lets an admin read it", async () => {
    const owner = await makeUser({ business: true });
    const stranger = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });
    expectError(await call('GET', '/v1/business/of_user', { key: stranger.key, query: { user_id: owner.userId } }), 403, 'FORBIDDEN-ERR');
    const res = await call('GET', '/v1/business/of_user', { key: admin.key, query: { user_id: owner.userId } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((b: { id: string }) => b.id)).toEqual([owner.businessId]);
    expectError(await call('GET', '/v1/business/of_user', { key: admin.key, query: { user_id: 'usr_nobody' } }), 404, 'USER-NOT-FND-ERR');
  });
});

describe('shifter profile', () => {
  itRejectsBadCredentials({ method: 'GET', path: '/v1/shifter/of_user' });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shifter/create', body: {} });

  it('answers 404 SHIFTER-NOT-FND-ERR for a user without one', async () => {
    const u = await makeUser({ business: true });
    expectError(await call('GET', '/v1/shifter/of_user', { key: u.key }), 404, 'SHIFTER-NOT-FND-ERR');
  });

  it("refuses another user's id (403) but lets an admin read it", async () => {
    const s = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    const admin = await makeUser({ admin: true });
    expectError(await call('GET', '/v1/shifter/of_user', { key: other.key, query: { user_id: s.userId } }), 403, 'FORBIDDEN-ERR');
    const res = await call('GET', '/v1/shifter/of_user', { key: admin.key, query: { user_id: s.userId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.shifterId, user_id: s.userId, ratings: { average: null, count: 0 } });
  });

  it('adds a shifter profile to a business owner (dual profile), once', async () => {
    const u = await makeUser({ business: true, name: 'Olive Owner' });
    const res = await call('POST', '/v1/shifter/create', {
      key: u.key,
      body: { headline: 'Weekend barista', city_id: 1, timezone: 'America/Chicago' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      user_id: u.userId,
      display_name: 'Olive Owner',
      headline: 'Weekend barista',
      city_id: 1,
      city: expect.any(String),
      timezone: 'America/Chicago',
      accept_shift_req: true,
      is_paused: false,
    });
    expect((await call('GET', '/v1/shifter/of_user', { key: u.key })).body.id).toBe(res.body.id);
    const details = await call('GET', '/v1/user/details', { key: u.key });
    expect(details.body).toMatchObject({
      has_shifter_profile: true,
      has_business_profile: true,
      is_dual_profile: true,
      shifter_id: res.body.id,
    });

    expectError(await call('POST', '/v1/shifter/create', { key: u.key, body: {} }), 409, 'PROFILE-EXISTS-ERR');
  });

  it("defaults a new shifter profile's time zone from its city; an explicit zone wins", async () => {
    const a = await makeUser({ business: true });
    const london = await call('POST', '/v1/shifter/create', { key: a.key, body: { city_id: 10 } });
    expect(london.status).toBe(201);
    expect(london.body).toMatchObject({ city_id: 10, timezone: 'Europe/London' });
    const b = await makeUser({ business: true });
    expect((await call('POST', '/v1/shifter/create', { key: b.key, body: { city_id: 10, timezone: 'Asia/Tokyo' } })).body.timezone).toBe(
      'Asia/Tokyo',
    );
    const c = await makeUser({ business: true });
    expect((await call('POST', '/v1/shifter/create', { key: c.key, body: {} })).body.timezone).toBe('UTC');
  });

  it('refuses a bad time zone for a new shifter profile (400)', async () => {
    const u = await makeUser({ business: true });
    expectError(await call('POST', '/v1/shifter/create', { key: u.key, body: { timezone: 'Atlantis/Deep' } }), 400, 'VALIDATION-ERR');
  });
});

// Teammates (invitations by consent) are tested in teammates.test.ts.

describe('one default business per owner', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/business/biz_anything/make_default' });

  it('moves the default with make_default (owner only)', async () => {
    const u = await makeUser({ business: true });
    const second = await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('Second Cafe') });
    expect(second.body.is_default).toBe(false);
    const made = await call('POST', `/v1/business/${second.body.id}/make_default`, { key: u.key });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ id: second.body.id, is_default: true });
    const list = (await call('GET', '/v1/business/of_user', { key: u.key })).body.data as Array<{ id: string; is_default: boolean }>;
    expect(list.filter((b) => b.is_default).map((b) => b.id)).toEqual([second.body.id]);
    // Again is harmless.
    expect((await call('POST', `/v1/business/${second.body.id}/make_default`, { key: u.key })).body.is_default).toBe(true);

    const mate = await makeUser({ shifter: true });
    const admin = await makeUser({ admin: true });
    const stranger = await makeUser({ business: true });
    await addTeammate(u.businessId!, mate.userId);
    expectError(await call('POST', `/v1/business/${u.businessId}/make_default`, { key: mate.key }), 403, 'FORBIDDEN-ERR');
    expectError(await call('POST', `/v1/business/${u.businessId}/make_default`, { key: admin.key }), 403, 'FORBIDDEN-ERR');
    expectError(await call('POST', `/v1/business/${u.businessId}/make_default`, { key: stranger.key }), 404, 'BUSINESS-NOT-FND-ERR');
    const after = (await call('GET', '/v1/business/of_user', { key: u.key })).body.data as Array<{ id: string; is_default: boolean }>;
    expect(after.filter((b) => b.is_default).map((b) => b.id)).toEqual([second.body.id]);
  });

  it('refuses a second default row in the database itself', async () => {
    const u = await makeUser({ business: true });
    const err = await db()
      .insert(businesses)
      .values({
        id: 'biz_seconddefault00000001',
        user_id: u.userId,
        slug: `second-${u.userId}`,
        name: 'X',
        is_default: true,
        timezone: 'UTC',
        created_at: 1,
        updated_at: 1,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('never leaves two defaults or none under concurrent creates and make_default', async () => {
    const u = await makeUser();
    const first = await call('POST', '/v1/business/create', { key: u.key, body: newBusiness('Base') });
    expect(first.body.is_default).toBe(true);
    for (let round = 0; round < 3; round++) {
      const ids = (await call('GET', '/v1/business/of_user', { key: u.key })).body.data.map((b: { id: string }) => b.id) as string[];
      const results = await Promise.all([
        ...Array.from({ length: 6 }, (_, i) =>
          call('POST', '/v1/business/create', { key: u.key, body: newBusiness(`R${round}-${i}`, { is_default: i % 2 === 0 }) }),
        ),
        ...ids.slice(0, 6).map((id) => call('POST', `/v1/business/${id}/make_default`, { key: u.key })),
      ]);
      for (const r of results) expect([200, 201], JSON.stringify(r.body)).toContain(r.status);
      const rows = await db().select().from(businesses).where(eq(businesses.user_id, u.userId));
      expect(rows.filter((b) => b.is_default)).toHaveLength(1);
    }
  });

  it('makes the first business of an owner the default even when not asked', async () => {
    const u = await makeUser();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => call('POST', '/v1/business/create', { key: u.key, body: newBusiness(`First ${i}`) })),
    );
    for (const r of results) expect(r.status).toBe(201);
    const rows = await db().select().from(businesses).where(eq(businesses.user_id, u.userId));
    expect(rows).toHaveLength(5);
    expect(rows.filter((b) => b.is_default)).toHaveLength(1);
  });
});

describe('POST /v1/admin/admins', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/admin/admins', body: { user_id: 'usr_anyone' } });

  it('refuses a non-admin (403)', async () => {
    const u = await makeUser({ shifter: true });
    const target = await makeUser({ shifter: true });
    expectError(await call('POST', '/v1/admin/admins', { key: u.key, body: { user_id: target.userId } }), 403, 'FORBIDDEN-ERR');
    expectError(await call('POST', '/v1/admin/admins', { key: u.key, body: { user_id: u.userId } }), 403, 'FORBIDDEN-ERR');
    expect(await db().select().from(admins).where(eq(admins.user_id, target.userId))).toHaveLength(0);
  });

  it('lets an admin grant admin rights; the grantee then is an admin', async () => {
    const admin = await makeUser({ admin: true });
    const target = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    expect((await call('GET', '/v1/user/details', { key: target.key })).body.is_admin).toBe(false);

    const res = await call('POST', '/v1/admin/admins', { key: admin.key, body: { user_id: target.userId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user_id: target.userId, is_admin: true });
    // Granting twice is harmless.
    expect((await call('POST', '/v1/admin/admins', { key: admin.key, body: { user_id: target.userId } })).status).toBe(200);

    const details = await call('GET', '/v1/user/details', { key: target.key });
    expect(details.body.is_admin).toBe(true);
    // The new rights apply at once to the grantee's own key.
    expect((await call('GET', '/v1/user/details', { key: target.key, query: { user_id: other.userId } })).status).toBe(200);
    const [row] = await db().select().from(admins).where(eq(admins.user_id, target.userId));
    expect(row?.granted_by_user_id).toBe(admin.userId);
  });

  it('answers 404 USER-NOT-FND-ERR for an unknown user', async () => {
    const admin = await makeUser({ admin: true });
    expectError(await call('POST', '/v1/admin/admins', { key: admin.key, body: { user_id: 'usr_nobody' } }), 404, 'USER-NOT-FND-ERR');
  });
});

describe('GET /v1/user/details', () => {
  itRejectsBadCredentials({ method: 'GET', path: '/v1/user/details' });
});
