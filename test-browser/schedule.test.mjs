// The schedule of the business web application in a real browser, as the demo owner: a pending
// broadcast dragged 40 minutes later lands 45 minutes later (15-minute snap) and, once confirmed,
// is a change request (the original superseded, a pending child with the new times); Cancel puts a
// dragged shift back; a targeted shift moved the same way by keyboard alone, its shifter's conflicts
// checked first; a resize that the labor card follows; a selected range that opens the prefilled
// post form. The week, the list and the dialog are axe-clean in light and dark at 1280 and 360 px.
// Screenshots go to the artifacts folder as schedule-<n>-<step>.png. Run through
// `BROWSER_TESTS=schedule npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ahead, apiCall, NO_OWNER, ORIGIN, screenshots, signIn } from './app.mjs';
import {
  assertAccessible,
  assertAccessibleInBothSchemes,
  assertNoForeignCode,
  launchBrowser,
  openOffline,
  tabUntil,
  withEvidence,
} from './offline.mjs';

const skip = NO_OWNER;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const screenshot = screenshots('schedule');

/** Posts a pending shift on `date` (role 1, $20/h): a broadcast, or targeted at the first crew member who takes requests. */
async function postPending(page, date, shiftIn, shiftOut, { targeted = false } = {}) {
  const base = { shift_date: date, shift_in: shiftIn, shift_out: shiftOut, shiftrole_id: 1, hourly_rate: 20 };
  if (!targeted) {
    const res = await apiCall(page, 'POST', '/v1/shift_request/send_request', { ...base, is_broadcast: true });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }
  const crew = await apiCall(page, 'POST', '/v1/request_authorization/list_of_requests', { as: 'business', status: 'accepted' });
  for (const c of crew.body.accepted) {
    const res = await apiCall(page, 'POST', '/v1/shift_request/send_request', { ...base, shifter_id: c.shifter_id });
    if (res.status === 201) return res.body;
  }
  assert.fail('no crew member of the demo business takes requests');
}

/** The child a change request made of `id`, read through the API. */
async function childOf(page, id, date) {
  const list = await apiCall(page, 'POST', '/v1/shift_request/list_of_requests', {
    as: 'business',
    date_from: date,
    date_to: date,
    limit: 200,
  });
  return list.body.data.find((s) => s.parent_id === id);
}

async function assertChanged(page, id, date, shiftIn, shiftOut) {
  const original = await apiCall(page, 'GET', `/v1/shift_request/${id}`);
  assert.equal(original.body.status, 'superseded', 'the original request is not superseded');
  const child = await childOf(page, id, date);
  assert.ok(child, 'no child request was made');
  assert.equal(child.status, 'pending');
  assert.equal(`${child.shift_in}–${child.shift_out}`, `${shiftIn}–${shiftOut}`);
  return child;
}

async function openSchedule(page, query) {
  await page.goto(`${ORIGIN}/dashboard/schedule?${query}`);
  await page.locator('[data-island="schedule"][data-island-ready]').waitFor();
  await page.locator('.schedule-calendar [data-shift-id]').first().waitFor();
}

const eventEl = (page, id) => page.locator(`.schedule-calendar [data-shift-id="${id}"]`);

/** Scrolls so that an element sits in the middle of the viewport, and returns its box. */
async function centred(locator) {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  return locator.boundingBox();
}

/** Pixels per minute of the time grid, from a shift's drawn height and its length. */
async function pxPerMinute(page, id, minutes) {
  const box = await eventEl(page, id).boundingBox();
  return box.height / minutes;
}

/** The element's top edge on the page (not the viewport), in pixels. */
const pageTop = (locator) => locator.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);

/** Presses Tab until the element with this id has the focus (at most `max` presses); false if it never does. */
async function tabToId(page, id, max = 8) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((want) => document.activeElement?.id === want, id)) return true;
  }
  return false;
}

/** The labor card's expected total, as a number. */
async function expectedLabor(page) {
  const text = await page.locator('[data-schedule-labor] .stat').textContent();
  return Number(text.replace(/[^0-9.]/g, ''));
}

describe('business web application: the schedule', { skip }, () => {
  for (const [scheme, width] of [
    ['light', 1280],
    ['dark', 1280],
    ['light', 360],
    ['dark', 360],
  ]) {
    test(`the week, the list and the change dialog are axe-clean (${scheme}, ${width} px)`, async () => {
      const session = await openOffline(browser, ORIGIN, { colorScheme: scheme });
      const { page } = session;
      await page.setViewportSize({ width, height: 900 });
      try {
        await withEvidence(session, `schedule-${scheme}-${width}`, async () => {
          await signIn(page);
          const date = ahead(10);
          const shift = await postPending(page, date, '10:00', '14:00');
          await openSchedule(page, `date=${date}`);
          // A phone starts on the day (seven columns would be unreadable); a wide screen on the week.
          assert.equal(new URL(page.url()).searchParams.get('view'), width < 640 ? 'day' : null);
          await eventEl(page, shift.id).waitFor();
          await assertAccessible(page, `schedule, ${scheme}, ${width} px`);
          await screenshot(page, `${width < 640 ? 'day' : 'week'}-${scheme}-${width}`);
          const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
          assert.equal(scrolls, false, 'the schedule scrolls sideways');

          // The change dialog, opened from the keyboard.
          await eventEl(page, shift.id).focus();
          await page.keyboard.press('Enter');
          await page.getByRole('dialog', { name: /^Move or resize/ }).waitFor();
          await assertAccessible(page, `change dialog, ${scheme}, ${width} px`);
          await screenshot(page, `dialog-${scheme}-${width}`);
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'hidden' });
          assert.equal(
            await page.evaluate(() => document.activeElement?.dataset.shiftId),
            shift.id,
            'the focus did not return to the shift',
          );

          // The list view, from the calendar's toolbar; the address follows.
          await page.getByRole('tab', { name: 'List view' }).click();
          await page.waitForURL((u) => u.searchParams.get('view') === 'list');
          await eventEl(page, shift.id).waitFor();
          await assertAccessible(page, `schedule list, ${scheme}, ${width} px`);
          assert.equal(
            await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth),
            false,
            'the list scrolls sideways',
          );
          await screenshot(page, `list-${scheme}-${width}`);
          assertNoForeignCode(session);
        });
      } finally {
        await session.context.close();
      }
    });
  }

  test('a shift dragged 40 minutes later lands 45 minutes later and becomes a change request once confirmed; Cancel puts it back', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 900 });
    try {
      await withEvidence(session, 'schedule-drag', async () => {
        await signIn(page);
        const date = ahead(11);
        const shift = await postPending(page, date, '09:00', '13:00');
        await openSchedule(page, `date=${date}`);
        const ppm = await pxPerMinute(page, shift.id, 240);
        const drag = async (id, fromOffsetMin, minutes) => {
          const box = await centred(eventEl(page, id));
          const x = box.x + box.width / 2;
          const y = box.y + fromOffsetMin * ppm;
          await page.mouse.move(x, y);
          await page.mouse.down();
          for (let i = 1; i <= 8; i++) await page.mouse.move(x, y + (minutes * ppm * i) / 8);
          await page.mouse.up();
        };

        // Grabbed 10 minutes into its first quarter hour and moved 40 minutes: it snaps to +45.
        const before = await pageTop(eventEl(page, shift.id));
        await drag(shift.id, 10, 40);
        const dialog = page.getByRole('dialog', { name: 'Send this change?' });
        await dialog.waitFor();
        assert.match(await dialog.textContent(), /New.*09:45–13:45/);
        assert.match(await dialog.textContent(), /original is marked superseded/);
        await assertAccessibleInBothSchemes(page, 'schedule, a drag to confirm');
        await screenshot(page, 'drag-confirm');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
        assert.ok(Math.abs((await pageTop(eventEl(page, shift.id))) - before) < 1, 'Cancel did not put the shift back');
        assert.equal((await apiCall(page, 'GET', `/v1/shift_request/${shift.id}`)).body.status, 'pending', 'Cancel changed the shift');
        assert.equal(await childOf(page, shift.id, date), undefined, 'Cancel made a change request');

        // Again, and sent.
        await drag(shift.id, 10, 40);
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Send the change' }).click();
        await page.getByRole('status').filter({ hasText: 'Change sent' }).waitFor();
        const child = await assertChanged(page, shift.id, date, '09:45', '13:45');
        await eventEl(page, child.id).waitFor();
        assert.match(await eventEl(page, child.id).textContent(), /09:45\s*[–-]\s*13:45.*Open broadcast/);
        assert.equal(await eventEl(page, shift.id).count(), 0, 'the superseded request is still drawn');
        await assertAccessibleInBothSchemes(page, 'schedule, the change sent');
        await screenshot(page, 'drag-sent');

        // Resized 30 minutes longer: the labor card's expected total follows ($20/h × 0.5 h).
        const total = await expectedLabor(page);
        const box = await centred(eventEl(page, child.id));
        const x = box.x + box.width / 2;
        const y = box.y + box.height - 3;
        await page.mouse.move(x, y);
        await page.mouse.down();
        for (let i = 1; i <= 8; i++) await page.mouse.move(x, y + (30 * ppm * i) / 8);
        await page.mouse.up();
        await dialog.waitFor();
        assert.match(await dialog.textContent(), /New.*09:45–14:15/);
        await dialog.getByRole('button', { name: 'Send the change' }).click();
        await page.getByRole('status').filter({ hasText: 'Change sent' }).waitFor();
        await assertChanged(page, child.id, date, '09:45', '14:15');
        await page.waitForFunction((t) => {
          const text = document.querySelector('[data-schedule-labor] .stat')?.textContent ?? '';
          return Number(text.replace(/[^0-9.]/g, '')) !== t;
        }, total);
        assert.equal(Math.round(((await expectedLabor(page)) - total) * 100) / 100, 10, 'the labor card did not follow the resize');
        await screenshot(page, 'resize-labor');
        assertNoForeignCode(session);
      });
    } finally {
      await session.context.close();
    }
  });

  test('the same move by keyboard alone: Tab to the shift, Enter, 15-minute steps, the conflicts checked, Enter to send', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 900 });
    try {
      await withEvidence(session, 'schedule-keyboard', async () => {
        await signIn(page);
        const date = ahead(12);
        const shift = await postPending(page, date, '15:00', '19:00', { targeted: true });
        await openSchedule(page, `date=${date}&view=day`);
        await eventEl(page, shift.id).waitFor();

        await page.locator('main h1').click();
        const presses = await tabUntil(page, () => document.activeElement?.dataset.shiftId !== undefined, 40);
        assert.ok(presses, 'Tab never reached a shift');
        for (let i = 0; i < 60 && (await page.evaluate(() => document.activeElement?.dataset.shiftId)) !== shift.id; i++) {
          await page.keyboard.press('Tab');
        }
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.shiftId), shift.id, 'Tab never reached the shift');
        const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
        assert.notEqual(ring, 'none', 'no focus ring on the shift');
        await page.keyboard.press('Enter');
        const edit = page.getByRole('dialog', { name: /^Move or resize/ });
        await edit.waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'move-date');

        // Each time field: its minutes, three 15-minute steps up.
        for (const id of ['move-in', 'move-out']) {
          assert.ok(await tabToId(page, id), `Tab never reached #${id}`);
          await page.keyboard.press('ArrowRight');
          for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
        }
        assert.equal(await page.inputValue('#move-in'), '15:45');
        assert.equal(await page.inputValue('#move-out'), '19:45');
        await screenshot(page, 'keyboard-edit');
        await tabUntil(page, () => document.activeElement?.textContent === 'Review the change', 6);
        await page.keyboard.press('Enter');

        const confirm = page.getByRole('dialog', { name: 'Send this change?' });
        await confirm.waitFor();
        assert.match(await confirm.textContent(), /New.*15:45–19:45/);
        await confirm.getByText(/No conflict with|is already busy then|could not be checked/).waitFor();
        assert.doesNotMatch(await confirm.textContent(), /could not be checked/);
        await assertAccessibleInBothSchemes(page, 'schedule, a keyboard move to confirm');
        await screenshot(page, 'keyboard-confirm');
        assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /^Send the change/);
        await page.keyboard.press('Enter');
        await page.getByRole('status').filter({ hasText: 'Change sent' }).waitFor();
        const child = await assertChanged(page, shift.id, date, '15:45', '19:45');
        assert.equal(child.shifter_id, shift.shifter_id);
        // The focus lands on the new request.
        await page.waitForFunction((id) => document.activeElement?.dataset.shiftId === id, child.id);
        await screenshot(page, 'keyboard-sent');
        assertNoForeignCode(session);
      });
    } finally {
      await session.context.close();
    }
  });

  test('selecting free time opens the post form prefilled with its date and times', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 900 });
    try {
      await withEvidence(session, 'schedule-select', async () => {
        await signIn(page);
        const date = ahead(13);
        await openSchedule(page, `date=${date}&view=day`);
        const lane = page.locator(`.schedule-calendar [data-date="${date}"]`).last();
        const row = (t) => page.locator(`.schedule-calendar [data-time="${t}"]`).first();
        await centred(row('04:00:00'));
        const laneBox = await lane.boundingBox();
        const x = laneBox.x + laneBox.width * 0.8;
        const from = (await row('03:00:00').boundingBox()).y + 3;
        const to = (await row('05:00:00').boundingBox()).y - 3;
        await page.mouse.move(x, from);
        await page.mouse.down();
        for (let i = 1; i <= 8; i++) await page.mouse.move(x, from + ((to - from) * i) / 8);
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/shifts/new'), page.mouse.up()]);
        const url = new URL(page.url());
        assert.equal(url.searchParams.get('date'), date);
        assert.equal(url.searchParams.get('in'), '03:00');
        assert.equal(url.searchParams.get('out'), '05:00');
        assert.ok(url.searchParams.get('business_id'), 'the form lost the business');
        assert.equal(await page.inputValue('#field-shift_date'), date);
        assert.equal(await page.inputValue('#field-shift_in'), '03:00');
        assert.equal(await page.inputValue('#field-shift_out'), '05:00');
        await assertAccessibleInBothSchemes(page, 'post a shift, prefilled from the schedule');
        await screenshot(page, 'selected-post-form');
      });
    } finally {
      await session.context.close();
    }
  });
});
