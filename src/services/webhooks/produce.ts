import type { reviews, shiftRequests } from '../../db/schema';
import { newId } from '../../lib/ids';
import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import { readStatus } from '../kernel';
import type { WEBHOOK_EVENTS, WebhookEnvelope, WebhookEventType, WebhookShiftRequest } from './payloads';
import type { z } from '@hono/zod-openapi';

/**
 * What producers put in a guarded write's `events` part: a partner event on the `webhooks` topic.
 * The envelope (with its event id, fixed here once) is the outbox row's body, so a re-send of the row
 * carries the same id, and fan-out makes at most one delivery per endpoint of it.
 */
export interface PartnerEventPart {
  topic: 'webhooks';
  body: WebhookEnvelope;
}

export function partnerEvent<T extends WebhookEventType>(
  type: T,
  businessId: string | null,
  data: z.infer<(typeof WEBHOOK_EVENTS)[T]['data']>,
  now: number,
): PartnerEventPart {
  return {
    topic: 'webhooks',
    body: { id: newId('webhookEvent'), type, created_at: toIso(now), business_id: businessId, data } as WebhookEnvelope,
  };
}

type ShiftRow = typeof shiftRequests.$inferSelect;
type Required = 'id' | 'business_id' | 'shift_date' | 'shift_in' | 'shift_out' | 'starts_at' | 'ends_at' | 'shiftrole_id';
type Rest = 'hourly_rate_minor' | 'currency' | 'is_broadcast' | 'request_status';
type Optional = 'shifter_id' | 'parent_id' | 'accepted_at' | 'shift_start_at' | 'shift_end_at' | 'cancelled_at' | 'cancelled_by';
/** A stored row, or the values of a row being inserted (whose nullable columns may be absent). */
export type ShiftRowLike = Pick<ShiftRow, Required | Rest> & Partial<Pick<ShiftRow, Optional>>;

/** A shift request as events show it, from a row as it stands after the change (apply the change first). */
export function webhookShiftRequest(row: ShiftRowLike): WebhookShiftRequest {
  const status = readStatus(row.request_status);
  return {
    id: row.id,
    business_id: row.business_id,
    shifter_id: row.shifter_id ?? null,
    shift_date: row.shift_date,
    shift_in: row.shift_in,
    shift_out: row.shift_out,
    starts_at: toIso(row.starts_at),
    ends_at: toIso(row.ends_at),
    shiftrole_id: row.shiftrole_id,
    hourly_rate: fromMinor(row.hourly_rate_minor, row.currency),
    currency: row.currency,
    is_broadcast: row.is_broadcast ? 1 : 0,
    request_status: status.value,
    status: status.name,
    parent_id: row.parent_id ?? null,
    accepted_at: toIso(row.accepted_at),
    shift_start_at: toIso(row.shift_start_at),
    shift_end_at: toIso(row.shift_end_at),
    cancelled_at: toIso(row.cancelled_at),
    cancelled_by: row.cancelled_by ?? null,
  };
}

type ShiftEventType = Exclude<
  WebhookEventType,
  'shift_request.cancelled' | 'invoice.paid' | 'invoice.refunded' | 'review.disputed' | 'webhook.test'
>;

/** A shift event (created, broadcast, claimed, accepted, clocked in/out) with the row after the change. */
export function shiftEvent(type: ShiftEventType, row: ShiftRowLike, now: number): PartnerEventPart {
  return partnerEvent(type, row.business_id, { shift_request: webhookShiftRequest(row) }, now);
}

type ReviewRow = typeof reviews.$inferSelect;

/** `review.disputed` for the business party of a review (none when no business takes part). */
export function reviewDisputedEvent(row: ReviewRow, now: number): PartnerEventPart[] {
  const businessId = row.review_by === 'business' ? row.review_by_id : row.review_on === 'business' ? row.review_on_id : null;
  if (!businessId) return [];
  return [
    partnerEvent(
      'review.disputed',
      businessId,
      {
        review: {
          id: row.id,
          business_id: businessId,
          review_by: row.review_by,
          review_by_id: row.review_by_id,
          review_on: row.review_on,
          review_on_id: row.review_on_id,
          shift_request_id: row.shift_request_id,
          rating: row.rating,
          disputed_at: toIso(now),
        },
      },
      now,
    ),
  ];
}
