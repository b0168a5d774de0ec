import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, partnerBusinessLinks } from '../../src/db/schema';
import { call } from '../helpers/api';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { signedIn } from '../helpers/signed-in';
import type { Page } from '../helpers/web';

/*
 * /dashboard/settings: the business's profile, clock-in rules (the venue's position from a typed
 * pair or a pasted map link, the radius), budget and auto-fill in one form with one Save through the
 * settings service; a refusal shows every section as it was sent with the message beside its
 * field. The default business and the linked partners are their own forms after it. A teammate
 * reads it all and changes nothing.
 */

const businessRow = async (id: string) => (await db().select().from(businesses).where(eq(businesses.id, id)))[0]!;
/** A post of `fields` with a fresh idempotency key (a new act, as a new page's form would carry). */
const save = (fields: Record<string, string>) => ({ ...fields, _idem: crypto.randomUUID() });

const decode = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The settings form of a page: its HTML and the fields a browser would post from it as it stands. */
function settingsForm(page: Page) {
  const html = /<form [^>]*id="settings-form"[^>]*>([\s\S]*?)<\/form>/.exec(page.html)?.[1];
  expect(html, 'the page has the settings form').toBeDefined();
  const fields: Record<string, string> = {};
  for (const [, tag] of html!.matchAll(/<input ([^>]*)>/g)) {
    const attr = (name: string) => {
      const m = new RegExp(`(?:^|\\s)${name}(?:="([^"]*)")?(?=\\s|/?$)`).exec(tag!);
      return m ? decode(m[1] ?? '') : undefined;
    };
    const name = attr('name');
    if (!name || (attr('type') === 'checkbox' && attr('checked') === undefined)) continue;
    // A later field of the same name wins, as the page reads a form (a ticked box after its hidden "0").
    fields[name] = attr('value') ?? '';
  }
  const zone = /<select [^>]*name="timezone"[^>]*>([\s\S]*?)<\/select>/.exec(html!)?.[1] ?? '';
  const selected = /<option value="([^"]*)" selected="">/.exec(zone)?.[1];
  if (selected !== undefined) fields.timezone = decode(selected);
  return { html: html!, fields };
}

describe('/dashboard/settings for the owner', () => {
  it('keeps edits in three sections with one save, the other fields as they were', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const before = await businessRow(bid);
    const b = await signedIn(owner);
    const page = await b.get('/dashboard/settings');
    expect(page.status).toBe(200);
    for (const title of ['Profile', 'Clock-in rules', 'Weekly budget', 'Auto-fill on cancel', 'Default business', 'Linked partners'])
      expect(page.html).toContain(`>${title}</h2>`);
    expect(page.html).toContain(`<code>${before.slug}</code>`);

    // One form, one Save; its sections are fieldsets headed by their titles, and the separate acts
    // (default business, partners) are forms of their own after it, never inside it.
    const main = settingsForm(page);
    expect(main.html).not.toContain('<form');
    expect(main.html.match(/type="submit"/g)).toHaveLength(1);
    expect(main.html).toContain('>Save the settings</button>');
    expect(main.html.match(/<fieldset class="card settings-section"/g)).toHaveLength(4);
    expect(main.html).toMatch(/<legend><h2>Profile<\/h2><\/legend>/);
    const formEnd = page.html.indexOf('</form>', page.html.indexOf('id="settings-form"'));
    expect(page.html.indexOf('action="/dashboard/settings/partners')).toBeGreaterThan(formEnd);
    expect(page.html.indexOf('>Default business</h2>')).toBeGreaterThan(formEnd);
    // An unticked box posts "0" from the hidden field before it.
    expect(main.html).toContain('<input type="hidden" name="require_clock_photo" value="0"/>');

    // What a browser sends: every field, with edits in the profile, the clock-in rules and the budget.
    const sent = {
      ...main.fields,
      name: 'Harbour Kitchen',
      geofence_radius_m: '150',
      require_clock_photo: '1',
      weekly_labor_budget: '2500',
    };
    expect(Object.keys(sent).sort()).toEqual(
      [
        '_csrf',
        '_idem',
        'address',
        'auto_fill_on_cancel',
        'geofence_radius_m',
        'latitude',
        'longitude',
        'map_link',
        'name',
        'require_clock_photo',
        'timezone',
        'weekly_labor_budget',
      ].sort(),
    );
    const saved = await b.post('/dashboard/settings', sent);
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/dashboard/settings?business_id=${bid}&notice=saved`);
    expect(await businessRow(bid)).toMatchObject({
      name: 'Harbour Kitchen',
      geofence_radius_m: 150,
      require_clock_photo: true,
      weekly_labor_budget_minor: 250000,
      // Sent as they were shown: unchanged.
      timezone: before.timezone,
      latitude: before.latitude,
      longitude: before.longitude,
      address: before.address,
      auto_fill_on_cancel: before.auto_fill_on_cancel,
    });
    const shown = await b.get(saved.location!);
    expect(shown.html).toContain('The settings were saved.');
    expect(shown.html).toContain('Clock-ins count as on site within 150 m of 40.7128, \u221274.0060.');
    const again = settingsForm(shown).fields;
    expect(again).toMatchObject({
      name: 'Harbour Kitchen',
      geofence_radius_m: '150',
      require_clock_photo: '1',
      weekly_labor_budget: '2500',
    });

    // Unticked, the box posts off; an empty radius is no check, an empty budget none.
    const off = await b.post('/dashboard/settings', {
      ...again,
      _idem: crypto.randomUUID(),
      require_clock_photo: '0',
      geofence_radius_m: '',
      weekly_labor_budget: '',
      auto_fill_on_cancel: '1',
    });
    expect(off.status).toBe(303);
    expect(await businessRow(bid)).toMatchObject({
      name: 'Harbour Kitchen',
      geofence_radius_m: null,
      require_clock_photo: false,
      weekly_labor_budget_minor: null,
      auto_fill_on_cancel: true,
    });
  });

  it('keeps every section’s typed values on a refusal in one, with the message beside its field', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const before = await businessRow(bid);
    const b = await signedIn(owner);
    const page = await b.get('/dashboard/settings');
    const typed = {
      ...settingsForm(page).fields,
      name: 'Harbour Kitchen',
      timezone: 'Europe/Lisbon',
      address: '1 Quay Street',
      latitude: '38.7223',
      longitude: '-9.1393',
      geofence_radius_m: '5',
      require_clock_photo: '1',
      weekly_labor_budget: '300',
      auto_fill_on_cancel: '1',
    };
    const keptAll = (html: string, except: string[] = []) => {
      const kept = settingsForm({ html } as Page).fields;
      for (const [name, value] of Object.entries(typed))
        if (!name.startsWith('_') && !except.includes(name)) expect(kept[name], name).toBe(value);
    };

    // The page's check (the radius is under 10 m): refused, every section as it was typed.
    const radius = await b.post('/dashboard/settings', save(typed));
    expect(radius.status).toBe(400);
    expect(radius.html).toMatch(/id="field-geofence_radius_m-error">Enter a whole number of meters from 10 to 100000/);
    expect(radius.html).toContain('Nothing was saved: one field needs a change (marked below); everything you typed is still there.');
    expect(radius.html).toMatch(
      /id="field-geofence_radius_m" name="geofence_radius_m" type="text" value="5" inputmode="numeric" autofocus=""/,
    );
    keptAll(radius.html);
    expect(radius.html).toMatch(/id="field-require_clock_photo" name="require_clock_photo" value="1" checked=""/);
    expect(radius.html).toMatch(/id="field-auto_fill_on_cancel" name="auto_fill_on_cancel" value="1" checked=""/);
    // The idempotency key comes back with the form, so the retry is the same act.
    expect(radius.html).toContain(`name="_idem" value="`);

    // Two sections refused at once: both messages, every value kept.
    const two = await b.post(
      '/dashboard/settings',
      save({ ...typed, geofence_radius_m: '150', timezone: 'Mars/Olympus_Mons', latitude: '91' }),
    );
    expect(two.status).toBe(400);
    expect(two.html).toMatch(/id="field-timezone-error">Choose a time zone from the list/);
    expect(two.html).toMatch(/id="field-latitude-error">Enter a latitude from -90 to 90/);
    expect(two.html).toContain('Nothing was saved: 2 fields need a change');
    expect(two.html).toContain('<option value="Mars/Olympus_Mons" selected="">Mars/Olympus_Mons</option>');
    keptAll(two.html, ['timezone', 'latitude', 'geofence_radius_m']);
    expect(settingsForm(two).fields).toMatchObject({ timezone: 'Mars/Olympus_Mons', latitude: '91' });

    // The service's own refusal (a budget with more decimals than the currency has), beside the field,
    // with the other sections' typed values kept too.
    const cents = await b.post('/dashboard/settings', save({ ...typed, geofence_radius_m: '150', weekly_labor_budget: '10.555' }));
    expect(cents.status).toBe(400);
    expect(cents.html).toMatch(/id="field-weekly_labor_budget-error">10.555 has more decimals than USD allows/);
    keptAll(cents.html, ['geofence_radius_m', 'weekly_labor_budget']);
    expect(settingsForm(cents).fields).toMatchObject({ geofence_radius_m: '150', weekly_labor_budget: '10.555' });

    // A map link that carries no position: refused beside it, the link and everything else kept.
    const short = await b.post(
      '/dashboard/settings',
      save({ ...typed, geofence_radius_m: '150', map_link: 'https://maps.app.goo.gl/AbCd123' }),
    );
    expect(short.status).toBe(400);
    expect(short.html).toMatch(/id="field-map_link-error">A short link does not say where it points/);
    expect(settingsForm(short).fields.map_link).toBe('https://maps.app.goo.gl/AbCd123');
    keptAll(short.html, ['geofence_radius_m', 'map_link']);

    const after = await businessRow(bid);
    expect(after).toEqual({ ...before });
  });

  it('offers the time zones as a list grouped by region, the stored one selected, and refuses what is not a zone', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const b = await signedIn(owner);
    const page = await b.get('/dashboard/settings');
    const zone = /<select [^>]*name="timezone"[^>]*>([\s\S]*?)<\/select>/.exec(page.html)?.[1] ?? '';
    expect(zone).toContain('<option value="UTC">UTC (Coordinated Universal Time)</option>');
    for (const region of ['Africa', 'Americas', 'Asia', 'Australia', 'Europe', 'Pacific Ocean'])
      expect(zone).toContain(`<optgroup label="${region}">`);
    expect(zone).toMatch(
      /<optgroup label="Americas">(?:(?!<\/optgroup>)[\s\S])*<option value="America\/New_York" selected="">New York<\/option>/,
    );
    expect(zone).toMatch(/<optgroup label="Europe">(?:(?!<\/optgroup>)[\s\S])*<option value="Europe\/Lisbon">Lisbon<\/option>/);
    // Today's names, where the runtime lists a zone under an old one.
    expect(zone).toContain('<option value="America/Argentina/Buenos_Aires">Buenos Aires (Argentina)</option>');
    expect(zone).toContain('<option value="Europe/Kyiv">Kyiv</option>');
    expect(zone).not.toContain('"Europe/Kiev"');
    expect(zone.match(/<option /g)!.length).toBeGreaterThan(300);
    expect(zone.match(/selected=""/g)).toHaveLength(1);
    expect(page.html).toContain('Type a city&#39;s first letters to find it');

    const fields = settingsForm(page).fields;
    expect((await b.post('/dashboard/settings', save({ ...fields, timezone: 'Europe/Lisbon' }))).status).toBe(303);
    expect((await businessRow(bid)).timezone).toBe('Europe/Lisbon');
    expect((await b.get('/dashboard/settings')).html).toContain('<option value="Europe/Lisbon" selected="">Lisbon</option>');

    // A fixed offset or a name that is no zone is refused, the business left in its zone.
    for (const timezone of ['+02:00', 'Europe/Atlantis', '']) {
      const refused = await b.post('/dashboard/settings', save({ ...fields, timezone }));
      expect(refused.status, timezone).toBe(400);
      expect(refused.html).toMatch(/id="field-timezone-error">Choose a time zone from the list/);
    }
    expect((await businessRow(bid)).timezone).toBe('Europe/Lisbon');
  });

  it('fills the venue’s position from a pasted map link and says where clock-ins count as on site', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const b = await signedIn(owner);
    const fields = settingsForm(await b.get('/dashboard/settings')).fields;
    const link =
      'https://www.google.com/maps/place/Harbour+Kitchen/@38.7200,-9.1400,17z/data=!3m1!4b1!4m6!3m5!1s0x0!8m2!3d38.7223!4d-9.1393!16s';
    const saved = await b.post(
      '/dashboard/settings',
      save({ ...fields, map_link: link, latitude: '', longitude: '', geofence_radius_m: '150', name: 'Harbour Kitchen' }),
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/dashboard/settings?business_id=${bid}&notice=saved-link`);
    expect(await businessRow(bid)).toMatchObject({
      latitude: 38.7223,
      longitude: -9.1393,
      geofence_radius_m: 150,
      name: 'Harbour Kitchen',
    });
    const shown = await b.get(saved.location!);
    expect(shown.html).toContain('The settings were saved, with the venue&#39;s position read from the map link.');
    expect(settingsForm(shown).fields).toMatchObject({ latitude: '38.7223', longitude: '-9.1393', map_link: '' });
    expect(shown.html).toContain('Clock-ins count as on site within 150 m of 38.7223, \u22129.1393.');

    // An OpenStreetMap link with a refusal elsewhere: the position it gives is shown in the fields, kept with the link.
    const osm = 'https://www.openstreetmap.org/?mlat=51.5413&mlon=-0.1420#map=17/51.5413/-0.1420';
    const refused = await b.post('/dashboard/settings', save({ ...settingsForm(shown).fields, map_link: osm, weekly_labor_budget: '-4' }));
    expect(refused.status).toBe(400);
    expect(settingsForm(refused).fields).toMatchObject({
      map_link: osm,
      latitude: '51.5413',
      longitude: '-0.142',
      weekly_labor_budget: '-4',
    });
    expect(refused.html).toContain('Clock-ins count as on site within 150 m of 51.5413, \u22120.1420.');
    expect(await businessRow(bid)).toMatchObject({ latitude: 38.7223, longitude: -9.1393 });

    // No position at all: the sentence says nothing is checked.
    expect((await b.post('/dashboard/settings', save({ ...settingsForm(shown).fields, latitude: '', longitude: '' }))).status).toBe(303);
    expect((await b.get('/dashboard/settings')).html).toContain('No venue location yet: clock-ins are not checked for being on site.');
  });

  it('refuses a form that names another business, in its address or its fields, and changes neither business', async () => {
    const owner = await makeUser({ business: true });
    const other = await makeUser({ business: true });
    const b = await signedIn(owner);
    await b.get('/dashboard/settings');
    const before = [await businessRow(owner.businessId!), await businessRow(other.businessId!)];
    const attempts = [
      b.post(`/dashboard/settings?business_id=${other.businessId}`, save({ weekly_labor_budget: '77' })),
      b.post('/dashboard/settings', { ...save({ weekly_labor_budget: '77' }), business_id: other.businessId! }),
      b.post('/dashboard/money/budget', {
        _idem: crypto.randomUUID(),
        weekly_labor_budget: '77',
        week: '',
        business_id: other.businessId!,
      }),
      b.post('/dashboard/settings', { ...save({ weekly_labor_budget: '77' }), business_id: 'biz_nosuchbusiness00000' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.html).toContain('names a business you do not act for');
    }
    expect([await businessRow(owner.businessId!), await businessRow(other.businessId!)]).toEqual(before);
    // Its own business, named, is fine.
    const own = await b.post('/dashboard/settings', { ...save({ weekly_labor_budget: '77' }), business_id: owner.businessId! });
    expect(own.status).toBe(303);
    // A post that lacks the other fields changes only the one it has.
    expect(await businessRow(owner.businessId!)).toEqual({
      ...before[0],
      weekly_labor_budget_minor: 7700,
      updated_at: expect.any(Number),
    });
  });

  it('makes the business the owner’s default', async () => {
    const owner = await makeUser({ business: true });
    const created = await call('POST', '/v1/business/create', { key: owner.key, body: { name: 'Second Spot', timezone: 'UTC' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const second = created.body.id as string;
    const b = await signedIn(owner);
    const page = await b.get(`/dashboard/settings?business_id=${second}`);
    expect(page.html).toContain('Make it my default business');
    // Its own form, after the settings form and not inside it.
    const formEnd = page.html.indexOf('</form>', page.html.indexOf('id="settings-form"'));
    expect(page.html.indexOf('action="/dashboard/settings/default')).toBeGreaterThan(formEnd);
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
    expect(page.html).not.toContain('id="settings-form"');
    expect(page.html).toContain('No radius: clock-ins are not checked against the venue at 40.7128, \u221274.0060.');
    expect(page.html).not.toContain('Link the partner');

    const refused = await b.post(
      `/dashboard/settings?business_id=${bid}`,
      save({ name: 'Harbour Kitchen', timezone: 'Europe/Lisbon', latitude: '38.7223', longitude: '-9.1393' }),
    );
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Only the owner or admin may do this for the business.');
    expect((await businessRow(bid)).name).not.toBe('Harbour Kitchen');
    const unlinked = await b.post(`/dashboard/settings/default?business_id=${bid}`, { _idem: crypto.randomUUID() });
    expect(unlinked.status).toBe(403);
  });
});
