// The business settings page in a real browser, as the demo owner: edits typed in three sections
// (the profile's address, the clock-in radius, the weekly budget) all kept by the one Save; a refusal
// in one section showing its message beside the field with what was typed in every section still
// there; "Use this device's position" filling the venue's latitude and longitude from the browser's
// geolocation (granted and set on the context) and the sentence saying where clock-ins count as on
// site. The page is axe-clean in light and dark at 1280 and 360 px with no sideways scroll at each
// step; screenshots go to the artifacts folder as settings-<n>-<step>.png. The bistro's settings are
// put back afterwards, so the files after this one find the demo as seeded.
// Run through `npm run test:browser` (BROWSER_TESTS=settings for this file alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiCall, checkEverywhere, NO_OWNER, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import { assertNoForeignCode, assertStayedOffline, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = NO_OWNER;
const screenshot = screenshots('settings');
const MINUS = '\u2212';
const REFUSED_LOAD = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The settings page with its island ready (the device button shown). */
async function openSettings(page) {
  await page.goto(`${ORIGIN}/dashboard/settings`);
  await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
  await page.locator('fieldset[data-island="venue-location"][data-island-ready]').waitFor();
}

/** The form's settings as they stand on the page, and the business they are for. */
const formState = (page) =>
  page.evaluate(() => {
    const form = document.querySelector('#settings-form');
    const v = (name) => form.elements.namedItem(name);
    const checked = (name) => form.querySelector(`input[type=checkbox][name="${name}"]`).checked;
    return {
      business_id: new URL(form.action).searchParams.get('business_id'),
      name: v('name').value,
      timezone: v('timezone').value,
      address: v('address').value,
      latitude: v('latitude').value,
      longitude: v('longitude').value,
      geofence_radius_m: v('geofence_radius_m').value,
      weekly_labor_budget: v('weekly_labor_budget').value,
      require_clock_photo: checked('require_clock_photo'),
      auto_fill_on_cancel: checked('auto_fill_on_cancel'),
    };
  });

/** Puts the bistro's settings back as they were read (through the API, with the page's session). */
async function restore(page, was) {
  const num = (v) => (v === '' ? null : Number(v));
  const res = await apiCall(page, 'PUT', '/v1/business/update_settings', {
    business_id: was.business_id,
    name: was.name,
    timezone: was.timezone,
    address: was.address || null,
    latitude: num(was.latitude),
    longitude: num(was.longitude),
    geofence_radius_m: num(was.geofence_radius_m),
    weekly_labor_budget: num(was.weekly_labor_budget),
    require_clock_photo: was.require_clock_photo,
    auto_fill_on_cancel: was.auto_fill_on_cancel,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** Types into a field from the keyboard, replacing what it held. */
async function retype(page, label, text) {
  const field = page.getByLabel(label, { exact: true });
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  if (text) await page.keyboard.type(text);
}

describe('business settings', { skip }, () => {
  test('edits in three sections are kept by one save, and a refusal keeps them all', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    let was;
    try {
      await withEvidence(session, 'settings-save', async () => {
        await signIn(page, owner, '/dashboard/settings');
        await openSettings(page);
        was = await formState(page);
        await checkEverywhere(page, screenshot, 'page');

        // A refusal first: the radius under 10 m, with the address and the budget typed too.
        await retype(page, 'Address (optional)', '12 Harbor Street, New York');
        await retype(page, 'Geofence radius (meters)', '5');
        await retype(page, 'Weekly labor budget (USD)', '3100');
        await page.getByLabel('When a shifter cancels, offer the shift to the crew at once').focus();
        await page.keyboard.press('Space');
        await page.getByRole('button', { name: 'Save the settings' }).focus();
        await page.keyboard.press('Enter');
        await page.getByText('Nothing was saved: one field needs a change').waitFor();
        const radius = page.getByLabel('Geofence radius (meters)', { exact: true });
        assert.equal(await radius.getAttribute('aria-invalid'), 'true');
        assert.match(await page.locator('#field-geofence_radius_m-error').textContent(), /whole number of meters from 10 to 100000/);
        // The refused field has the focus; every section's typed values are still there.
        // (autofocus is applied at the page's first rendering, which may come after its text is found).
        await page.waitForFunction(() => document.activeElement?.id === 'field-geofence_radius_m', undefined, { timeout: 5_000 });
        const refused = await formState(page);
        assert.equal(refused.address, '12 Harbor Street, New York');
        assert.equal(refused.geofence_radius_m, '5');
        assert.equal(refused.weekly_labor_budget, '3100');
        assert.equal(refused.auto_fill_on_cancel, !was.auto_fill_on_cancel);
        await checkEverywhere(page, screenshot, 'refused');

        // Fixed in place and saved once: all three sections' edits are kept.
        await retype(page, 'Geofence radius (meters)', '175');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'saved'),
          page.getByRole('button', { name: 'Save the settings' }).click(),
        ]);
        await page.getByText('The settings were saved.').waitFor();
        await page.locator('fieldset[data-island="venue-location"][data-island-ready]').waitFor();
        const saved = await formState(page);
        assert.deepEqual(saved, {
          ...was,
          address: '12 Harbor Street, New York',
          geofence_radius_m: '175',
          weekly_labor_budget: '3100',
          auto_fill_on_cancel: !was.auto_fill_on_cancel,
        });
        const lat = Number(was.latitude).toFixed(4).replace('-', MINUS);
        const lon = Number(was.longitude).toFixed(4).replace('-', MINUS);
        await page.getByText(`Clock-ins count as on site within 175 m of ${lat}, ${lon}.`).waitFor();
        await checkEverywhere(page, screenshot, 'saved');
        assertNoForeignCode(session);
        // The refused save is answered 400 with the page and its messages, which Chromium logs as a
        // failed load: that one line is expected, any other is not.
        const refusedLoad = session.record.consoleErrors.indexOf(REFUSED_LOAD);
        assert.ok(refusedLoad >= 0, 'the refused save was answered 400');
        session.record.consoleErrors.splice(refusedLoad, 1);
        await assertStayedOffline(session);
      });
    } finally {
      if (was) await restore(page, was);
      await session.context.close();
    }
  });

  test("the device's position fills the venue's location", async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page, context } = session;
    let was;
    try {
      await withEvidence(session, 'settings-device', async () => {
        await context.grantPermissions(['geolocation'], { origin: ORIGIN });
        await context.setGeolocation({ latitude: 40.7128, longitude: -74.006, accuracy: 12 });
        await signIn(page, owner, '/dashboard/settings');
        await openSettings(page);
        was = await formState(page);

        // A pasted link is replaced by the device's position, which the sentence follows at once.
        await retype(page, 'Map link (optional)', 'https://maps.app.goo.gl/AbCd123');
        const button = page.getByRole('button', { name: "Use this device's position" });
        await button.focus();
        await page.keyboard.press('Enter');
        await page.getByText("Filled in from this device's position (to about 12 m), in place of the map link.").waitFor();
        const filled = await formState(page);
        assert.equal(filled.latitude, '40.712800');
        assert.equal(filled.longitude, '-74.006000');
        assert.equal(await page.getByLabel('Map link (optional)', { exact: true }).inputValue(), '');
        const radius = was.geofence_radius_m;
        const sentence = radius
          ? `Clock-ins count as on site within ${radius} m of 40.7128, ${MINUS}74.0060.`
          : `No radius: clock-ins are not checked against the venue at 40.7128, ${MINUS}74.0060.`;
        assert.equal(await page.locator('#location-preview').textContent(), sentence);
        await checkEverywhere(page, screenshot, 'device-filled');

        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'saved'),
          page.getByRole('button', { name: 'Save the settings' }).click(),
        ]);
        await page.locator('fieldset[data-island="venue-location"][data-island-ready]').waitFor();
        const saved = await formState(page);
        assert.equal(saved.latitude, '40.7128');
        assert.equal(saved.longitude, '-74.006');
        assert.equal(await page.locator('#location-preview').textContent(), sentence);
        await screenshot(page, 'device-saved');
        assertNoForeignCode(session);
        await assertStayedOffline(session);
      });
    } finally {
      if (was) await restore(page, was);
      await session.context.close();
    }
  });
});
