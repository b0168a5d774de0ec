// The schedule of the business web application in a real browser, as the demo owner: a pending
// broadcast dragged 40 minutes later from its top, its middle and its bottom lands 45 minutes later
// each time (the nearest quarter hour to the drop) and, once confirmed, is a change request (the
// original superseded, a pending child with the new times); Cancel puts a dragged shift back; a
// targeted shift moved the same way by keyboard alone, its shifter's conflicts checked first; a resize
// that the labor card follows; a selected range that opens the prefilled post form; the hours fitted
// to the day's shifts and "Show all 24 hours"; the people view (crew down the side, each row's hours
// and cost, the open shifts), its CSV and its print. The week, the list, the dialog and the people view
// are axe-clean in light and dark at 1280 and 360 px.
// Screenshots go to the artifacts folder as schedule-<n>-<step>.png. Run through
// `BROWSER_TESTS=schedule npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ahead, apiCall, checkEverywhere, NO_OWNER, ORIGIN, queryD1, screenshots, signIn } from './app.mjs';
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
  // The calendar may be drawing its events again (a live signal): asked again until it is drawn.
  for (let i = 0; i < 20; i++) {
    await locator.waitFor({ state: 'visible' });
    await locator.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = await locator.boundingBox();
    if (box) return box;
    await locator.page().waitForTimeout(100);
  }
  return locator.boundingBox();
}

/** Pixels per minute of the time grid, from a shift's drawn height and its length. */
async function pxPerMinute(page, id, minutes) {
  const box = await eventEl(page, id).boundingBox();
  return box.height / minutes;
}

/** The element's top edge on the page (not the viewport), in pixels. */
/** Where a shift is drawn below the time grid's first slot (so neither the page's nor the grid's own scrolling moves it). */
const gridTop = (locator) =>
  locator.evaluate(
    (el) => el.getBoundingClientRect().top - document.querySelector('.schedule-calendar [data-time]').getBoundingClientRect().top,
  );

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
          // Back on the shift, also where a live signal has the calendar draw it again meanwhile.
          await page
            .waitForFunction((id) => document.activeElement?.dataset.shiftId === id, shift.id, { timeout: 3_000 })
            .catch(() => undefined);
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

  test('a shift dragged 40 minutes later from its top, middle or bottom lands 45 minutes later, a change request once confirmed; Cancel puts it back', async () => {
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
        /** Drags the shift `minutes` down, taking hold of it `grabPx` below its top edge (negative: above its bottom edge). */
        const drag = async (id, grabPx, minutes) => {
          const box = await centred(eventEl(page, id));
          const x = box.x + box.width / 2;
          const y = grabPx >= 0 ? box.y + grabPx : box.y + box.height + grabPx;
          await page.mouse.move(x, y);
          await page.mouse.down();
          for (let i = 1; i <= 8; i++) await page.mouse.move(x, y + (minutes * ppm * i) / 8);
          await page.mouse.up();
        };
        const dialog = page.getByRole('dialog', { name: 'Send this change?' });

        // Grabbed 3 px below its top (its first quarter hour) and moved 40 minutes: 45 minutes later.
        const before = await gridTop(eventEl(page, shift.id));
        await drag(shift.id, 3, 40);
        await dialog.waitFor();
        assert.match(await dialog.textContent(), /New.*09:45–13:45/);
        assert.match(await dialog.textContent(), /original is marked superseded/);
        await assertAccessibleInBothSchemes(page, 'schedule, a drag to confirm');
        await screenshot(page, 'drag-confirm');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
        // The dragged copy goes a frame or two after the dialog closes.
        let drawn = await eventEl(page, shift.id).count();
        for (let i = 0; i < 20 && drawn !== 1; i++) {
          await page.waitForTimeout(100);
          drawn = await eventEl(page, shift.id).count();
        }
        assert.equal(drawn, 1, 'Cancel left the shift drawn twice');
        // The calendar draws the shift again at its own times a frame or two after the dialog closes.
        let back = false;
        for (let i = 0; i < 20 && !back; i++) {
          back = Math.abs((await gridTop(eventEl(page, shift.id))) - before) < 1;
          if (!back) await page.waitForTimeout(100);
        }
        assert.ok(back, 'Cancel did not put the shift back');
        assert.equal((await apiCall(page, 'GET', `/v1/shift_request/${shift.id}`)).body.status, 'pending', 'Cancel changed the shift');
        assert.equal(await childOf(page, shift.id, date), undefined, 'Cancel made a change request');

        // From its top, its middle and its bottom (8 px above the lower edge, clear of the resize
        // handle), each sent through the service: 45 minutes later every time.
        let current = shift;
        const grabs = [
          ['top', 3, '09:45', '13:45'],
          ['middle', (await eventEl(page, shift.id).boundingBox()).height / 2, '10:30', '14:30'],
          ['bottom', -8, '11:15', '15:15'],
        ];
        for (const [where, grabPx, shiftIn, shiftOut] of grabs) {
          await drag(current.id, grabPx, 40);
          await dialog.waitFor();
          assert.match(await dialog.textContent(), new RegExp(`New.*${shiftIn}–${shiftOut}`), `grabbed at its ${where}`);
          await dialog.getByRole('button', { name: /^Send the change/ }).click();
          await page
            .getByRole('status')
            .filter({ hasText: `Change sent` })
            .filter({ hasText: `${shiftIn}–${shiftOut}` })
            .waitFor();
          const child = await assertChanged(page, current.id, date, shiftIn, shiftOut);
          await eventEl(page, child.id).waitFor();
          assert.match(await eventEl(page, child.id).textContent(), new RegExp(`${shiftIn}\\s*[–-]\\s*${shiftOut}.*Open broadcast`));
          assert.equal(await eventEl(page, current.id).count(), 0, 'the superseded request is still drawn');
          current = child;
        }
        const child = current;
        await assertAccessibleInBothSchemes(page, 'schedule, the change sent');
        await screenshot(page, 'drag-sent');

        // Resized 30 minutes longer: the labor card's expected total follows ($20/h × 0.5 h).
        const total = await expectedLabor(page);
        // Taken a few pixels above its lower edge once the pointer is over it (the end's handle shows
        // on hover); tried again a little higher if no dialog came (a notice may cover the very edge).
        for (const grabPx of [3, 5, 8]) {
          // The calendar draws its events again when a live signal comes: the shift as drawn now.
          await eventEl(page, child.id).waitFor({ state: 'visible' });
          const box = await centred(eventEl(page, child.id));
          if (!box) continue;
          await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          await page.waitForTimeout(100);
          const x = box.x + box.width / 2;
          const y = box.y + box.height - grabPx;
          await page.mouse.move(x, y);
          await page.mouse.down();
          for (let i = 1; i <= 8; i++) await page.mouse.move(x, y + (30 * ppm * i) / 8);
          await page.mouse.up();
          if (
            await dialog.waitFor({ timeout: 4_000 }).then(
              () => true,
              () => false,
            )
          )
            break;
        }
        await dialog.waitFor();
        assert.match(await dialog.textContent(), /New.*11:15–15:45/);
        await dialog.getByRole('button', { name: 'Send the change' }).click();
        await page.getByRole('status').filter({ hasText: 'Change sent' }).waitFor();
        await assertChanged(page, child.id, date, '11:15', '15:45');
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
        // All 24 hours, so the night's free time is on the grid whatever the day's shifts.
        await openSchedule(page, `date=${date}&view=day&hours=all`);
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
  test('the grid shows the hours of the day’s shifts with an hour either side, and all 24 on asking', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    await page.setViewportSize({ width: 360, height: 800 });
    try {
      await withEvidence(session, 'schedule-hours', async () => {
        await signIn(page);
        // A day past the demo world's schedule with no shift yet (other tests post ahead too), then one of this test alone.
        const taken = new Set(
          queryD1(`SELECT DISTINCT shift_date FROM shift_requests WHERE shift_date BETWEEN '${ahead(50)}' AND '${ahead(90)}'`).map(
            (r) => r.shift_date,
          ),
        );
        let days = 50;
        while (taken.has(ahead(days))) days++;
        const date = ahead(days);
        await postPending(page, date, '10:00', '14:00');
        await openSchedule(page, `date=${date}&view=day`);
        const slots = () =>
          page.evaluate(() => {
            const times = [...document.querySelectorAll('.schedule-calendar [data-time]')].map((e) => e.dataset.time);
            return { first: times[0], last: times.at(-1) };
          });
        const toggle = page.getByRole('button', { name: 'Show all 24 hours' });
        assert.match(await page.locator('.schedule-hours').textContent(), /Shown: 09:00–15:00, an hour either side of this day's shifts/);
        assert.deepEqual(await slots(), { first: '09:00:00', last: '14:45:00' });
        assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
        // Six hours of grid, not twenty-four: the page of a day on a phone stays short.
        const grid = await page.locator('.schedule-calendar').evaluate((el) => el.getBoundingClientRect().height);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        assert.ok(grid < 800 && height < 2500, `the day's calendar is ${grid} px tall, its page ${height} px, on a phone`);
        await screenshot(page, 'hours-fitted-360');

        await toggle.focus();
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.querySelector('.schedule-calendar [data-time]')?.dataset.time === '00:00:00');
        assert.deepEqual(await slots(), { first: '00:00:00', last: '23:45:00' });
        assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
        assert.equal(new URL(page.url()).searchParams.get('hours'), 'all');
        assert.match(await page.locator('.schedule-hours').textContent(), /All 24 hours are shown/);
        await assertAccessibleInBothSchemes(page, 'schedule, all 24 hours');
        await screenshot(page, 'hours-all-360');

        // Kept by the address; pressed again, back to the day's hours.
        await page.reload();
        await page.locator('[data-island="schedule"][data-island-ready]').waitFor();
        assert.equal(await page.getByRole('button', { name: 'Show all 24 hours' }).getAttribute('aria-pressed'), 'true');
        await page.getByRole('button', { name: 'Show all 24 hours' }).click();
        await page.waitForFunction(() => document.querySelector('.schedule-calendar [data-time]')?.dataset.time === '09:00:00');
        assert.equal(new URL(page.url()).searchParams.get('hours'), null);
      });
    } finally {
      await session.context.close();
    }
  });

  test('the people view: the crew down the side, each row’s hours and cost, the open shifts; its CSV and print', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 900 });
    try {
      await withEvidence(session, 'schedule-people', async () => {
        await signIn(page);
        // A week past the demo world's schedule: only this test's shifts ($20/h).
        const date = ahead(64);
        const targeted = await postPending(page, date, '10:00', '14:00', { targeted: true });
        const open = await postPending(page, date, '17:00', '22:00');
        await openSchedule(page, `date=${date}`);
        // From the calendar's toolbar, for the week shown.
        await page.getByRole('navigation', { name: 'Schedule: views and the week' }).getByRole('link', { name: 'People' }).click();
        await page.waitForURL((u) => u.searchParams.get('view') === 'people');
        const table = page.getByRole('region', { name: /by person$/ });
        await table.waitFor();
        const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: targeted.shifter_name }) });
        assert.match(await row.textContent(), /10:00–14:00.*Waiting for answer.*4 h\s*\$80\.00\s*1 shift/);
        const openRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Open shifts' }) });
        assert.match(await openRow.textContent(), /17:00–22:00.*Open broadcast.*5 h\s*\$100\.00/);
        const total = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Week total' }) });
        assert.match(await total.textContent(), /9 h\s*\$180\.00\s*2 shifts/);
        // Each shift leads to its page.
        assert.ok(await row.locator(`a[href*="/dashboard/shifts/${targeted.id}"]`).count());
        assert.ok(await openRow.locator(`a[href*="/dashboard/shifts/${open.id}"]`).count());
        await checkEverywhere(page, screenshot, 'people');

        // At 360 px the table scrolls inside its labelled region, with the hint beside it.
        await page.setViewportSize({ width: 360, height: 800 });
        assert.ok(await page.getByText('scroll the table sideways').isVisible(), 'no hint that the table scrolls');
        assert.ok(await table.evaluate((el) => el.scrollWidth > el.clientWidth), 'the table does not scroll inside its region');
        await page.setViewportSize({ width: 1280, height: 900 });

        // The week's CSV, as the link downloads it.
        const csvHref = await page.getByRole('link', { name: 'Download the week (CSV)' }).getAttribute('href');
        const csv = await page.evaluate(async (href) => {
          const res = await fetch(href);
          return { type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), text: await res.text() };
        }, csvHref);
        assert.match(csv.type, /^text\/csv/);
        assert.match(csv.disposition, /attachment; filename="schedule-.*\.csv"/);
        const lines = csv.text.trim().split('\r\n');
        assert.equal(lines[0], 'date,start,end,role,person,status,hours,cost (USD)');
        assert.ok(lines.includes(`${date},10:00,14:00,${targeted.role},${targeted.shifter_name},Waiting for answer,4.00,80.00`), csv.text);
        assert.ok(lines.includes(`${date},17:00,22:00,${open.role},Open to the crew,Open broadcast,5.00,100.00`), csv.text);

        // Printed: the week alone, black on white, without the navigation or the toolbar.
        await page.emulateMedia({ media: 'print' });
        const printed = await page.evaluate(() => ({
          nav: getComputedStyle(document.querySelector('.app-nav')).display,
          header: getComputedStyle(document.querySelector('.site-header')).display,
          toolbar: getComputedStyle(document.querySelector('.schedule-toolbar')).display,
          bg: getComputedStyle(document.body).backgroundColor,
          text: getComputedStyle(document.querySelector('.people-week')).color,
        }));
        assert.deepEqual(printed, { nav: 'none', header: 'none', toolbar: 'none', bg: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)' });
        await screenshot(page, 'people-print');
        await page.emulateMedia({ media: 'screen' });
        assert.ok(await page.getByRole('button', { name: 'Print' }).isVisible(), 'no Print button');
      });
    } finally {
      await session.context.close();
    }
  });
});
