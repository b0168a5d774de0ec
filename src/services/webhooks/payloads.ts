import { z } from '@hono/zod-openapi';
import { SHIFT_STATUS_NAMES } from '../kernel';

/**
 * The partner webhook payloads, one zod schema per event type: the producers build them, the
 * OpenAPI document's `webhooks` section is generated from them, and the tests parse what a receiver
 * gets against them. Every delivery is one JSON object (the envelope) whose `data` depends on `type`.
 * New fields may be added within v1; receivers ignore unknown fields.
 */

const iso = z.string().openapi({ format: 'date-time', example: '2026-12-01T14:00:00.000Z' });

/** A shift request as partners see it in events: the same names and meanings as the API's shift request. */
export const webhookShiftRequestSchema = z
  .object({
    id: z.string().openapi({ example: 'sr_4aBcD3fGh1JkLmN0pQrS' }),
    business_id: z.string(),
    shifter_id: z.string().nullable().openapi({ description: 'The targeted or claiming shifter; null for an unclaimed broadcast.' }),
    shift_date: z.string().openapi({ example: '2026-12-01', description: "Wall-clock date in the business's time zone." }),
    shift_in: z.string().openapi({ example: '09:00' }),
    shift_out: z.string().openapi({ example: '17:00', description: 'Earlier than shift_in: ends the next day.' }),
    starts_at: iso,
    ends_at: iso,
    shiftrole_id: z.number().int(),
    hourly_rate: z.number().openapi({ example: 18.5, description: 'Per hour, in `currency` (a decimal).' }),
    currency: z.string().openapi({ example: 'USD' }),
    is_broadcast: z.union([z.literal(0), z.literal(1)]),
    request_status: z.number().int().min(1).max(7).openapi({ description: 'DECISIONS.md status values: 1 pending … 7 cancelled.' }),
    status: z.enum(SHIFT_STATUS_NAMES),
    parent_id: z
      .string()
      .nullable()
      .openapi({ description: 'The request this one replaces (a change request) or re-broadcasts (auto-fill after a cancel).' }),
    accepted_at: iso.nullable(),
    shift_start_at: iso.nullable().openapi({ description: 'Clock-in.' }),
    shift_end_at: iso.nullable().openapi({ description: 'Clock-out.' }),
    cancelled_at: iso.nullable(),
    cancelled_by: z.enum(['business', 'shifter', 'system']).nullable(),
  })
  .openapi('WebhookShiftRequest');
export type WebhookShiftRequest = z.infer<typeof webhookShiftRequestSchema>;

const shiftData = z.object({ shift_request: webhookShiftRequestSchema });

export const invoicePaidDataSchema = z
  .object({
    invoice: z.object({
      id: z.string(),
      business_id: z.string(),
      shift_request_ids: z.array(z.string()).max(5000),
      amount: z.number().openapi({ description: 'Total paid, a decimal in `currency`.' }),
      currency: z.string(),
      paid_at: iso,
    }),
  })
  .openapi('WebhookInvoicePaidData');

export const timesheetEventDataSchema = z
  .object({
    timesheet: z.object({
      id: z.string(),
      shift_request_id: z.string(),
      shifter_id: z.string(),
      status: z.enum(['open', 'submitted', 'approved', 'locked']),
      in_at: iso,
      out_at: iso.nullable(),
      unpaid_break_minutes: z.number().int(),
      worked_minutes: z.number().int().nullable().openapi({ description: 'Minutes paid (rounded, unpaid breaks out).' }),
      pay: z.number().nullable().openapi({ description: 'worked_minutes × rate, a decimal in `currency`, rounded once.' }),
      currency: z.string(),
      approved_how: z.enum(['business', 'auto', 'dispute_overdue']).nullable(),
    }),
    dispute: z
      .object({ id: z.string(), status: z.enum(['open', 'accepted', 'rejected', 'resolved_for_worker']) })
      .nullable()
      .openapi({ description: 'The dispute this event is about (timesheet.disputed, timesheet.resolved), else null.' }),
  })
  .openapi('WebhookTimesheetData');

export const invoiceRefundedDataSchema = z
  .object({
    invoice: z.object({
      id: z.string(),
      business_id: z.string(),
      shift_request_ids: z.array(z.string()).max(5000),
      currency: z.string(),
      refunded_total: z.number().openapi({ description: 'Refunded of the invoice so far, a decimal in `currency`.' }),
      refundable_remaining: z.number().openapi({ description: 'What may still be refunded.' }),
    }),
    refund: z.object({
      id: z.string(),
      amount: z.number().openapi({ description: 'This refund, a decimal in `currency`.' }),
      status: z.enum(['succeeded', 'pending']),
      created_at: iso,
    }),
  })
  .openapi('WebhookInvoiceRefundedData');

export const reviewDisputedDataSchema = z
  .object({
    review: z.object({
      id: z.string(),
      business_id: z.string(),
      review_by: z.enum(['business', 'shifter']).openapi({ description: 'Who wrote the review; the other party disputed it.' }),
      review_by_id: z.string(),
      review_on: z.enum(['business', 'shifter']),
      review_on_id: z.string(),
      shift_request_id: z.string().nullable(),
      rating: z.number().int().min(1).max(5),
      disputed_at: iso,
    }),
  })
  .openapi('WebhookReviewDisputedData');

/** Each event type with its `data` schema and what it means. */
export const WEBHOOK_EVENTS = {
  'shift_request.created': {
    data: shiftData,
    summary: 'A targeted shift request was sent (also the replacement made by a change request: its parent_id is the superseded one).',
  },
  'broadcast.created': {
    data: shiftData,
    summary:
      'An open shift was broadcast to the crew (also the re-broadcast made by auto-fill after a cancel: its parent_id is the cancelled one).',
  },
  'shift_request.claimed': {
    data: shiftData,
    summary: 'A shifter claimed a broadcast (first claim wins); shift_request.shifter_id is the winner.',
  },
  'shift_request.accepted': { data: shiftData, summary: 'The targeted shifter accepted a shift request.' },
  'shift_request.cancelled': {
    data: shiftData.extend({
      reason: z.string().nullable(),
      rebroadcast_shift_request_id: z
        .string()
        .nullable()
        .openapi({ description: 'The auto-fill broadcast made in the same change, if any.' }),
    }),
    summary: 'The business or the shifter cancelled a shift request (cancelled_by says which).',
  },
  'shift_request.clocked_in': { data: shiftData, summary: 'The shift was clocked in (shift_start_at).' },
  'shift_request.clocked_out': { data: shiftData, summary: 'The shift was clocked out (shift_end_at); it is now worked.' },
  'invoice.paid': {
    data: invoicePaidDataSchema,
    summary: "A business's invoice was paid (from the Stripe webhook; the shift moves 2 → 5).",
  },
  'invoice.refunded': {
    data: invoiceRefundedDataSchema,
    summary:
      "All or part of a business's paid invoice was refunded (POST /v1/finance/refund); the shifter's transfer is reversed in proportion.",
  },
  'timesheet.submitted': {
    data: timesheetEventDataSchema,
    summary: 'A timesheet was submitted by its clock-out, with the breaks the worker attested; it awaits approval.',
  },
  'timesheet.approved': {
    data: timesheetEventDataSchema,
    summary: 'A timesheet was approved (by the business, automatically at its deadline, or by an unanswered dispute); its invoice is made.',
  },
  'timesheet.disputed': {
    data: timesheetEventDataSchema,
    summary: 'The worker disputed a timesheet’s times; the business has until answer_due_at.',
  },
  'timesheet.resolved': {
    data: timesheetEventDataSchema,
    summary: 'A dispute was answered (accepted or rejected) or resolved for the worker when unanswered in time.',
  },
  'review.disputed': {
    data: reviewDisputedDataSchema,
    summary: 'A review the business wrote, or one written about it, was disputed by the reviewed party (an admin decides).',
  },
  'webhook.test': {
    data: z.object({ endpoint_id: z.string(), message: z.string() }),
    summary: 'Sent on request (POST …/test) to one endpoint only, whatever its event types.',
  },
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];
/** The types an endpoint may subscribe to (the test event goes to the endpoint asked, whatever it subscribes). */
export const SUBSCRIBABLE_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test') as [
  WebhookEventType,
  ...WebhookEventType[],
];

/** The envelope every delivery carries, for one event type. */
export function webhookEnvelopeSchema<T extends WebhookEventType>(type: T) {
  return z.object({
    id: z.string().openapi({
      example: 'wev_9xYzAbCdEfGhIjKlMnOp',
      description: 'The event id, also sent as Shiftmarket-Event-Id; the same on every retry.',
    }),
    type: z.literal(type),
    created_at: iso.openapi({ description: 'When the event happened.' }),
    business_id: z.string().nullable().openapi({ description: 'The business the event is about (null for webhook.test).' }),
    data: WEBHOOK_EVENTS[type].data,
  });
}

/** The envelope of each event type, as a union discriminated by `type`. */
export type WebhookEnvelope = {
  [T in WebhookEventType]: {
    id: string;
    type: T;
    created_at: string;
    business_id: string | null;
    data: z.infer<(typeof WEBHOOK_EVENTS)[T]['data']>;
  };
}[WebhookEventType];

/** Any envelope, parsed by its type: what fan-out accepts from the outbox and what tests check deliveries against. */
export const webhookEnvelopeAnySchema = z.discriminatedUnion(
  'type',
  WEBHOOK_EVENT_TYPES.map((t) => webhookEnvelopeSchema(t)) as unknown as [
    ReturnType<typeof webhookEnvelopeSchema<WebhookEventType>>,
    ...ReturnType<typeof webhookEnvelopeSchema<WebhookEventType>>[],
  ],
) as unknown as z.ZodType<WebhookEnvelope>;
