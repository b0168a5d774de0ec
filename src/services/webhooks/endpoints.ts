import { and, desc, eq, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { webhookEndpoints } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { partnerActor } from '../access';
import { committedSubject, prepareWrite, type ServiceContext } from '../kernel';
import { parseEventTypes } from './fanout';
import { type CreateEndpointInput, MAX_ENDPOINTS_PER_CLIENT, type RotateSecretInput, type WebhookEndpointView } from './schemas';
import { newSigningSecret, sealSigningSecret } from './secrets';
import { checkWebhookUrl } from './url-policy';

/**
 * A partner client's webhook endpoints (scope `webhooks:manage`). An endpoint belongs to the client
 * that made it; another client's is answered 404 WEBHOOK-ENDPOINT-NOT-FND-ERR, like one that does not
 * exist. The URL is checked against the SSRF policy here and again before every send.
 */

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function endpointView(r: EndpointRow): WebhookEndpointView {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    event_types: parseEventTypes(r.event_types),
    status: r.status,
    disabled_reason: r.disabled_reason,
    disabled_at: toIso(r.disabled_at),
    consecutive_failures: r.consecutive_failures,
    failing_since: toIso(r.failing_since),
    last_success_at: toIso(r.last_success_at),
    last_failure_at: toIso(r.last_failure_at),
    previous_secret_expires_at: r.previous_secret_enc ? toIso(r.previous_secret_expires_at) : null,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
}

/** The calling client's endpoint, or 404 (also for another client's: ids cannot be probed). */
export async function ownEndpoint(ctx: ServiceContext, id: string): Promise<EndpointRow> {
  const actor = partnerActor(ctx);
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.partner_client_id, actor.partnerId)))
    .limit(1);
  if (!row) throw new AppError('WEBHOOK-ENDPOINT-NOT-FND-ERR');
  return row;
}

export function assertWebhookUrl(ctx: ServiceContext, url: string): string {
  const verdict = checkWebhookUrl(url, { allowLoopback: ctx.settings.LOCAL_DEFAULT_SECRETS });
  if (!verdict.ok) throw new AppError('WEBHOOK-URL-ERR', `The URL ${verdict.reason}.`, [{ field: 'url', message: verdict.reason }]);
  return verdict.url.toString();
}

const opApplied = (id: string, op: string) =>
  sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${webhookEndpoints.id} = ${id} AND ${webhookEndpoints.last_op_id} = ${op})`;

/** Registers an endpoint; the answer carries its signing secret, once. At most MAX_ENDPOINTS_PER_CLIENT per client. */
export async function createEndpoint(
  ctx: ServiceContext,
  input: CreateEndpointInput,
): Promise<WebhookEndpointView & { secret: string | null }> {
  const actor = partnerActor(ctx);
  const done = committedSubject(ctx, 'webhook_endpoint');
  if (done) return { ...endpointView(await ownEndpoint(ctx, done)), secret: null };
  const url = assertWebhookUrl(ctx, input.url);
  const id = newId('webhookEndpoint');
  const secret = newSigningSecret();
  const now = ctx.now();
  const values = {
    id,
    partner_client_id: actor.partnerId,
    url,
    description: input.description || null,
    event_types: JSON.stringify([...new Set(input.event_types)]),
    secret_enc: await sealSigningSecret(ctx.settings, id, secret),
    status: 'active' as const,
    created_at: now,
    updated_at: now,
  };
  // The cap is part of the insert, so concurrent creations cannot pass it together.
  const r = await prepareWrite(ctx, { type: 'webhook_endpoint', id }).commit({
    guard: insertWhere(
      ctx.db,
      webhookEndpoints,
      values,
      sql`(SELECT count(*) FROM ${webhookEndpoints} WHERE ${webhookEndpoints.partner_client_id} = ${actor.partnerId}) < ${MAX_ENDPOINTS_PER_CLIENT}`,
    ),
    audit: { action: 'webhook_endpoint.create', data: { url, event_types: input.event_types } },
  });
  if (!r.applied) {
    throw new AppError('WEBHOOK-ENDPOINT-LIMIT-ERR', `A partner client has at most ${MAX_ENDPOINTS_PER_CLIENT} webhook endpoints.`);
  }
  return { ...endpointView(await ownEndpoint(ctx, r.subject.id)), secret: r.replayed ? null : secret };
}

export async function listEndpoints(ctx: ServiceContext): Promise<{ data: WebhookEndpointView[]; endpoints: WebhookEndpointView[] }> {
  const actor = partnerActor(ctx);
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.partner_client_id, actor.partnerId))
    .orderBy(desc(webhookEndpoints.created_at), desc(webhookEndpoints.id))
    .limit(MAX_ENDPOINTS_PER_CLIENT);
  const data = rows.map(endpointView);
  // `endpoints`: the list's old name, kept through v1.
  return { data, endpoints: data };
}

/** Deletes an endpoint with its deliveries and their log; queued attempts then find nothing and stop. */
export async function deleteEndpoint(ctx: ServiceContext, id: string): Promise<{ id: string; deleted: true }> {
  const done = committedSubject(ctx, 'webhook_endpoint');
  if (done) return { id: done, deleted: true };
  const row = await ownEndpoint(ctx, id);
  await prepareWrite(ctx, { type: 'webhook_endpoint', id }).commit({
    guard: ctx.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.partner_client_id, row.partner_client_id))),
    audit: { action: 'webhook_endpoint.delete', data: { url: row.url } },
  });
  return { id: row.id, deleted: true };
}

/**
 * A new signing secret, shown once. With a grace period the old one keeps signing alongside until it
 * ends (receivers accept either); without, it stops at once.
 */
export async function rotateSecret(
  ctx: ServiceContext,
  id: string,
  input: RotateSecretInput,
): Promise<{ endpoint: WebhookEndpointView; secret: string | null }> {
  const done = committedSubject(ctx, 'webhook_endpoint');
  if (done) return { endpoint: endpointView(await ownEndpoint(ctx, done)), secret: null };
  const row = await ownEndpoint(ctx, id);
  const secret = newSigningSecret();
  const now = ctx.now();
  const grace = input.previous_secret_valid_for_seconds;
  const w = prepareWrite(ctx, { type: 'webhook_endpoint', id: row.id }, (op) => opApplied(row.id, op));
  const r = await w.commit({
    guard: ctx.db
      .update(webhookEndpoints)
      .set({
        secret_enc: await sealSigningSecret(ctx.settings, row.id, secret),
        previous_secret_enc: grace > 0 ? row.secret_enc : null,
        previous_secret_expires_at: grace > 0 ? now + grace * 1000 : null,
        last_op_id: w.op,
        updated_at: now,
      })
      // Against the secret read: two rotations at once cannot both keep "the previous" one.
      .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.secret_enc, row.secret_enc))),
    audit: { action: 'webhook_endpoint.rotate_secret', data: { previous_secret_valid_for_seconds: grace } },
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', 'The secret was rotated at the same moment by another request; read it again.');
  return { endpoint: endpointView(await ownEndpoint(ctx, row.id)), secret: r.replayed ? null : secret };
}

/** Turns a disabled endpoint back on with clean failure counters (after the partner fixed it). */
export async function enableEndpoint(ctx: ServiceContext, id: string): Promise<WebhookEndpointView> {
  const done = committedSubject(ctx, 'webhook_endpoint');
  const row = await ownEndpoint(ctx, done ?? id);
  if (done || row.status === 'active') return endpointView(row);
  assertWebhookUrl(ctx, row.url);
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'webhook_endpoint', id: row.id }, (op) => opApplied(row.id, op));
  await w.commit({
    guard: ctx.db
      .update(webhookEndpoints)
      .set({
        status: 'active',
        disabled_reason: null,
        disabled_at: null,
        consecutive_failures: 0,
        failing_since: null,
        last_op_id: w.op,
        updated_at: now,
      })
      .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.status, 'disabled'))),
    audit: { action: 'webhook_endpoint.enable' },
  });
  return endpointView(await ownEndpoint(ctx, row.id));
}
