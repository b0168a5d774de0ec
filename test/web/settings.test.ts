import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, partnerBusinessLinks } from '../../src/db/schema';
import { call } from '../helpers/api';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { signedIn } from '../helpers/signed-in';

/*
 * /dashboard/settings: the business's profile, clock-in rules, budget, auto-fill, default business and
 * linked partners, each a small form through the same services as the API; a refusal keeps what was
 * typed with the message beside its field; a teammate reads it all and changes nothing.
 */

const businessRow = async (id: string) => (await db().select().from(businesses).where(eq(businesses.id, id)))[0]!;
const form = (section: string, fields: Record<string, string>) => ({ _idem: crypto.randomUUID(), section, ...fields });
const PROFILE = { name: 'Harbour Kitchen', address: '1 Quay Street', latitude: '38.7223', longitude: '-9.1393', timezone: 'Europe/Lisbon' };

describe('/dashboard/settings for the owner', () => {
  it('saves each form and shows what is stored', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const b = await signedIn(owner);
    const page = await b.get('/dashboard/settings');
    expect(page.status).toBe(200);
    for (const title of ['Profile', 'Clock-in rules', 'Weekly budget', 'Auto-fill on cancel', 'Default business', 'Linked partners'])
      expect(page.html).toContain(`>${title}</h2>`);
    expect(page.html).toContain(`<code>${(await businessRow(bid)).slug}</code>`);

    const saved = await b.post('/dashboard/settings', form('profile', PROFILE));
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/dashboard/settings?business_id=${bid}&notice=profile`);
    expect(await businessRow(bid)).toMatchObject({
      name: 'Harbour Kitchen',
      address: '1 Quay Street',
      latitude: 38.7223,
      longitude: -9.1393,
      timezone: 'Europe/Lisbon',
    });
    const shown = await b.get(saved.location!);
    expect(shown.html).toContain('The profile was saved.');
    expect(shown.html).toContain('name="timezone" type="text" value="Europe/Lisbon"');

    expect((await b.post('/dashboard/settings', form('clock', { geofence_radius_m: '150', require_clock_photo: '1' }))).status).toBe(303);
    expect(await businessRow(bid)).toMatchObject({ geofence_radius_m: 150, require_clock_photo: true });
    // An unticked box sends nothing: the rule is off; an empty radius is no check.
    expect((await b.post('/dashboard/settings', form('clock', { geofence_radius_m: '' }))).status).toBe(303);
    expect(await businessRow(bid)).toMatchObject({ geofence_radius_m: null, require_clock_photo: false });

    expect((await b.post('/dashboard/settings', form('budget', { weekly_labor_budget: '2500' }))).status).toBe(303);
    expect((await businessRow(bid)).weekly_labor_budget_minor).toBe(250000);
    expect((await b.post('/dashboard/settings', form('autofill', { auto_fill_on_cancel: '1' }))).status).toBe(303);
    expect((await businessRow(bid)).auto_fill_on_cancel).toBe(true);
    // The other groups were left as they were.
    expect((await businessRow(bid)).name).toBe('Harbour Kitchen');
  });

  it('keeps what was typed and shows the server’s message beside the field it concerns', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const before = await businessRow(bid);
    const b = await signedIn(owner);
    await b.get('/dashboard/settings');

    const zone = await b.post('/dashboard/settings', form('profile', { ...PROFILE, timezone: 'Mars/Olympus_Mons', latitude: '91' }));
    expect(zone.status).toBe(400);
    expect(zone.html).toContain('name="timezone" type="text" value="Mars/Olympus_Mons"');
    expect(zone.html).toMatch(/id="field-timezone-error">Enter a time zone name as the IANA database writes it/);
    expect(zone.html).toMatch(/id="field-latitude-error">Enter a latitude from -90 to 90/);
    expect(zone.html).toContain('name="name" type="text" value="Harbour Kitchen"');
    expect(zone.html).toContain('name="latitude" type="text" value="91"');

    const radius = await b.post('/dashboard/settings', form('clock', { geofence_radius_m: '5', require_clock_photo: '1' }));
    expect(radius.status).toBe(400);
    expect(radius.html).toContain('name="geofence_radius_m" type="text" value="5"');
    expect(radius.html).toMatch(/id="field-geofence_radius_m-error">Enter a whole number of meters from 10 to 100000/);
    expect(radius.html).toMatch(/id="field-require_clock_photo" name="require_clock_photo" value="1" checked=""/);

    // The service's own refusal (a budget with more decimals than the currency has), beside the field.
    const cents = await b.post('/dashboard/settings', form('budget', { weekly_labor_budget: '10.555' }));
    expect(cents.status).toBe(400);
    expect(cents.html).toMatch(/id="field-weekly_labor_budget-error">10.555 has more decimals than USD allows/);
    expect(cents.html).toContain('value="10.555"');

    const after = await businessRow(bid);
    expect(after).toMatchObject({
      name: before.name,
      timezone: before.timezone,
      geofence_radius_m: before.geofence_radius_m,
      weekly_labor_budget_minor: before.weekly_labor_budget_minor,
    });
  });

  it('refuses a form that names another business, in its address or its fields, and changes neither business', async () => {
    const owner = await makeUser({ business: true });
    const other = await makeUser({ business: true });
    const b = await signedIn(owner);
    await b.get('/dashboard/settings');
    const before = [await businessRow(owner.businessId!), await businessRow(other.businessId!)];
    const attempts = [
      b.post(`/dashboard/settings?business_id=${other.businessId}`, form('budget', { weekly_labor_budget: '77' })),
      b.post('/dashboard/settings', { ...form('budget', { weekly_labor_budget: '77' }), business_id: other.businessId! }),
      b.post('/dashboard/money/budget', {
        _idem: crypto.randomUUID(),
        weekly_labor_budget: '77',
        week: '',
        business_id: other.businessId!,
      }),
      b.post('/dashboard/settings', { ...form('budget', { weekly_labor_budget: '77' }), business_id: 'biz_nosuchbusiness00000' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.html).toContain('names a business you do not act for');
    }
    expect([await businessRow(owner.businessId!), await businessRow(other.businessId!)]).toEqual(before);
    // Its own business, named, is fine.
    const own = await b.post('/dashboard/settings', { ...form('budget', { weekly_labor_budget: '77' }), business_id: owner.businessId! });
    expect(own.status).toBe(303);
    expect((await businessRow(owner.businessId!)).weekly_labor_budget_minor).toBe(7700);
  });

  it('makes the business the owner’s default', async () => {
    const owner = await makeUser({ business: true });
    const created = await call('POST', '/v1/business/create', { key: owner.key, body: { name: 'Second Spot', timezone: 'UTC' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const second = created.body.id as string;
    const b = await signedIn(owner);
    const page = await b.get(`/dashboard/settings?business_id=${second}`);
    expect(page.html).toContain('Make it my default business');
    const made = await b.post(`/dashboard/settings/default?business_id=${second}`, { _idem: crypto.randomUUID() });
    expect(made.location).toBe(`/dashboard/settings?business_id=${second}&notice=default`);
    expect((await businessRow(second)).is_default).toBe(true);
    expect((await businessRow(owner.businessId!)).is_default).toBe(false);
    expect((await b.get(made.location!)).html).toContain('This is your default business');
  });

  it('links a partner, refuses an unknown one beside its field, changes what it may do, and unlinks after confirming', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const developer = await makeUser();
    const client = await call('POST', '/v1/partner/clients', {
      key: developer.key,
      body: { name: 'Rota Sync', scopes: ['shifts:read', 'shifters:read'] },
    });
    expect(client.status).toBe(201);
    const clientId = client.body.id as string;
    const b = await signedIn(owner);
    await b.get('/dashboard/settings');

    const unknown = await b.post('/dashboard/settings/partners', { _idem: crypto.randomUUID(), client_id: 'pc_nosuchclient' });
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('name="client_id" type="text" value="pc_nosuchclient"');
    expect(unknown.html).toMatch(/id="field-client_id-error">No such partner client/);

    const beyond = await b.post('/dashboard/settings/partners', {
      _idem: crypto.randomUUID(),
      client_id: clientId,
      'scope:shifts:write': '1',
    });
    expect(beyond.status).toBe(400);
    expect(beyond.html).toMatch(/id="scopes-error">the client does not have shifts:write</);
    expect(beyond.html).toMatch(/id="scope-shifts-write" name="scope:shifts:write" value="1" checked=""/);

    const linked = await b.post('/dashboard/settings/partners', {
      _idem: crypto.randomUUID(),
      client_id: clientId,
      'scope:shifts:read': '1',
    });
    expect(linked.location).toBe(`/dashboard/settings?business_id=${bid}&notice=linked#partners`);
    const page = await b.get(linked.location!);
    expect(page.html).toContain('<strong>Rota Sync</strong>');
    expect(page.html).toContain('may read your shift requests and open broadcasts');

    // What it may do, changed in place: within the partner's own scopes, at least one.
    const scopes = `/dashboard/settings/partners/${clientId}/scopes`;
    const linkScopes = async () =>
      (await db().select().from(partnerBusinessLinks).where(eq(partnerBusinessLinks.business_id, bid)))[0]!.scopes;
    const wider = await b.post(scopes, { _idem: crypto.randomUUID(), 'scope:shifts:read': '1', 'scope:shifters:read': '1' });
    expect(wider.location).toBe(`/dashboard/settings?business_id=${bid}&notice=scopes#partners`);
    expect(await linkScopes()).toEqual(['shifts:read', 'shifters:read']);
    const notTheirs = await b.post(scopes, { _idem: crypto.randomUUID(), 'scope:webhooks:manage': '1' });
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.html).toContain('<details class="scopes-edit" open="">');
    expect(notTheirs.html).toMatch(/id="link-0-scopes-error">the client does not have webhooks:manage</);
    expect(notTheirs.html).toMatch(/id="link-0-webhooks-manage" name="scope:webhooks:manage" value="1" checked=""/);
    const none = await b.post(scopes, { _idem: crypto.randomUUID() });
    expect(none.status).toBe(400);
    expect(none.html).toMatch(/id="link-0-scopes-error">Tick at least one; to end its access, unlink it\.</);
    expect(await linkScopes()).toEqual(['shifts:read', 'shifters:read']);

    const unlink = `/dashboard/settings/partners/${clientId}/unlink`;
    const ask = await b.post(unlink, { _idem: crypto.randomUUID() });
    expect(ask.html).toContain('Unlink Rota Sync from');
    expect(await db().select().from(partnerBusinessLinks).where(eq(partnerBusinessLinks.business_id, bid))).toHaveLength(1);
    const done = await b.post(unlink, { _idem: crypto.randomUUID(), confirm: '1' });
    expect(done.location).toContain('notice=unlinked');
    expect(await db().select().from(partnerBusinessLinks).where(eq(partnerBusinessLinks.business_id, bid))).toHaveLength(0);
  });
});

describe('/dashboard/settings for a teammate', () => {
  it('shows the settings read-only and refuses a change with the service’s message', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const mate = await makeUser();
    await addTeammate(bid, mate.userId);
    const b = await signedIn(mate);
    const page = await b.get(`/dashboard/settings?business_id=${bid}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('You see the settings as a teammate');
    expect(page.html).not.toContain('name="section"');
    expect(page.html).not.toContain('Link the partner');

    const refused = await b.post(`/dashboard/settings?business_id=${bid}`, form('profile', PROFILE));
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Only the owner or admin may do this for the business.');
    expect((await businessRow(bid)).name).not.toBe('Harbour Kitchen');
    const unlinked = await b.post(`/dashboard/settings/default?business_id=${bid}`, { _idem: crypto.randomUUID() });
    expect(unlinked.status).toBe(403);
  });
});
