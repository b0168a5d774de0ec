// Bulk posting and a shifter already booked, in a real browser, as the demo owner: Jordan has
// accepted a shift at 01:00–02:30 on a weekday night a month ahead; the owner pastes four rows: two
// for Jordan at the same time (the second is marked before anything is sent, as asking Jordan twice),
// one over Jordan's accepted shift (marked from the conflicts operation, in words) and a broadcast.
// Sending posts the two unmarked rows only; ticking "Send row 3 anyway" sends that one deliberately,
// and the row then shows the service's shifter_busy warning. The table is axe-clean in light and dark
// (at 1280 and 360 px) marked and after sending; screenshots go to the artifacts folder as
// bulk-conflicts-<n>-<step>.png. Run through `BROWSER_TESTS=bulk-conflicts npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, ahead, apiCall, checkEverywhere, NO_OWNER, ORIGIN, screenshots, signIn } from './app.mjs';
import { assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = NO_OWNER;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const screenshot = screenshots('bulk-conflicts');

/** The business's shifts on a date, read through the API with the page's session. */
async function shiftsOn(page, date) {
  const res = await apiCall(page, 'POST', '/v1/shift_request/list_of_requests', {
    as: 'business',
    date_from: date,
    date_to: date,
    limit: 200,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

describe('bulk posting and booked shifters', { skip }, () => {
  test('marks a row whose shifter is booked or asked twice before sending, and sends it only when told to', async () => {
    const jordan = account('jordan');
    assert.ok(jordan, 'BROWSER_ACCOUNTS lists no demo shifter jordan');
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const shifter = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    try {
      await withEvidence(session, 'bulk-conflicts', async () => {
        // A Monday to Thursday night a month ahead, past the demo's own shifts.
        let day = 30;
        while (![1, 2, 3, 4].includes(new Date(`${ahead(day)}T12:00:00Z`).getUTCDay())) day += 1;
        const date = ahead(day);
        await signIn(page);
        await signIn(shifter.page, jordan);
        const jordanId = (await apiCall(shifter.page, 'GET', '/v1/shifter/of_user')).body.id;
        const busy = await apiCall(page, 'POST', '/v1/shift_request/send_request', {
          shift_date: date,
          shift_in: '01:00',
          shift_out: '02:30',
          shiftrole_id: 1,
          hourly_rate: 22,
          shifter_id: jordanId,
        });
        assert.equal(busy.status, 201, JSON.stringify(busy.body));
        assert.deepEqual(busy.body.warnings, [], 'Jordan was already booked at 01:00–02:30');
        const accepted = await apiCall(shifter.page, 'POST', `/v1/shift_request/${busy.body.id}/accept`, {});
        assert.equal(accepted.status, 200, JSON.stringify(accepted.body));

        await page.goto(`${ORIGIN}/dashboard/bulk`);
        await page.locator('[data-island="bulk"][data-island-ready]').waitFor();
        const run = Math.random().toString(36).slice(2, 8);
        const note = (n) => `Conflicts ${run} row ${n}`;
        await page.fill(
          '#bulk-text',
          [
            `${date}, 10:00, 14:00, Server, 20, Jordan Rivera, ${note(1)}`,
            `${date}, 10am, 2pm, Server, 20, Jordan Rivera, ${note(2)}`,
            `${date}, 02:00, 04:00, Server, 20, Jordan Rivera, ${note(3)}`,
            `${date}, 18:00, 20:00, Server, 20, broadcast, ${note(4)}`,
          ].join('\n'),
        );
        await page.getByRole('button', { name: 'Check rows' }).click();
        const status = page.locator('[data-island="bulk"] p[role="status"]');
        await status
          .getByText('4 row(s) read. 2 row(s) held back: the shifter is already booked or asked then.')
          .waitFor({ timeout: 20_000 });

        // Before anything is sent: the second of the two same-time rows, and the row over the accepted shift.
        const row = (n) => page.locator(`tr[data-row="${n}"]`);
        await row(2).getByText('Jordan Rivera is already asked for 10:00–14:00 that day in row 1.').waitFor();
        await row(3).getByText('Jordan Rivera already works 01:00–02:30 that day.').waitFor();
        for (const n of [1, 4]) assert.equal(await row(n).locator('[data-clash]').count(), 0, `row ${n} is marked`);
        assert.equal(await row(2).locator('.badge').textContent(), 'Held back');
        assert.equal(await row(3).locator('.badge').textContent(), 'Held back');
        assert.equal((await shiftsOn(page, date)).filter((s) => s.note?.startsWith(`Conflicts ${run}`)).length, 0, 'sent before asked');
        await checkEverywhere(page, screenshot, 'marked');

        // Sending sends the two rows nobody is booked for.
        await page.getByRole('button', { name: 'Send 2 row(s)' }).click();
        await status.getByText('2 shift(s) posted.').waitFor({ timeout: 30_000 });
        assert.equal(await row(1).getAttribute('data-state'), 'posted');
        assert.equal(await row(4).getAttribute('data-state'), 'posted');
        assert.equal(await row(2).locator('.badge').textContent(), 'Held back');

        // The owner sends row 3 deliberately; the service's warning shows beside it.
        await page.getByLabel('Send row 3 anyway').check();
        await page.getByRole('button', { name: 'Send the 1 row(s) not posted yet' }).click();
        await status.getByText('3 shift(s) posted. 1 of them with a warning').waitFor({ timeout: 30_000 });
        const warning = row(3).locator('[data-warning="shifter_busy"]');
        await warning.waitFor();
        assert.match((await warning.textContent()) ?? '', /^Jordan Rivera already works 01:00–02:30 that day\. They cannot accept/);
        await checkEverywhere(page, screenshot, 'sent-anyway');

        const posted = (await shiftsOn(page, date)).filter((s) => s.note?.startsWith(`Conflicts ${run}`));
        assert.deepEqual(posted.map((s) => s.note).sort(), [note(1), note(3), note(4)]);
        const third = posted.find((s) => s.note === note(3));
        assert.equal(third.shifter_id, jordanId);
        assert.equal(third.status, 'pending');
        assertNoForeignCode(session);
      });
    } finally {
      await shifter.context.close();
      await session.context.close();
    }
  });
});
