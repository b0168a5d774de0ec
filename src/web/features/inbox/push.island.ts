import { client, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';

/**
 * "Turn on browser notifications" (/notifications/preferences): registers the application's service
 * worker (/sw.js, scope /), asks the browser's permission, subscribes with the service's VAPID public
 * key (GET /v1/notifications/push_subscriptions) and sends the subscription to
 * POST /v1/notifications/push_subscriptions. From then on the service worker's push module
 * (src/web/service-worker/push.ts) shows each notification and opens its page on a click.
 *
 * "Turn off browser notifications on this device", shown while this browser has a subscription: the
 * API lists subscriptions without their endpoints, so the island learns this one's id by registering
 * the same endpoint again (which only renews its keys), deletes it with
 * DELETE /v1/notifications/push_subscriptions/{id}, then unsubscribes in the browser. The server is
 * asked first: a browser unsubscribed while the service still held the endpoint would leave a
 * subscription that fails on every push until the push service answers it gone.
 */

interface Props {
  /** The page's server-side view: how many browsers of the person are subscribed. */
  subscribed: number;
}

/**
 * The subscription as the API registers it. A subscription made with an applicationServerKey always
 * has both keys; were one missing, the empty string is refused by the API as the absent key was.
 */
function forApi(subscription: PushSubscription) {
  const json = subscription.toJSON();
  return {
    endpoint: subscription.endpoint,
    expiration_time: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    label: label(),
  };
}

function label(): string {
  const ua = navigator.userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

function mount(root: HTMLElement, _props: Props) {
  const button = root.querySelector<HTMLButtonElement>('.push-turn-on');
  const off = root.querySelector<HTMLButtonElement>('.push-turn-off');
  const status = root.querySelector<HTMLElement>('.push-status');
  if (!button || !off || !status) return;
  const say = (text: string, failed = false) => {
    status.textContent = text;
    status.classList.toggle('field-error', failed);
  };
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say('This browser cannot show notifications from a website.');
    return;
  }
  /** This browser's subscription, once known: turning off is offered while there is one. */
  let current: PushSubscription | null = null;
  const showState = () => {
    off.hidden = current === null;
    button.hidden = current !== null;
    root.dataset.pushState = current ? 'on' : 'off';
  };
  showState();
  if (Notification.permission === 'denied') say('Notifications are blocked for this site in the browser’s settings.');
  void navigator.serviceWorker
    .getRegistration('/')
    .then((reg) => reg?.pushManager.getSubscription() ?? null)
    .then((sub) => {
      current ??= sub;
      showState();
    })
    .catch(() => undefined);

  off.addEventListener('click', async () => {
    if (!current) return;
    off.disabled = true;
    say('Turning off…');
    try {
      const found = await send(client.v1.notifications.push_subscriptions.$post({ json: forApi(current) }, write()));
      if (!found.ok) return say(`Could not turn off: ${found.error.message}`, true);
      const removed = await send(
        client.v1.notifications.push_subscriptions[':id'].$delete({ param: { id: encodeURIComponent(found.data.id) } }, write()),
      );
      if (!removed.ok) return say(`Could not turn off: ${removed.error.message}`, true);
      await current.unsubscribe();
      current = null;
      showState();
      say('Browser notifications are off for this browser.');
      button.focus();
    } catch (err) {
      say(`Could not turn off: ${err instanceof Error ? err.message : 'the browser refused'}.`, true);
    } finally {
      off.disabled = false;
    }
  });

  button.addEventListener('click', async () => {
    button.disabled = true;
    say('Turning on…');
    try {
      const keys = await send(client.v1.notifications.push_subscriptions.$get());
      if (!keys.ok) return say(`Could not turn on: ${keys.error.message}`, true);
      if (!keys.data.vapid_public_key) return say('Browser notifications are not set up on this service yet.', true);
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return say('The browser did not allow notifications. You can allow them in its site settings.', true);
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          // The key as the API gives it: base64url, which the Push API takes as is.
          applicationServerKey: keys.data.vapid_public_key,
        }));
      const saved = await send(client.v1.notifications.push_subscriptions.$post({ json: forApi(subscription) }, write()));
      if (!saved.ok) return say(`Could not turn on: ${saved.error.message}`, true);
      current = subscription;
      showState();
      say('Browser notifications are on for this browser.');
      // The button pressed is hidden now: keep the keyboard's place on the one that undoes it.
      off.focus();
    } catch (err) {
      say(`Could not turn on: ${err instanceof Error ? err.message : 'the browser refused'}.`, true);
    } finally {
      button.disabled = false;
    }
  });
}

eachIsland<Props>('push', mount);
