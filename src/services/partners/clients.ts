import { and, desc, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { type BatchItem, isUniqueViolation, runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { partnerBusinessLinks, partnerClients, partnerCredentials, partnerTokens } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { adminOverUser, isAdmin } from '../access';
import { auditInsert, committedSubject, type PersonActor, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { type CredentialKind, mintCredential, tierLimit } from './credentials';
import type {
  ClientList,
  CreateClientInput,
  IssuedClientView,
  PageQuery,
  PartnerClientView,
  RotatedView,
  RotateInput,
  UpdateClientInput,
} from './schemas';

/** Clients one account may register (each carries credentials and may be linked widely). */
export const MAX_CLIENTS_PER_OWNER = 25;

type ClientRow = typeof partnerClients.$inferSelect;

/**
 * The current key's and secret's prefixes and the number of linked businesses, read with the client.
 * Correlated subqueries name their tables outright: drizzle leaves columns unqualified in a one-table
 * select, where `id` would resolve to the subquery's own table.
 */
const currentPrefix = (kind: CredentialKind) =>
  sql<
    string | null
  >`(SELECT c.prefix FROM ${partnerCredentials} c WHERE c.client_id = ${partnerClients}.id AND c.kind = ${kind} AND c.revoked_at IS NULL AND c.expires_at IS NULL)`;
const clientColumns = {
  row: partnerClients,
  apiKeyPrefix: currentPrefix('api_key'),
  secretPrefix: currentPrefix('client_secret'),
  links: sql<number>`(SELECT count(*) FROM ${partnerBusinessLinks} l WHERE l.client_id = ${partnerClients}.id)`,
};
type ClientRead = { row: ClientRow; apiKeyPrefix: string | null; secretPrefix: string | null; links: number };

function clientView(ctx: ServiceContext, r: ClientRead): PartnerClientView {
  const { limit, windowSeconds } = tierLimit(ctx.settings, r.row.client_tier);
  return {
    id: r.row.id,
    name: r.row.name,
    owner_user_id: r.row.owner_user_id,
    client_tier: r.row.client_tier,
    scopes: r.row.scopes,
    status: r.row.status,
    rate_limit: { limit, window_seconds: windowSeconds },
    api_key_prefix: r.apiKeyPrefix,
    client_secret_prefix: r.secretPrefix,
    linked_business_count: Number(r.links),
    created_at: toIso(r.row.created_at),
    updated_at: toIso(r.row.updated_at),
  };
}

async function readClient(ctx: ServiceContext, clientId: string): Promise<ClientRead | null> {
  const [r] = await ctx.db.select(clientColumns).from(partnerClients).where(eq(partnerClients.id, clientId)).limit(1);
  return r ?? null;
}

/** A client the caller may manage: its owner's, or any for an admin over the owner. Anyone else: 404. */
async function manageableClient(ctx: ServiceContext, clientId: string): Promise<{ read: ClientRead; actor: PersonActor }> {
  const actor = requirePerson(ctx);
  const read = await readClient(ctx, clientId);
  if (!read || (read.row.owner_user_id !== actor.userId && !(await adminOverUser(ctx, actor, read.row.owner_user_id)))) {
    throw new AppError('PARTNER-CLIENT-NOT-FND-ERR');
  }
  return { read, actor };
}

/** Only an admin sets a tier above self-serve (a demo account never can). */
function assertTierAllowed(actor: PersonActor, tier: string | undefined, current: string) {
  if (tier !== undefined && tier !== current && !isAdmin(actor)) {
    throw new AppError('FORBIDDEN-ERR', 'Only an admin may set client_tier to trusted or internal, or change it.');
  }
}

/**
 * Registers a client for the caller and issues its x-api-key and client secret, both shown in this
 * answer only. A retry after the create committed (the answer was lost) answers the same client with
 * fresh credentials, revoking the unseen ones, so a retry never makes a second client.
 */
export async function createClient(ctx: ServiceContext, input: CreateClientInput): Promise<IssuedClientView> {
  const actor = requirePerson(ctx);
  const done = committedSubject(ctx, 'partner_client');
  if (done) {
    const [key, secret] = [await rotate(ctx, done, 'api_key', 0), await rotate(ctx, done, 'client_secret', 0)];
    return issued(ctx, done, key.secret, secret.secret);
  }
  const tier = input.client_tier ?? 'self_serve';
  assertTierAllowed(actor, tier, 'self_serve');
  const now = ctx.now();
  const id = newId('partnerClient');
  const w = prepareWrite(
    ctx,
    { type: 'partner_client', id },
    (op) => sql`EXISTS (SELECT 1 FROM ${partnerClients} WHERE ${partnerClients.id} = ${id} AND ${partnerClients.last_op_id} = ${op})`,
  );
  const key = await mintCredential(id, 'api_key', now);
  const secret = await mintCredential(id, 'client_secret', now);
  const row = {
    id,
    name: input.name,
    owner_user_id: actor.userId,
    client_tier: tier,
    scopes: input.scopes,
    status: 'active' as const,
    last_op_id: w.op,
    created_at: now,
    updated_at: now,
  } satisfies typeof partnerClients.$inferInsert;
  const r = await w.commit({
    // The cap is part of the insert, so concurrent registrations cannot pass it together.
    guard: insertWhere(
      ctx.db,
      partnerClients,
      row,
      sql`(SELECT count(*) FROM ${partnerClients} WHERE ${partnerClients.owner_user_id} = ${actor.userId}) < ${MAX_CLIENTS_PER_OWNER}`,
    ),
    follow: [insertWhere(ctx.db, partnerCredentials, key.row, w.applied!), insertWhere(ctx.db, partnerCredentials, secret.row, w.applied!)],
    audit: { action: 'partner_client.create', data: { client_tier: tier, scopes: input.scopes } },
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', `An account may register at most ${MAX_CLIENTS_PER_OWNER} partner clients.`);
  return issued(ctx, id, key.secret, secret.secret);
}

async function issued(ctx: ServiceContext, clientId: string, apiKey: string, clientSecret: string): Promise<IssuedClientView> {
  const read = await readClient(ctx, clientId);
  if (!read) throw new AppError('PARTNER-CLIENT-NOT-FND-ERR');
  return { ...clientView(ctx, read), api_key: apiKey, client_secret: clientSecret };
}

/** The caller's own clients, newest first. */
export async function listClients(ctx: ServiceContext, q: PageQuery): Promise<ClientList> {
  const actor = requirePerson(ctx);
  const conds: SQL[] = [eq(partnerClients.owner_user_id, actor.userId)];
  if (q.cursor) {
    const [createdAt, id] = decodeCursor(q.cursor, isKeysetCursor);
    conds.push(or(lt(partnerClients.created_at, createdAt), and(eq(partnerClients.created_at, createdAt), lt(partnerClients.id, id)))!);
  }
  const rows = await ctx.db
    .select(clientColumns)
    .from(partnerClients)
    .where(and(...conds))
    .orderBy(desc(partnerClients.created_at), desc(partnerClients.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => clientView(ctx, r)),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.row.created_at, last.row.id]) : null,
  };
}

export async function getClient(ctx: ServiceContext, clientId: string): Promise<PartnerClientView> {
  return clientView(ctx, (await manageableClient(ctx, clientId)).read);
}

/** Renames, changes scopes, disables or re-enables a client; the tier only by an admin. */
export async function updateClient(ctx: ServiceContext, clientId: string, input: UpdateClientInput): Promise<PartnerClientView> {
  const { read, actor } = await manageableClient(ctx, clientId);
  assertTierAllowed(actor, input.client_tier, read.row.client_tier);
  const set: Partial<typeof partnerClients.$inferInsert> = { updated_at: ctx.now() };
  if (input.name !== undefined) set.name = input.name;
  if (input.scopes !== undefined) set.scopes = input.scopes;
  if (input.client_tier !== undefined) set.client_tier = input.client_tier;
  if (input.status !== undefined) set.status = input.status;
  const { updated_at: _u, ...changed } = set;
  await runBatch(ctx.db, [
    ctx.db.update(partnerClients).set(set).where(eq(partnerClients.id, clientId)),
    auditInsert(ctx, 'partner_client.update', { type: 'partner_client', id: clientId }, changed),
  ]);
  return getClient(ctx, clientId);
}

/**
 * Issues a new x-api-key or client secret, shown in this answer only. The old one is revoked at once,
 * or, with `overlap_seconds`, keeps working until then (an earlier overlap still running ends now, so
 * at most two work at any time). A secret rotated without an overlap also revokes the client's live
 * access tokens (the rotation answers a leak); with one they run out on their own (at most an hour).
 * Not replayed for a repeated Idempotency-Key (the answer holds a secret): a retry rotates again.
 */
export async function rotateClientCredential(
  ctx: ServiceContext,
  clientId: string,
  kind: CredentialKind,
  input: RotateInput,
): Promise<RotatedView> {
  await manageableClient(ctx, clientId);
  return rotate(ctx, clientId, kind, input.overlap_seconds ?? 0);
}

async function rotate(ctx: ServiceContext, clientId: string, kind: CredentialKind, overlapSeconds: number): Promise<RotatedView> {
  const now = ctx.now();
  const { secret, row } = await mintCredential(clientId, kind, now);
  const ofKind = and(eq(partnerCredentials.client_id, clientId), eq(partnerCredentials.kind, kind), isNull(partnerCredentials.revoked_at));
  const until = overlapSeconds > 0 ? now + overlapSeconds * 1000 : null;
  const statements: BatchItem[] = [
    ctx.db
      .update(partnerCredentials)
      .set({ revoked_at: now })
      .where(until === null ? ofKind : and(ofKind, isNotNull(partnerCredentials.expires_at))),
    ...(until === null
      ? []
      : [
          ctx.db
            .update(partnerCredentials)
            .set({ expires_at: until })
            .where(and(ofKind, isNull(partnerCredentials.expires_at))),
        ]),
    ctx.db.insert(partnerCredentials).values(row),
    ...(kind === 'client_secret' && until === null
      ? [
          ctx.db
            .update(partnerTokens)
            .set({ revoked_at: now })
            .where(and(eq(partnerTokens.client_id, clientId), isNull(partnerTokens.revoked_at))),
        ]
      : []),
    ctx.db.update(partnerClients).set({ updated_at: now }).where(eq(partnerClients.id, clientId)),
    auditInsert(ctx, `partner_client.rotate_${kind}`, { type: 'partner_client', id: clientId }, { overlap_seconds: overlapSeconds }),
  ];
  try {
    await runBatch(ctx.db, statements);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT-ERR', 'Another rotation ran at the same moment; try again.');
    throw err;
  }
  return { client_id: clientId, kind, secret, prefix: row.prefix, created_at: toIso(now), previous_expires_at: toIso(until) };
}
