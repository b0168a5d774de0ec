import { z } from 'zod';

/**
 * Messages on the notifications queue, produced by the event outbox (`notify`, and `sms.send` for the
 * text outbox) and the mail outbox (`email.send`). Every handler is idempotent: queues deliver at least once.
 */
export const notificationsMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('email.send'), outbox_id: z.string() }),
  /** A text to a phone number of no account (services/notifications/text-outbox.ts). */
  z.object({ type: z.literal('sms.send'), outbox_id: z.string() }),
  z.object({
    type: z.literal('notify'),
    /** Same key → delivered once per user, however often the message is retried or re-sent. */
    dedupe_key: z.string(),
    user_ids: z.array(z.string()).min(1),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  /** One channel delivery of a notification, re-sent by the sweep (quiet hours over, a retry due). */
  z.object({ type: z.literal('notification.deliver'), delivery_id: z.string() }),
]);
export type NotificationsMessage = z.infer<typeof notificationsMessageSchema>;
export type NotifyMessage = Extract<NotificationsMessage, { type: 'notify' }>;
