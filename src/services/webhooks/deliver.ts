import { and, eq, lte, or, type SQL, sql } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { partnerClients, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, webhookEvents } from '../../db/schema';
import { newId } from '../../lib/ids';
import { errorFields, safeErrorMessage } from '../../lib/log';
import { changedRows, draftEvent, publishOutbox, type ServiceContext } from '../kernel';
import type { WebhookDeliverMessage } from './messages';
import { DELIVERY_LEASE_MS, DELIVERY_TIMEOUT_MS, MAX_QUEUE_DELAY_SECONDS, parseRetryAfter, retryDelayMs } from './schedule';
import { openSigningSecret } from './secrets';
import {
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  signatureHeader,
  standardSignatureHeader,
} from './signature';
import { checkWebhookUrl } from './url-policy';

/**
 * One attempt of one delivery, at least once and never lost:
 *   1. claim the delivery row (`pending` and due, or `sending` whose lease ran out after a crash);
 *   2. sign and POST the stored payload (15 s timeout, redirects not followed);
 *   3. record the outcome in one batch: the delivery's new state, the attempt's log row, the
 *      endpoint's failure counters, its disabling and the owner's notification;
 *   4. only then queue the next attempt, and acknowledge.
 * A crash before 3 leaves the row `sending`: the message is retried (or the sweep re-sends it) and
 * the attempt is made again once the lease has run out, with the same event id and body.
 */

/** Sustained failure: an endpoint failing without a single success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
export const USER_AGENT = 'Shiftmarket-Webhooks/1.0';

/** What the consumer does with the message afterwards. */
export type DeliveryOutcome = { ack: true } | { ack: false; retryDelaySeconds: number };
const ACK: DeliveryOutcome = { ack: true };

type Loaded = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;

async function loadDelivery(ctx: ServiceContext, id: string) {
  const [row] = await ctx.db
    .select({
      delivery: webhookDeliveries,
      endpoint: webhookEndpoints,
      event: { id: webhookEvents.id, type: webhookEvents.type, payload: webhookEvents.payload },
      ownerUserId: partnerClients.owner_user_id,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.event_id))
    .innerJoin(partnerClients, eq(partnerClients.id, webhookEndpoints.partner_client_id))
    .where(eq(webhookDeliveries.id, id))
    .limit(1);
  return row ?? null;
}

/** The message for a delivery's next attempt, delayed by at most one queue hop (12 h). */
export async function enqueueAttempt(ctx: ServiceContext, message: WebhookDeliverMessage, dueAt: number): Promise<void> {
  const delaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((dueAt - ctx.now()) / 1000)));
  await ctx.env.WEBHOOKS_QUEUE.send(message, delaySeconds > 0 ? { delaySeconds } : undefined);
}

export async function deliverAttempt(ctx: ServiceContext, msg: WebhookDeliverMessage): Promise<DeliveryOutcome> {
  const loaded = await loadDelivery(ctx, msg.delivery_id);
  if (!loaded) return ACK; // deleted with its endpoint
  const d = loaded.delivery;
  const now = ctx.now();
  if (d.status === 'succeeded' || d.status === 'failed') return ACK;
  const resumesCrash = d.status === 'sending' && d.attempts === msg.attempts + 1;
  if (!resumesCrash && (d.status !== 'pending' || d.attempts !== msg.attempts)) return ACK; // a stale duplicate
  if (resumesCrash && (d.lease_until ?? 0) > now) {
    // The attempt may still be running elsewhere: come back when its lease has run out.
    return { ack: false, retryDelaySeconds: Math.ceil(((d.lease_until ?? now) - now) / 1000) + 1 };
  }
  if (d.status === 'pending' && d.next_attempt_at > now + 1000) {
    // Early: a wait longer than one queue hop, or a duplicate. Wait again for the rest.
    await enqueueAttempt(ctx, msg, d.next_attempt_at);
    return ACK;
  }
  if (loaded.endpoint.status !== 'active') {
    await ctx.db
      .update(webhookDeliveries)
      .set({ status: 'failed', last_error: 'endpoint disabled', lease_until: null, updated_at: now })
      .where(and(eq(webhookDeliveries.id, d.id), or(eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.status, 'sending'))));
    return ACK;
  }

  const claimOp = newId('operation');
  const attempt = msg.attempts + 1;
  const claimed = await ctx.db
    .update(webhookDeliveries)
    .set({
      status: 'sending',
      attempts: attempt,
      lease_until: now + DELIVERY_LEASE_MS,
      last_attempt_at: now,
      last_op_id: claimOp,
      updated_at: now,
    })
    .where(
      and(
        eq(webhookDeliveries.id, d.id),
        or(
          and(eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, msg.attempts)),
          and(eq(webhookDeliveries.status, 'sending'), eq(webhookDeliveries.attempts, attempt), lte(webhookDeliveries.lease_until, now)),
        ),
      ),
    );
  if (changedRows(claimed) === 0) return ACK; // another consumer took it

  const result = await send(ctx, loaded, now);
  await record(ctx, loaded, { claimOp, attempt, manual: msg.manual === true, startedAt: now, result });
  return ACK;
}

interface SendResult {
  status: number | null;
  durationMs: number;
  error: string | null;
  retryAfterMs: number | null;
  /** Never retried: the URL is refused, or the receiver said 410 Gone. */
  permanent: boolean;
}

async function send(ctx: ServiceContext, loaded: Loaded, startedAt: number): Promise<SendResult> {
  const { endpoint, event } = loaded;
  const verdict = checkWebhookUrl(endpoint.url, { allowLoopback: ctx.settings.LOCAL_DEFAULT_SECRETS });
  if (!verdict.ok) {
    return { status: null, durationMs: 0, error: `URL refused: ${verdict.reason}`, retryAfterMs: null, permanent: true };
  }
  const secrets = [await openSigningSecret(ctx.settings, endpoint.id, endpoint.secret_enc)];
  if (endpoint.previous_secret_enc && (endpoint.previous_secret_expires_at ?? 0) > startedAt) {
    secrets.push(await openSigningSecret(ctx.settings, endpoint.id, endpoint.previous_secret_enc));
  }
  const timestamp = Math.floor(startedAt / 1000);
  const started = Date.now();
  try {
    const res = await fetch(verdict.url.toString(), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        [EVENT_ID_HEADER]: event.id,
        [EVENT_TYPE_HEADER]: event.type,
        [SIGNATURE_HEADER]: await signatureHeader(secrets, timestamp, event.payload),
        // Standard Webhooks, for receivers using its libraries: the id is the event's, stable across retries.
        [STANDARD_ID_HEADER]: event.id,
        [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
        [STANDARD_SIGNATURE_HEADER]: standardSignatureHeader(secrets, event.id, timestamp, event.payload),
      },
      body: event.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => undefined);
    const durationMs = Date.now() - started;
    if (res.status >= 200 && res.status < 300) return { status: res.status, durationMs, error: null, retryAfterMs: null, permanent: false };
    const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get('Retry-After'), ctx.now()) : null;
    const error = res.status >= 300 && res.status < 400 ? `answered ${res.status}; redirects are not followed` : `answered ${res.status}`;
    return { status: res.status, durationMs, error, retryAfterMs, permanent: res.status === 410 };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    const error = timedOut ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : safeErrorMessage(err, 300);
    return { status: null, durationMs: Date.now() - started, error, retryAfterMs: null, permanent: false };
  }
}

interface Attempt {
  claimOp: string;
  attempt: number;
  manual: boolean;
  startedAt: number;
  result: SendResult;
}

async function record(ctx: ServiceContext, loaded: Loaded, a: Attempt): Promise<void> {
  const { delivery: d, endpoint } = loaded;
  const now = ctx.now();
  const ok = a.result.error === null;
  const exhausted = a.attempt >= d.max_attempts;
  const outcome = ok ? 'succeeded' : a.result.permanent || exhausted ? 'failed' : 'retrying';
  const wait = outcome === 'retrying' ? Math.max(retryDelayMs(a.attempt), a.result.retryAfterMs ?? 0) : 0;
  const nextAttemptAt = now + wait;
  const recordOp = newId('operation');
  const applied = sql`EXISTS (SELECT 1 FROM ${webhookDeliveries} WHERE ${webhookDeliveries.id} = ${d.id} AND ${webhookDeliveries.last_op_id} = ${recordOp})`;

  const statements: BatchItem[] = [
    ctx.db
      .update(webhookDeliveries)
      .set({
        status: outcome === 'retrying' ? 'pending' : outcome,
        next_attempt_at: nextAttemptAt,
        lease_until: null,
        last_response_code: a.result.status,
        last_duration_ms: a.result.durationMs,
        last_error: a.result.error,
        last_op_id: recordOp,
        updated_at: now,
      })
      .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.status, 'sending'), eq(webhookDeliveries.last_op_id, a.claimOp))),
    insertWhere(
      ctx.db,
      webhookDeliveryAttempts,
      {
        id: newId('webhookAttempt'),
        delivery_id: d.id,
        attempt: a.attempt,
        manual: a.manual,
        started_at: a.startedAt,
        duration_ms: a.result.durationMs,
        response_code: a.result.status,
        error: a.result.error,
        outcome,
      },
      applied,
    ),
    ctx.db
      .update(webhookEndpoints)
      .set(
        ok
          ? { consecutive_failures: 0, failing_since: null, last_success_at: now }
          : {
              consecutive_failures: sql`${webhookEndpoints.consecutive_failures} + 1`,
              failing_since: sql`coalesce(${webhookEndpoints.failing_since}, ${a.startedAt})`,
              last_failure_at: now,
            },
      )
      .where(and(eq(webhookEndpoints.id, endpoint.id), applied)),
  ];

  let disableOp: string | null = null;
  let disableIndex = -1;
  let reason: 'gone' | 'failing' | null = null;
  if (!ok) {
    reason = a.result.status === 410 ? 'gone' : 'failing';
    disableOp = newId('operation');
    const when: SQL =
      reason === 'gone'
        ? sql`1`
        : and(sql`${webhookEndpoints.failing_since} IS NOT NULL`, lte(webhookEndpoints.failing_since, now - DISABLE_AFTER_FAILING_MS))!;
    disableIndex = statements.length;
    statements.push(
      ctx.db
        .update(webhookEndpoints)
        .set({ status: 'disabled', disabled_reason: reason, disabled_at: now, last_op_id: disableOp, updated_at: now })
        .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.status, 'active'), when, applied)),
    );
  }
  const notice =
    disableOp && reason
      ? draftEvent(
          ctx,
          'notifications',
          {
            type: 'notify',
            dedupe_key: `webhook_endpoint_disabled:${endpoint.id}:${disableOp}`,
            user_ids: [loaded.ownerUserId],
            kind: 'webhook_endpoint_disabled',
            title: 'A webhook endpoint was disabled',
            body:
              reason === 'gone'
                ? `${endpoint.url} answered 410 Gone, so Shiftmarket stopped sending to it.`
                : `${endpoint.url} has failed every delivery for 5 days, so Shiftmarket stopped sending to it. Fix it and enable it again.`,
            data: { endpoint_id: endpoint.id, partner_client_id: endpoint.partner_client_id, reason },
          },
          sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${webhookEndpoints.id} = ${endpoint.id} AND ${webhookEndpoints.last_op_id} = ${disableOp})`,
        )
      : null;
  if (notice) statements.push(notice.statement);

  const results = await runBatch(ctx.db, statements);
  if (changedRows(results[0]) === 0) {
    ctx.log.warn('webhook attempt outcome not recorded: the delivery was taken over', { delivery_id: d.id, attempt: a.attempt });
    return;
  }
  (ok ? ctx.log.info : ctx.log.warn)('webhook attempt', {
    delivery_id: d.id,
    endpoint_id: endpoint.id,
    event_id: loaded.event.id,
    event_type: loaded.event.type,
    attempt: a.attempt,
    outcome,
    response_code: a.result.status,
    duration_ms: a.result.durationMs,
    ...(a.result.error ? { error: a.result.error } : {}),
  });
  if (notice && changedRows(results[disableIndex]) > 0) {
    ctx.log.warn('webhook endpoint disabled', { endpoint_id: endpoint.id, partner_client_id: endpoint.partner_client_id, reason });
    try {
      await publishOutbox(ctx, [notice.id]);
    } catch (err) {
      ctx.log.warn('notification publish failed; the sweep will send it', errorFields(err));
    }
  }
  if (outcome === 'retrying') {
    try {
      await enqueueAttempt(ctx, { type: 'webhook.deliver', delivery_id: d.id, attempts: a.attempt }, nextAttemptAt);
    } catch (err) {
      // Recorded as pending and due: the sweep sends it.
      ctx.log.warn('next webhook attempt not queued; the sweep will send it', { delivery_id: d.id, ...errorFields(err) });
    }
  }
}
