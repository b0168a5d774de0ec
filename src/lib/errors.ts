import { z } from '@hono/zod-openapi';

/**
 * The one code-to-status table. Route docs, the error handler and the tests all read it, so a
 * code cannot be documented with one status and answered with another.
 */
export const ERROR_CODES = {
  'VALIDATION-ERR': { status: 400, description: 'The request is malformed or a field is invalid.' },
  'AUTH-REQ-ERR': { status: 401, description: 'Credentials are missing, malformed, unknown or revoked.' },
  'LOGIN-FAILED-ERR': { status: 401, description: 'Email or password is wrong.' },
  'FORBIDDEN-ERR': { status: 403, description: 'Authenticated, but not allowed to do this.' },
  'EMAIL-UNVERIFIED-ERR': { status: 403, description: 'The email address is not verified yet.' },
  'PASSWORD-WRONG-ERR': { status: 403, description: 'The current password is wrong.' },
  'SCOPE-ERR': {
    status: 403,
    description: 'The partner credential, or the business link, lacks the scope this operation needs (details.required_scope names it).',
  },
  'NOT-FOUND-ERR': { status: 404, description: 'No such route or resource (or the caller may not know it exists).' },
  'USER-NOT-FND-ERR': { status: 404, description: 'No such user.' },
  'SHIFTER-NOT-FND-ERR': { status: 404, description: 'No such shifter profile.' },
  'BUSINESS-NOT-FND-ERR': { status: 404, description: 'No such business.' },
  'SESSION-NOT-FND-ERR': { status: 404, description: 'No such live session of yours.' },
  'AGENT-GRANT-NOT-FND-ERR': { status: 404, description: 'No such connected app (agent grant) of yours.' },
  'INVITATION-NOT-FND-ERR': { status: 404, description: 'No such teammate invitation (or it is not addressed to you).' },
  'CREW-INVITE-NOT-FND-ERR': { status: 404, description: 'No such crew invitation or join link (or it belongs to another business).' },
  'PARTNER-CLIENT-NOT-FND-ERR': { status: 404, description: 'No such partner client (or it is not yours to manage).' },
  'PARTNER-LINK-NOT-FND-ERR': { status: 404, description: 'The partner client is not linked to this business.' },
  'CONFLICT-ERR': { status: 409, description: 'The request conflicts with the current state.' },
  'EMAIL-TAKEN-ERR': { status: 409, description: 'An account with this email already exists.' },
  'PROFILE-EXISTS-ERR': { status: 409, description: 'The user already has this profile.' },
  'INVITATION-CLOSED-ERR': { status: 409, description: 'The invitation was accepted, declined, revoked or has expired.' },
  'CREW-INVITE-CLOSED-ERR': {
    status: 409,
    description:
      'The crew invitation was used, withdrawn, replaced by a newer one or has expired, or the join link was replaced (details.state says which).',
  },
  'PARTNER-LINK-EXISTS-ERR': { status: 409, description: 'The partner client is already linked to this business.' },
  'TWO-FACTOR-CODE-ERR': { status: 401, description: 'The two-factor code or backup code is wrong, expired or used already.' },
  'TWO-FACTOR-REQ-ERR': {
    status: 401,
    description: 'The session waits for its second factor (POST /v1/auth/login/two_factor); it reaches nothing else.',
  },
  'VERIFY-CODE-ERR': { status: 400, description: 'The verification code is wrong, used or expired.' },
  'STRIPE-SIGNATURE-ERR': {
    status: 400,
    description: 'The Stripe-Signature header is missing, forged, for another body, or older than the tolerance (300 s).',
  },
  'IDEMPOTENCY-MISMATCH-ERR': {
    status: 409,
    description: 'This Idempotency-Key was used before with a different request.',
  },
  'IDEMPOTENCY-IN-PROGRESS-ERR': {
    status: 409,
    description: 'A request with this Idempotency-Key is still being processed; retry shortly.',
  },
  'SHFT-NOT-FND-ERR': { status: 404, description: 'No such shift request (or it is not yours to see).' },
  'TEMPLATE-NOT-FND-ERR': { status: 404, description: 'No such shift template.' },
  'CONNECTION-NOT-FND-ERR': { status: 404, description: 'No such connection request.' },
  'UPLOAD-NOT-FND-ERR': { status: 404, description: 'No such upload.' },
  'RULE-NOT-FND-ERR': { status: 404, description: 'No such counter rule.' },
  'MILEAGE-NOT-FND-ERR': { status: 404, description: 'No such mileage entry.' },
  'PASSPORT-NOT-FND-ERR': { status: 404, description: 'No such AI passport of yours.' },
  'CREDENTIAL-NOT-FND-ERR': { status: 404, description: 'No such credential (or it is not visible to you).' },
  'NOTIFICATION-NOT-FND-ERR': { status: 404, description: 'No such notification of yours.' },
  'PUSH-SUBSCRIPTION-NOT-FND-ERR': { status: 404, description: 'No such push subscription of yours.' },
  'WEBHOOK-ENDPOINT-NOT-FND-ERR': { status: 404, description: 'No such webhook endpoint of this partner client.' },
  'WEBHOOK-DELIVERY-NOT-FND-ERR': { status: 404, description: 'No such delivery to this webhook endpoint.' },
  'REVIEW-NOT-FND-ERR': { status: 404, description: 'No such review (or it was removed after an upheld dispute).' },
  'HELP-NOT-FND-ERR': { status: 404, description: 'No such help article or video.' },
  'MSG-NOT-FND-ERR': { status: 404, description: 'No such message thread or message.' },
  'MSG-NOT-PARTICIPANT': { status: 403, description: 'You take no part in this thread (or not as the party you named).' },
  'MSG-BLOCKED-ERR': { status: 403, description: 'Messaging is blocked in this thread.' },
  'MSG-REQ-PENDING-ERR': { status: 409, description: 'The message request is still pending: the other party has not accepted it yet.' },
  'MSG-BODY-ERR': { status: 400, description: 'The message body is invalid: not a string, empty after trimming, or too long.' },
  'MSG-NOT-CONNECTED-ERR': { status: 422, description: 'Direct messages go only to a connected counterparty (an accepted connection).' },
  'SHFT-STATE-ERR': { status: 409, description: 'The shift request is not in a state that allows this.' },
  'PASSPORT-REVOKED-ERR': { status: 409, description: 'The AI passport is already revoked.' },
  'SHFT-COMPLETED-ERR': { status: 409, description: 'The shift is completed (worked and settled).' },
  'SHFT-EXPIRED-ERR': { status: 409, description: 'The shift request expired before anyone took it.' },
  'SHFT-DECLINED-ERR': { status: 409, description: 'The shift request was declined.' },
  'SHFT-SUPERSEDED-ERR': { status: 409, description: 'The shift request was replaced by a change request.' },
  'SHFT-CANCELLED-ERR': { status: 409, description: 'The shift request is already cancelled.' },
  'SHFT-WORKED-ERR': { status: 409, description: 'The shift has been worked; it can no longer be cancelled.' },
  'SHFT-STARTED-ERR': { status: 409, description: 'The shifter has clocked in; the shift can no longer be cancelled.' },
  'SHFT-CONFLICT-ERR': { status: 409, description: 'The shifter already has an accepted shift overlapping this one.' },
  'CLAIM-LOST-ERR': { status: 409, description: 'Another shifter claimed this broadcast first.' },
  'CONNECTION-EXISTS-ERR': { status: 409, description: 'These parties are already connected or a request is pending.' },
  'WEBHOOK-ENDPOINT-DISABLED-ERR': { status: 409, description: 'The webhook endpoint is disabled; enable it first.' },
  'WEBHOOK-DELIVERY-IN-PROGRESS-ERR': {
    status: 409,
    description: 'The delivery is still being attempted; redeliver it once it has succeeded or failed.',
  },
  'REVIEW-EXISTS-ERR': {
    status: 409,
    description: 'This party has already reviewed that worked shift (one review per worked shift with the other party, pinned or not).',
  },
  'REVIEW-RESPONDED-ERR': { status: 409, description: 'The review already has a response; it is given once.' },
  'REVIEW-DISPUTED-ERR': { status: 409, description: 'The review has been disputed already; it is disputed once.' },
  'REVIEW-DISPUTE-STATE-ERR': { status: 409, description: 'The review has no pending dispute to resolve.' },
  'SHFT-NOT-CONNECTED-ERR': { status: 422, description: 'The shifter is not connected to the business.' },
  'SHIFTER-PAUSED-ERR': { status: 422, description: 'The shifter is not accepting shift requests (Paused).' },
  'SHFT-PHOTO-REQ-ERR': { status: 422, description: 'The business requires a clock photo and none was sent.' },
  'GEOFENCE-ERR': { status: 422, description: "Out of the business's geofence; send the I'm-here override to clock in anyway." },
  'TIMESHEET-NOT-FND-ERR': { status: 404, description: 'No such timesheet (or not one you may see).' },
  'TIMESHEET-STATE-ERR': {
    status: 409,
    description: 'The timesheet is not in a state that allows this (open, submitted, approved, locked; or a dispute is open).',
  },
  'TIMESHEET-LOCKED-ERR': { status: 409, description: 'The timesheet is approved or its pay period is locked; it is never rewritten.' },
  'TIMESHEET-WINDOW-ERR': {
    status: 409,
    description:
      "Outside the timesheet's window: the dispute window has closed, or it is still open for the worker and approval waits for it.",
  },
  'TIMESHEET-CONSENT-ERR': {
    status: 409,
    description: 'An edit moving either end by more than 2 hours needs the worker’s consent; ask them to dispute with those times instead.',
  },
  'SHFT-CLOCK-WINDOW-ERR': {
    status: 422,
    description: 'Outside the clock window: too early or too late to clock in, or too soon to clock out.',
  },
  'SHFT-OWN-BUSINESS-ERR': { status: 403, description: 'You act for this business: its broadcasts are for its crew to claim.' },
  'NOT-NEGOTIABLE': {
    status: 422,
    description: 'A counter-offer is made only on a pending request targeted to you; broadcasts are not negotiable.',
  },
  'MCP-TEAMMATE-ERR': {
    status: 403,
    description: 'Agent tools act only for a business you own or as your own shifter; acting as a teammate is not available yet.',
  },
  'MCP-CONFIRM-REQ-ERR': {
    status: 409,
    description:
      'Agent tools: this write waits for your confirmation; call the tool again with confirm: true (details.summary says what it will do).',
  },
  'MCP-CONFIRM-DECLINED-ERR': { status: 403, description: 'Agent tools: the user declined the confirmation; nothing was done.' },
  'TEMPLATE-INACTIVE-ERR': { status: 422, description: 'The template is inactive; activate it before generating.' },
  'WEBHOOK-URL-ERR': {
    status: 422,
    description: 'The webhook URL is refused: it must be https on a public host (no private, loopback or link-local address).',
  },
  'WEBHOOK-ENDPOINT-LIMIT-ERR': { status: 422, description: 'The partner client has as many webhook endpoints as it may.' },
  'CLOCK-PHOTO-LIMIT-ERR': {
    status: 422,
    description: 'The shift has as many clock photos for this side as it may keep (details.limit); pass one already uploaded as photo_url.',
  },
  'DELIVERABLE-LIMIT-ERR': {
    status: 422,
    description: 'The shift has as many deliverables from this side as it may keep (details.limit); delete one first.',
  },
  'REVIEW-NOT-WORKED-ERR': {
    status: 422,
    description: 'The two parties have no worked shift together, or the pinned shift is not a worked shift between them.',
  },
  'INVOICE-NOT-FND-ERR': { status: 404, description: 'No such invoice (or it is not yours to see).' },
  'PAYMENT-METHOD-NOT-FND-ERR': { status: 404, description: 'No such saved card of this business.' },
  'INVOICE-PAID-ERR': { status: 409, description: 'The invoice is paid already.' },
  'INVOICE-NOT-PAID-ERR': { status: 409, description: 'The invoice is not paid (no charge to refund).' },
  'PAYMENT-IN-PROGRESS-ERR': {
    status: 409,
    description: 'A charge of this invoice is being made right now; read the invoice again shortly.',
  },
  'PAYMENT-CARD-REQ-ERR': { status: 422, description: 'The business has no default card saved: save one first.' },
  'PAYMENT-CAP-ERR': { status: 422, description: 'The amount is above the operator cap on one charge (PAYMENT_MAX_CHARGE_MINOR).' },
  'REFUND-AMOUNT-ERR': {
    status: 422,
    description: 'The refund is more than what is left to refund on the invoice (details.refundable_remaining), or nothing is left.',
  },
  'PAYMENT-SETUP-ERR': {
    status: 422,
    description: "The SetupIntent is not this business's, or it has not (yet) saved a card: confirm it first.",
  },
  'PAYLOAD-TOO-LARGE-ERR': { status: 413, description: 'The body or upload is too large.' },
  'UNSUPPORTED-MEDIA-ERR': { status: 415, description: 'The body or upload type is not accepted.' },
  'RATE-LIMIT-ERR': { status: 429, description: 'Too many requests; see Retry-After.' },
  'INTERNAL-ERR': { status: 500, description: 'Unexpected error. The request id identifies it in the logs.' },
  'PAYMENT-GATEWAY-ERR': {
    status: 502,
    description: 'The payment processor is unreachable or refused the request (details.processor_code names its reason when it gave one).',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]['status'];

export class AppError extends Error {
  override name = 'AppError';
  readonly status: ErrorStatus;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? ERROR_CODES[code].description);
    this.status = ERROR_CODES[code].status;
  }
}

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'VALIDATION-ERR' }),
      message: z.string(),
      details: z.unknown().optional(),
    }),
    request_id: z.string(),
  })
  .openapi('Error');

export type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorBody(code: string, message: string, requestId: string, details?: unknown): ErrorBody {
  return { error: { code, message, ...(details === undefined ? {} : { details }) }, request_id: requestId };
}

/** Codes every authenticated route can answer with. */
export const AUTH_ERRORS = ['VALIDATION-ERR', 'AUTH-REQ-ERR', 'FORBIDDEN-ERR', 'RATE-LIMIT-ERR', 'INTERNAL-ERR'] as const;
/** Codes every public route can answer with. */
export const PUBLIC_ERRORS = ['VALIDATION-ERR', 'RATE-LIMIT-ERR', 'INTERNAL-ERR'] as const;

/** The error body schema for one response, with `code` narrowed to the codes that status carries. */
function errorSchemaFor(codes: [ErrorCode, ...ErrorCode[]]) {
  return z.object({
    error: z.object({
      code: z.enum(codes),
      message: z.string(),
      details: z.unknown().optional(),
    }),
    request_id: z.string(),
  });
}

/**
 * OpenAPI `responses` entries for the given codes, grouped by status; each response's schema lists
 * exactly the codes it can carry. Spread into a route's responses.
 */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, [ErrorCode, ...ErrorCode[]]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    const list = byStatus.get(status);
    if (list) list.push(code);
    else byStatus.set(status, [code]);
  }
  const out: Record<number, { description: string; content: { 'application/json': { schema: ReturnType<typeof errorSchemaFor> } } }> = {};
  for (const [status, list] of byStatus) {
    out[status] = {
      description: list.map((c) => `${c}: ${ERROR_CODES[c].description}`).join(' '),
      content: { 'application/json': { schema: errorSchemaFor(list) } },
    };
  }
  return out;
}
