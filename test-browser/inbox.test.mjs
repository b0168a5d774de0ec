// The inbox and notifications in Chromium, as the demo owner (Maya Ortiz, Harbor Street Bistro) and
// the demo shifter Jordan Rivera in two browser contexts: each sees the other's message appear without
// reloading; Jordan accepts a request (it moves to All); a send that fails offline stays in the box with
// a Retry that sends it once back online; the notifications page, mark all read, preferences saved;
// browser push turned on, and a message's notification reaching the local stand-in of a push service
// (test-browser/push-service.mjs) encrypted for that subscription, then shown by the service worker.
// axe-core in light and dark at 360 and 1280 px; screenshots as inbox-<n>-<step>.png.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ACCOUNTS, apiCall, NO_OWNER, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import { assertAccessibleInBothSchemes, assertStayedOffline, launchBrowser, openOffline, withEvidence } from './offline.mjs';
import { checkVapid, newSubscription, startPushService } from './push-service.mjs';

const jordan = ACCOUNTS.find((a) => a.email.startsWith('jordan@'));
const skip =
  NO_OWNER || (!jordan && 'BROWSER_ACCOUNTS lists no Jordan') || (!process.env.PUSH_SERVICE_PORT && 'run through `npm run test:browser`');
const shot = screenshots('inbox');

let browser;
let pushService;
let maya;
let jo;
before(async () => {
  if (skip) return;
  browser = await launchBrowser();
  pushService = await startPushService(Number(process.env.PUSH_SERVICE_PORT));
  maya = await openOffline(browser, ORIGIN);
  jo = await openOffline(browser, ORIGIN);
  await signIn(maya.page, owner);
  await signIn(jo.page, jordan, '/dashboard/shifter');
});
after(async () => {
  await maya?.close();
  await jo?.close();
  await pushService?.close();
  await browser?.close();
});

/** Opens the thread whose inbox row contains `text` and waits for its live connection. */
async function openThread(page, text, tab = '') {
  await page.goto(`${ORIGIN}/inbox${tab ? `?tab=${tab}` : ''}`);
  await Promise.all([page.waitForURL(/\/inbox\/cnv_/), page.locator('a.thread-row', { hasText: text }).first().click()]);
  await page.locator('[data-island="thread"][data-live="open"]').waitFor();
}

async function send(page, text) {
  await page.fill('textarea[name=body]', text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const messages = (page) => page.locator('.thread-messages');

describe('inbox and notifications', { skip }, () => {
  test('two people exchange messages and each sees the other’s appear without reloading', async () => {
    await withEvidence(maya, 'inbox-live', async () => {
      await openThread(maya.page, 'To Harbor Street Bistro');
      await openThread(jo.page, 'Harbor Street Bistro');
      const mayaUrl = maya.page.url();
      const joUrl = jo.page.url();
      assert.equal(new URL(mayaUrl).pathname, new URL(joUrl).pathname, 'both opened the same thread');

      await send(maya.page, 'See you Saturday at 9, Jordan.');
      await messages(jo.page).getByText('See you Saturday at 9, Jordan.').waitFor();
      await send(jo.page, 'Great, see you then!');
      await messages(maya.page).getByText('Great, see you then!').waitFor();
      // Neither page reloaded, and the box emptied after sending.
      assert.equal(maya.page.url(), mayaUrl);
      assert.equal(await maya.page.inputValue('textarea[name=body]'), '');
      await shot(jo.page, 'live-thread');
      await assertStayedOffline(maya);
      await assertStayedOffline(jo);
    });
  });

  test('a request is accepted and moves from Requests to All', async () => {
    await withEvidence(jo, 'inbox-request', async () => {
      await jo.page.goto(`${ORIGIN}/inbox?tab=requests`);
      await shot(jo.page, 'requests');
      await openThread(jo.page, 'Harbor Street Events', 'requests');
      await jo.page.getByText('This is a message request').waitFor();
      await Promise.all([jo.page.waitForURL(/notice=accepted/), jo.page.getByRole('button', { name: 'Accept' }).click()]);
      await jo.page.goto(`${ORIGIN}/inbox?tab=requests`);
      assert.equal(await jo.page.locator('a.thread-row', { hasText: 'Harbor Street Events' }).count(), 0);
      await jo.page.goto(`${ORIGIN}/inbox`);
      await jo.page.locator('a.thread-row', { hasText: 'Harbor Street Events' }).waitFor();
    });
  });

  test('a send that fails offline stays in the box with a Retry, which sends it once back online', async () => {
    await withEvidence(jo, 'inbox-retry', async () => {
      await openThread(jo.page, 'Harbor Street Bistro');
      await jo.context.setOffline(true);
      await send(jo.page, 'Sent while the train was in a tunnel');
      const status = jo.page.locator('.thread-send-status');
      await status.getByText(/^Not sent/).waitFor();
      const retry = jo.page.getByRole('button', { name: 'Retry' });
      assert.ok(await retry.isVisible());
      assert.equal(await jo.page.inputValue('textarea[name=body]'), 'Sent while the train was in a tunnel');
      await shot(jo.page, 'send-failed');
      await jo.context.setOffline(false);
      await retry.click();
      await status.getByText('Sent.').waitFor();
      assert.equal(await retry.isVisible(), false, 'Retry goes once the message is sent');
      await messages(jo.page).getByText('Sent while the train was in a tunnel').waitFor();
      assert.equal(await messages(jo.page).getByText('Sent while the train was in a tunnel').count(), 1);
      assert.equal(await jo.page.inputValue('textarea[name=body]'), '');
      // The other side got it once, live.
      await messages(maya.page).getByText('Sent while the train was in a tunnel').waitFor();
    });
  });

  test('notifications: the list, mark all read, and preferences saved', async () => {
    await withEvidence(jo, 'inbox-notifications', async () => {
      await jo.page.goto(`${ORIGIN}/notifications`);
      await jo.page.getByText('New message from Harbor Street Bistro').first().waitFor();
      await shot(jo.page, 'notifications');
      await Promise.all([jo.page.waitForURL(/notice=all_read/), jo.page.getByRole('button', { name: 'Mark all as read' }).click()]);
      await jo.page.getByText('Everything is marked as read.').waitFor();
      assert.equal(await jo.page.locator('.notification-unread').count(), 0);

      await jo.page.goto(`${ORIGIN}/notifications/preferences`);
      await jo.page.selectOption('select[name=timezone]', 'America/Chicago');
      // Quiet hours off, so the push below is not held until morning whatever the hour the test runs.
      await jo.page.setChecked('#field-quiet', false);
      // The Messages group's push switch (it turns each kind of the group on with it).
      await jo.page.setChecked('input[name="grp:messages:push"]', true);
      await Promise.all([jo.page.waitForURL(/notice=saved/), jo.page.getByRole('button', { name: 'Save preferences' }).click()]);
      await jo.page.getByText('Preferences saved.').waitFor();
      assert.equal(await jo.page.inputValue('select[name=timezone]'), 'America/Chicago');
      assert.equal(await jo.page.isChecked('#field-quiet'), false);
    });
  });

  test('browser push: the subscription gets a message’s notification through the stand-in, and the service worker shows it', async () => {
    // A context of its own: the service worker runs here (the shared helper blocks them), and the
    // browser's own subscription would point at Google's push service, unreachable from a test. So
    // PushManager answers with a subscription made by the stand-in, whose keys the test holds.
    const sub = newSubscription();
    const context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
    try {
      await context.grantPermissions(['notifications'], { origin: ORIGIN });
      await context.addInitScript((json) => {
        let current = null;
        const fake = {
          endpoint: json.endpoint,
          expirationTime: null,
          options: {},
          toJSON: () => json,
          unsubscribe: async () => {
            current = null;
            window.fakePushUnsubscribed = true;
            return true;
          },
        };
        PushManager.prototype.subscribe = async () => {
          current = fake;
          return fake;
        };
        PushManager.prototype.getSubscription = async () => current;
      }, sub);
      const page = await context.newPage();
      await signIn(page, jordan, '/dashboard/shifter');
      await page.goto(`${ORIGIN}/notifications/preferences`);
      await page.locator('[data-island="push"][data-island-ready]').waitFor();
      await page.getByRole('button', { name: 'Turn on browser notifications' }).click();
      await page.getByText('Browser notifications are on for this browser.').waitFor();
      await shot(page, 'push-on');

      // The bistro writes to Jordan: the Worker's push goes to the subscription's endpoint (the stand-in).
      await openThread(maya.page, 'To Harbor Street Bistro');
      await send(maya.page, 'Push test: the delivery arrives at 8.');
      const push = await pushService.next(sub.endpoint, 60_000);
      assert.equal(push.method, 'POST');
      assert.equal(push.headers['content-encoding'], 'aes128gcm');
      assert.match(push.headers.ttl, /^\d+$/);
      const vapidKey = process.env.VAPID_PUBLIC_KEY;
      checkVapid(push.headers.authorization, new URL(sub.endpoint).origin, vapidKey);
      const payload = JSON.parse(sub.decrypt(push.body));
      assert.equal(payload.kind, 'message.received');
      assert.equal(payload.title, 'New message from Harbor Street Bistro');
      assert.match(payload.data.conversation_id, /^cnv_/);

      // What the stand-in received, handed to the service worker as the push service would.
      const cdp = await context.newCDPSession(page);
      const registrations = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
      await cdp.send('ServiceWorker.enable');
      const deadline = Date.now() + 10_000;
      while (!registrations.some((r) => r.scopeURL === `${ORIGIN}/`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const reg = registrations.find((r) => r.scopeURL === `${ORIGIN}/`);
      assert.ok(reg, 'the service worker is registered for the whole app');
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: ORIGIN,
        registrationId: reg.registrationId,
        data: sub.decrypt(push.body),
      });
      const shown = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.ready;
        for (let i = 0; i < 50; i++) {
          const list = await r.getNotifications();
          if (list.length) return list.map((n) => ({ title: n.title, body: n.body, url: n.data?.url }));
          await new Promise((res) => setTimeout(res, 100));
        }
        return [];
      });
      assert.equal(shown.length, 1);
      assert.equal(shown[0].title, 'New message from Harbor Street Bistro');
      assert.equal(shown[0].url, `/inbox/${payload.data.conversation_id}`);

      // Turned off on this device: the service forgets the subscription and the browser unsubscribes.
      const registered = async () => (await apiCall(page, 'GET', '/v1/notifications/push_subscriptions')).body.data.length;
      const before = await registered();
      await page.getByRole('button', { name: 'Turn off browser notifications on this device' }).click();
      await page.getByText('Browser notifications are off for this browser.').waitFor();
      assert.equal(await registered(), before - 1, 'the subscription is still registered with the service');
      assert.equal(await page.evaluate(() => window.fakePushUnsubscribed), true, 'the browser was not unsubscribed');
      assert.equal(await page.getByRole('button', { name: 'Turn off browser notifications on this device' }).isVisible(), false);
      await shot(page, 'push-off');
    } finally {
      await context.close();
    }
  });

  for (const width of [360, 1280]) {
    test(`every page is axe-clean in light and dark at ${width} px`, async () => {
      await withEvidence(jo, `inbox-axe-${width}`, async () => {
        await jo.page.setViewportSize({ width, height: 800 });
        const pages = [
          ['inbox', '/inbox'],
          ['requests', '/inbox?tab=requests'],
          ['notifications', '/notifications'],
          ['preferences', '/notifications/preferences'],
        ];
        for (const [name, path] of pages) {
          await jo.page.goto(`${ORIGIN}${path}`);
          await assertAccessibleInBothSchemes(jo.page, `${name}, ${width} px`);
          const wide = await jo.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
          assert.equal(wide, false, `${name} fits ${width} px`);
          await shot(jo.page, `${name}-${width}`);
        }
        await openThread(jo.page, 'Harbor Street Bistro');
        await assertAccessibleInBothSchemes(jo.page, `thread, ${width} px`);
        await jo.page.emulateMedia({ colorScheme: 'dark' });
        await shot(jo.page, `thread-${width}-dark`);
        await jo.page.emulateMedia({ colorScheme: 'light' });
      });
    });
  }
});
