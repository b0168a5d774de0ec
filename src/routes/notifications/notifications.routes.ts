import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import {
  deliveryListSchema,
  listDeliveriesQuery,
  listNotificationsQuery,
  markedReadSchema,
  notificationListSchema,
  notificationPreferencesSchema,
  notificationSchema,
  pushSubscriptionListSchema,
  pushSubscriptionSchema,
  registerPushSubscriptionInput,
  removedSchema,
  updatePreferencesInput,
} from '../../services/notifications';

const tags = ['Notifications'];

export const listNotifications = authRoute({
  method: 'get',
  path: '/v1/notifications',
  operationId: 'listNotifications',
  authorization: 'self',
  tags,
  summary: "The caller's notifications, newest first (unread=1: unread only)",
  description: 'Every notification is kept here (the in-app channel is always on), whatever reached push, email or SMS.',
  request: { query: listNotificationsQuery },
  responses: { 200: jsonContent(notificationListSchema, 'A page of notifications and the unread count.') },
});

export const getNotification = authRoute({
  method: 'get',
  path: '/v1/notifications/{id}',
  operationId: 'getNotification',
  authorization: 'self',
  tags,
  summary: 'One of your notifications',
  request: { params: idParam },
  responses: { 200: jsonContent(notificationSchema, 'The notification.') },
  errors: ['NOTIFICATION-NOT-FND-ERR'],
});

export const markNotificationRead = authRoute({
  method: 'post',
  path: '/v1/notifications/{id}/read',
  operationId: 'markNotificationRead',
  authorization: 'self',
  tags,
  summary: 'Mark one of your notifications read',
  request: { params: idParam },
  responses: { 200: jsonContent(notificationSchema, 'The notification, read.') },
  errors: ['NOTIFICATION-NOT-FND-ERR'],
});

export const markAllNotificationsRead = authRoute({
  method: 'post',
  path: '/v1/notifications/read_all',
  operationId: 'markAllNotificationsRead',
  authorization: 'self',
  tags,
  summary: 'Mark all your notifications read',
  responses: { 200: jsonContent(markedReadSchema, 'How many were marked.') },
});

export const getNotificationPreferences = authRoute({
  method: 'get',
  path: '/v1/notifications/preferences',
  operationId: 'getNotificationPreferences',
  authorization: 'self',
  tags,
  summary: 'Your notification channels per kind, quiet hours and time zone, with the catalog of kinds',
  responses: { 200: jsonContent(notificationPreferencesSchema, 'Preferences in effect.') },
});

export const updateNotificationPreferences = authRoute({
  method: 'put',
  path: '/v1/notifications/preferences',
  operationId: 'updateNotificationPreferences',
  authorization: 'self',
  tags,
  summary: 'Change channels per kind or group, quiet hours or time zone (what is not named stays)',
  description:
    'A kind’s own choice wins over its group’s, which wins over the default. In-app is always on. Non-urgent notifications due in ' +
    'quiet hours wait until they end (in `timezone`); urgent kinds (`urgent` in the catalog) go at once.',
  request: { body: jsonBody(updatePreferencesInput) },
  responses: { 200: jsonContent(notificationPreferencesSchema, 'Preferences in effect.') },
});

export const listPushSubscriptions = authRoute({
  method: 'get',
  path: '/v1/notifications/push_subscriptions',
  operationId: 'listPushSubscriptions',
  authorization: 'self',
  tags,
  summary: 'Your browsers registered for Web Push, and the VAPID key to subscribe with',
  responses: { 200: jsonContent(pushSubscriptionListSchema, 'Registered browsers.') },
});

export const registerPushSubscription = authRoute({
  method: 'post',
  path: '/v1/notifications/push_subscriptions',
  operationId: 'registerPushSubscription',
  authorization: 'self',
  tags,
  summary: 'Register a browser for Web Push (the PushSubscription from PushManager.subscribe)',
  request: { body: jsonBody(registerPushSubscriptionInput) },
  responses: { 201: jsonContent(pushSubscriptionSchema, 'Registered (the same endpoint again renews its keys).') },
});

export const unregisterPushSubscription = authRoute({
  method: 'delete',
  path: '/v1/notifications/push_subscriptions/{id}',
  operationId: 'unregisterPushSubscription',
  authorization: 'self',
  tags,
  summary: 'Stop Web Push to one of your browsers',
  request: { params: idParam },
  responses: { 200: jsonContent(removedSchema, 'Removed.') },
  errors: ['PUSH-SUBSCRIPTION-NOT-FND-ERR'],
});

export const listNotificationDeliveries = authRoute({
  method: 'get',
  path: '/v1/admin/notifications/deliveries',
  operationId: 'listNotificationDeliveries',
  authorization: 'admin',
  tags: ['Admin'],
  summary: 'Notification deliveries of every channel, newest first (admin only)',
  description: 'The outbox of the push, email and SMS channels: with the local stand-ins, what a developer would have received.',
  request: { query: listDeliveriesQuery },
  responses: { 200: jsonContent(deliveryListSchema, 'A page of deliveries.') },
});
