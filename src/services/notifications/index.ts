export { catalogEntry, groupScope, OUTBOUND_CHANNELS, type OutboundChannel } from './catalog';
export { deliverOne, processNotify, sweepNotificationDeliveries } from './deliver';
export { listDeliveries } from './deliveries';
export { countUnreadNotifications, getNotification, listNotifications, markAllNotificationsRead, markNotificationRead } from './inbox';
export { defaultTimezone, getPreferences, updatePreferences } from './preferences';
export { checkPushEndpoint, PUSH_SERVICE_HOSTS } from './push-endpoint';
export { listPushSubscriptions, registerPushSubscription, unregisterPushSubscription } from './push-subscriptions';
export { businessRecipients } from './recipients';
export {
  DELIVERY_STATUSES,
  deliveryListSchema,
  listDeliveriesQuery,
  listNotificationsQuery,
  markedReadSchema,
  notificationListSchema,
  type NotificationPreferences,
  notificationPreferencesSchema,
  notificationSchema,
  type NotificationView,
  pushSubscriptionListSchema,
  pushSubscriptionSchema,
  registerPushSubscriptionInput,
  removedSchema,
  updatePreferencesInput,
} from './schemas';
export { smsProviderFor } from './sms';
export { deliverText, draftText, sweepTextOutbox, type TextDraft } from './text-outbox';
