import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, partnerBusinessLinks } from '../../src/db/schema';
import { call, expectError } from '../helpers/api';
import { addTeammate, db, makeUser, type TestUser } from '../helpers/factory';

/*
 * Changing what a business's link grants a partner client: PATCH /v1/business/{business_id}/partners/{client_id}
 * (the owner or an admin; within the client's scopes; audited; seen by the partner's next request).
 */

const ALL = ['shifts:read', 'shifts:write', 'shifters:read', 'webhooks:manage'];

async function world(clientScopes = ALL, linkScopes = ['shifts:read']) {
  const owner = await makeUser({ business: true });
  const developer = await makeUser();
  const created = await call('POST', '/v1/partner/clients', { key: developer.key, body: { name: 'Acme', scopes: clientScopes } });
  expect(created.status).toBe(201);
  const businessId = owner.businessId!;
  const linked = await call('POST', `/v1/business/${businessId}/partners`, {
    key: owner.key,
    body: { client_id: created.body.id, scopes: linkScopes },
  });
  expect(linked.status).toBe(201);
  return { owner, developer, businessId, clientId: created.body.id as string, apiKey: created.body.api_key as string };
}

const patch = (who: TestUser, businessId: string, clientId: string, body: unknown) =>
  call('PATCH', `/v1/business/${businessId}/partners/${clientId}`, { key: who.key, body });

describe('PATCH /v1/business/{business_id}/partners/{client_id}', () => {
  it('the owner replaces the granted scopes; the partner’s next request has them, and the change is audited', async () => {
    const { owner, businessId, clientId, apiKey } = await world();
    const crew = () => call('GET', `/v1/partner/businesses/${businessId}/shifters`, { headers: { 'x-api-key': apiKey } });
    expectError(await crew(), 403, 'SCOPE-ERR');

    const res = await patch(owner, businessId, clientId, { scopes: ['shifters:read', 'webhooks:manage', 'shifters:read'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ business_id: businessId, client_id: clientId, scopes: ['shifters:read', 'webhooks:manage'] });
    expect((await crew()).status).toBe(200);
    // shifts:read was left out: it stops at once.
    const shifts = await call('GET', `/v1/partner/businesses/${businessId}/shift_requests`, { headers: { 'x-api-key': apiKey } });
    expectError(shifts, 403, 'SCOPE-ERR');
    const listed = await call('GET', `/v1/business/${businessId}/partners`, { key: owner.key });
    expect(listed.body.data[0].scopes).toEqual(['shifters:read', 'webhooks:manage']);

    const [link] = await db().select().from(partnerBusinessLinks).where(eq(partnerBusinessLinks.client_id, clientId));
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'partner_link.update'), eq(auditLog.subject_id, link!.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_user_id: owner.userId, subject_type: 'partner_link' });
    expect(JSON.parse(audits[0]!.data!)).toEqual({
      business_id: businessId,
      client_id: clientId,
      scopes: ['shifters:read', 'webhooks:manage'],
      previous_scopes: ['shifts:read'],
    });
  });

  it('refuses scopes the client does not have, and an empty or unknown scope, changing nothing', async () => {
    const { owner, businessId, clientId } = await world(['shifts:read', 'shifts:write']);
    const beyond = expectError(
      await patch(owner, businessId, clientId, { scopes: ['shifts:read', 'webhooks:manage'] }),
      400,
      'VALIDATION-ERR',
    );
    expect(beyond.message).toContain('webhooks:manage');
    expectError(await patch(owner, businessId, clientId, { scopes: [] }), 400, 'VALIDATION-ERR');
    expectError(await patch(owner, businessId, clientId, { scopes: ['shifts:teleport'] }), 400, 'VALIDATION-ERR');
    expectError(await patch(owner, businessId, clientId, {}), 400, 'VALIDATION-ERR');
    const [link] = await db().select().from(partnerBusinessLinks).where(eq(partnerBusinessLinks.client_id, clientId));
    expect(link!.scopes).toEqual(['shifts:read']);
  });

  it('only the owner or an admin: a teammate is 403, a stranger and the client’s own developer learn nothing (404); no link is 404', async () => {
    const { owner, developer, businessId, clientId } = await world();
    const teammate = await makeUser();
    await addTeammate(businessId, teammate.userId);
    const stranger = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });
    const body = { scopes: ALL };
    expectError(await patch(teammate, businessId, clientId, body), 403, 'FORBIDDEN-ERR');
    expectError(await patch(stranger, businessId, clientId, body), 404, 'BUSINESS-NOT-FND-ERR');
    expectError(await patch(developer, businessId, clientId, body), 404, 'BUSINESS-NOT-FND-ERR');
    // The stranger's own business has no such link.
    expectError(await patch(stranger, stranger.businessId!, clientId, body), 404, 'PARTNER-LINK-NOT-FND-ERR');
    const [link] = await db().select().from(partnerBusinessLinks).where(eq(partnerBusinessLinks.client_id, clientId));
    expect(link!.scopes).toEqual(['shifts:read']);

    const byAdmin = await patch(admin, businessId, clientId, body);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect(byAdmin.body.scopes).toEqual(ALL);

    // Unlinked: 404, as for a client never linked.
    expect((await call('DELETE', `/v1/business/${businessId}/partners/${clientId}`, { key: owner.key })).status).toBe(200);
    expectError(await patch(owner, businessId, clientId, body), 404, 'PARTNER-LINK-NOT-FND-ERR');
  });

  it('two changes at once: one applies, the other is 409 CONFLICT-ERR, and the link holds one of them whole', async () => {
    const { owner, businessId, clientId } = await world();
    const a = ['shifts:read', 'webhooks:manage'];
    const b = ['shifters:read'];
    const results = await Promise.all([
      patch(owner, businessId, clientId, { scopes: a }),
      patch(owner, businessId, clientId, { scopes: b }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    // Both may also apply one after the other; never both refused, never a mix.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of results) if (r.status !== 200) expectError(r, 409, 'CONFLICT-ERR');
    const [link] = await db().select().from(partnerBusinessLinks).where(eq(partnerBusinessLinks.client_id, clientId));
    expect([a, b]).toContainEqual(link!.scopes);
  });
});
