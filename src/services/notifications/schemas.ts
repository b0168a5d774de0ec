import { z } from '@hono/zod-openapi';
import { DELIVERY_STATUSES } from '../../db/schema/notifications';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../lib/pagination';
import { isValidTimeZone } from '../../lib/time';
import { NOTIFICATION_GROUPS, NOTIFICATION_KINDS, OUTBOUND_CHANNELS } from './catalog';

// The notifications domain's request and response schemas: the route contracts import them, the
// services take z.infer of the requests and build z.infer of the responses.

const limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_LIMIT)
  .default(DEFAULT_LIMIT)
  .openapi({ description: `Rows per page, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` });
const cursor = z.string().max(200).optional().openapi({ description: 'next_cursor from the previous page.' });
const iso = z.string().openapi({ description: 'ISO 8601 UTC.', example: '2026-11-20T14:00:00.000Z' });
const id = z.string().min(1).max(ID_MAX_LENGTH);

export const kindSchema = z.enum(NOTIFICATION_KINDS).openapi({ description: 'A notification kind of the catalog.' });
export const groupSchema = z.enum(NOTIFICATION_GROUPS).openapi({ description: 'A group of kinds.' });
export const outboundChannelSchema = z.enum(OUTBOUND_CHANNELS).openapi({ description: 'push, email or sms (in-app is always on).' });

const hhmm = z
  .string()
  .max(5)
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 24-hour')
  .openapi({ example: '22:00' });

export const timezoneSchema = z
  .string()
  .max(64)
  .refine(isValidTimeZone, { message: 'must be an IANA time zone name, e.g. America/New_York' })
  .openapi({ example: 'America/New_York' });

// ── The notifications list ──────────────────────────────────────────────────────────────────────

export const listNotificationsQuery = z.object({
  unread: z
    .enum(['1', '0', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true')
    .openapi({ description: '1: only unread notifications.' }),
  limit,
  cursor,
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const notificationSchema = z
  .object({
    id: z.string(),
    kind: z.string().openapi({ description: 'The catalog kind (GET /v1/notifications/preferences lists them).' }),
    title: z.string(),
    body: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'Ids of what it is about (shift_request_id, business_id …).' }),
    read_at: iso.nullable(),
    created_at: iso,
  })
  .openapi('Notification');
export type NotificationView = z.infer<typeof notificationSchema>;

export const notificationListSchema = z
  .object({
    data: z.array(notificationSchema),
    next_cursor: z.string().nullable(),
    unread_count: z.number().int().openapi({ description: 'All unread notifications of the caller.' }),
  })
  .openapi('NotificationList');
export type NotificationList = z.infer<typeof notificationListSchema>;

export const markedReadSchema = z
  .object({ marked: z.number().int().openapi({ description: 'Notifications newly marked read.' }), unread_count: z.number().int() })
  .openapi('NotificationsMarkedRead');
export type MarkedRead = z.infer<typeof markedReadSchema>;

// ── Preferences ─────────────────────────────────────────────────────────────────────────────────

const channelsSchema = z.object({
  in_app: z.literal(true).openapi({ description: 'Always on.' }),
  push: z.boolean(),
  email: z.boolean(),
  sms: z.boolean(),
});

export const quietHoursSchema = z
  .object({
    start: hhmm.openapi({ description: 'Quiet from this wall-clock time in `timezone`.' }),
    end: hhmm.openapi({ description: 'Until this time (the next day when it is not after start).' }),
  })
  .refine((q) => q.start !== q.end, { message: 'start and end must differ', path: ['end'] })
  .openapi('QuietHours');

export const preferenceOverrideSchema = z
  .object({
    kind: kindSchema.nullable(),
    group: groupSchema.nullable(),
    channel: outboundChannelSchema,
    enabled: z.boolean(),
  })
  .openapi('NotificationPreferenceOverride');

export const notificationPreferencesSchema = z
  .object({
    timezone: z.string().openapi({ description: 'IANA zone of the quiet hours (default: your shifter or business zone, else UTC).' }),
    quiet_hours: quietHoursSchema.nullable().openapi({ description: 'Non-urgent notifications wait until they end; null: none.' }),
    kinds: z
      .array(
        z.object({
          kind: z.string(),
          group: groupSchema,
          label: z.string(),
          urgent: z.boolean().openapi({ description: 'Sent at once, in quiet hours too.' }),
          owner_only: z.boolean().openapi({ description: 'Of a business, only its owner hears of it (cards, payouts).' }),
          channels: channelsSchema.openapi({ description: 'The channels in effect for you.' }),
        }),
      )
      .openapi({ description: 'Every kind of the catalog with the channels in effect for you.' }),
    groups: z.array(z.object({ group: groupSchema, label: z.string() })),
    overrides: z
      .array(preferenceOverrideSchema)
      .openapi({ description: 'Your choices: a kind’s own wins over its group’s, which wins over the default.' }),
  })
  .openapi('NotificationPreferences');
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** Kept under D1's 100 bound parameters, like every array the API takes (each change is one statement of the batch). */
export const MAX_PREFERENCE_CHANGES = 90;

export const updatePreferencesInput = z
  .object({
    timezone: timezoneSchema.optional(),
    quiet_hours: quietHoursSchema.nullable().optional().openapi({ description: 'null turns quiet hours off; absent leaves them.' }),
    channels: z
      .array(
        z
          .object({
            kind: kindSchema.optional(),
            group: groupSchema.optional(),
            channel: outboundChannelSchema,
            enabled: z.boolean().nullable().openapi({ description: 'null removes your choice (back to the group’s or the default).' }),
          })
          .refine((c) => (c.kind === undefined) !== (c.group === undefined), { message: 'name either kind or group', path: ['kind'] }),
      )
      .max(MAX_PREFERENCE_CHANGES)
      .optional(),
  })
  .openapi('UpdateNotificationPreferences');
export type UpdatePreferencesInput = z.infer<typeof updatePreferencesInput>;

// ── Push subscriptions ──────────────────────────────────────────────────────────────────────────

const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url');

export const registerPushSubscriptionInput = z
  .object({
    endpoint: z
      .url({ protocol: /^https$/ })
      .max(1000)
      .openapi({ description: "PushSubscription.endpoint: the push service's https URL." }),
    expiration_time: z
      .number()
      .int()
      .nonnegative()
      .nullish()
      .openapi({ description: 'PushSubscription.expirationTime (epoch ms), if any.' }),
    keys: z.object({
      p256dh: base64url(80, 100).openapi({ description: "The browser's P-256 public key (65 bytes, base64url)." }),
      auth: base64url(16, 32).openapi({ description: 'The 16-byte authentication secret (base64url).' }),
    }),
    label: z.string().trim().max(100).optional().openapi({ description: 'Your name for this browser.' }),
  })
  .openapi('RegisterPushSubscription');
export type RegisterPushSubscriptionInput = z.infer<typeof registerPushSubscriptionInput>;

export const pushSubscriptionSchema = z
  .object({
    id: z.string(),
    endpoint_origin: z.string().openapi({ description: 'The push service (the endpoint itself is not shown again).' }),
    label: z.string().nullable(),
    created_at: iso,
    last_success_at: iso.nullable(),
  })
  .openapi('PushSubscription');
export type PushSubscriptionView = z.infer<typeof pushSubscriptionSchema>;

export const pushSubscriptionListSchema = z
  .object({
    vapid_public_key: z
      .string()
      .nullable()
      .openapi({ description: 'applicationServerKey for PushManager.subscribe (base64url); null when push is not configured.' }),
    data: z.array(pushSubscriptionSchema),
  })
  .openapi('PushSubscriptionList');
export type PushSubscriptionList = z.infer<typeof pushSubscriptionListSchema>;

export const removedSchema = z.object({ id: z.string(), removed: z.literal(true) }).openapi('PushSubscriptionRemoved');

// ── Deliveries (admin) ──────────────────────────────────────────────────────────────────────────

/** The states of a delivery (the column's values), for the admin's deliveries filter. */
export { DELIVERY_STATUSES };

export const listDeliveriesQuery = z.object({
  user_id: id.optional().openapi({ description: 'Only this user’s deliveries.' }),
  channel: outboundChannelSchema.optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  kind: z.string().max(64).optional(),
  limit,
  cursor,
});
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;

export const deliverySchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    kind: z.string(),
    channel: outboundChannelSchema,
    status: z.enum(DELIVERY_STATUSES).openapi({
      description: 'queued (waiting: quiet hours, a retry), sending, sent, failed (gave up), skipped (nowhere to send)',
    }),
    provider: z.string().nullable().openapi({ description: 'resend or outbox (email), twilio or local (sms), webpush or local (push).' }),
    destination: z.string().nullable().openapi({ description: 'The email address, phone number or push service.' }),
    title: z.string(),
    body: z.string(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    deliver_after: iso,
    created_at: iso,
    sent_at: iso.nullable(),
  })
  .openapi('NotificationDelivery');
export type DeliveryView = z.infer<typeof deliverySchema>;

export const deliveryListSchema = z
  .object({ data: z.array(deliverySchema), next_cursor: z.string().nullable() })
  .openapi('NotificationDeliveryList');
export type DeliveryList = z.infer<typeof deliveryListSchema>;
