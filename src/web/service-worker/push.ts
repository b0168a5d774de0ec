/**
 * Web push: shows the notification a push service delivers, and opens its page on a click.
 *
 * The payload is the JSON the service sends (src/services/notifications/channels/push.ts
 * `PushPayload`): title, body, kind, notification_id and data. A notification opens the page it
 * names (the thread, or the app page of `data.url`); any other opens the notifications page. A
 * payload that is not that JSON still shows a notification (a browser may drop a subscription whose
 * pushes show nothing).
 */
import { notificationTarget } from '../features/inbox/notification-target.model';
interface PushPayload {
  title?: unknown;
  body?: unknown;
  kind?: unknown;
  notification_id?: unknown;
  data?: Record<string, unknown> | null;
}

/** Where a notification leads: the page it names (notificationTarget), else the list of notifications. */
export function pushTarget(p: PushPayload): string {
  return notificationTarget(p.data)?.path ?? '/notifications';
}

function parse(event: PushEvent): PushPayload {
  try {
    const json = event.data?.json() as unknown;
    return json && typeof json === 'object' ? (json as PushPayload) : {};
  } catch {
    return { body: event.data?.text() ?? '' };
  }
}

export function registerPush(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('push', (event) => {
    const p = parse(event);
    const title = typeof p.title === 'string' && p.title ? p.title : 'Shiftmarket';
    const options: NotificationOptions = {
      body: typeof p.body === 'string' ? p.body : '',
      // One notification per item: a repeat replaces it rather than stacking.
      ...(typeof p.notification_id === 'string' ? { tag: p.notification_id } : {}),
      data: { url: pushTarget(p) },
    };
    event.waitUntil(sw.registration.showNotification(title, options));
  });

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = typeof event.notification.data?.url === 'string' ? event.notification.data.url : '/notifications';
    const url = new URL(path, sw.location.origin).href;
    event.waitUntil(
      (async () => {
        const open = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const same = open.find((c) => c.url === url);
        if (same) return void (await same.focus());
        await sw.clients.openWindow(url);
      })(),
    );
  });
}
