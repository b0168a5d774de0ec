import { createRouter, serviceCtx } from '../../http/create-app';
import {
  getNotification,
  getPreferences,
  listDeliveries,
  listNotifications,
  listPushSubscriptions,
  markAllNotificationsRead,
  markNotificationRead,
  registerPushSubscription,
  unregisterPushSubscription,
  updatePreferences,
} from '../../services/notifications';
import * as routes from './notifications.routes';

export const notificationsRouter = createRouter()
  .openapi(routes.listNotifications, async (c) => c.json(await listNotifications(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.markAllNotificationsRead, async (c) => c.json(await markAllNotificationsRead(serviceCtx(c)), 200))
  .openapi(routes.markNotificationRead, async (c) => c.json(await markNotificationRead(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.getNotificationPreferences, async (c) => c.json(await getPreferences(serviceCtx(c)), 200))
  .openapi(routes.updateNotificationPreferences, async (c) => c.json(await updatePreferences(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.listPushSubscriptions, async (c) => c.json(await listPushSubscriptions(serviceCtx(c)), 200))
  .openapi(routes.registerPushSubscription, async (c) => c.json(await registerPushSubscription(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.unregisterPushSubscription, async (c) =>
    c.json(await unregisterPushSubscription(serviceCtx(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.listNotificationDeliveries, async (c) => c.json(await listDeliveries(serviceCtx(c), c.req.valid('query')), 200))
  // After the fixed paths under /v1/notifications/ (preferences, push_subscriptions), which it would otherwise shadow.
  .openapi(routes.getNotification, async (c) => c.json(await getNotification(serviceCtx(c), c.req.valid('param').id), 200));
