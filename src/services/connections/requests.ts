import { and, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/client';
import { businesses, requestAuthorizations, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { accessBusiness, standingToward } from '../access';
import { committedSubject, existsIn, markedWrite, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { connectionNotice, type Parties } from './notify';
import type { ConnectionView, SendConnectionInput, Side } from './schemas';
import { type ConnectionRow, connectionAsStored, type LoadedConnection, loadConnection } from './view';

/*
 * Connection (request authorization) lifecycle, one row per business–shifter pair:
 *
 *   (none) ──send──▶ pending ──accept──▶ accepted
 *                       │ └──decline──▶ declined ──send──▶ pending (reopened by the sender's side)
 *                       └─ send from the other side = accept (a mutual request)
 *   any ──remove (either side)──▶ removed ──send──▶ pending
 *
 * Every change is one guarded write (services/kernel/guarded-write.ts): a new pair is an INSERT (the unique
 * pair index refuses a second); a transition is an UPDATE under the status and version the caller
 * read, marked by its audit row (services/kernel/marked-write.ts). Audit row and notification are in the
 * same batch and exist only if the change took effect. A retry of a request whose change already
 * committed (Idempotency-Key) answers from the connection it wrote.
 */

const other = (s: Side): Side => (s === 'business' ? 'shifter' : 'business');
/** Attempts when a concurrent change to the same pair makes a guarded update miss. */
const ATTEMPTS = 3;

/**
 * The sides of a connection the caller stands on: the business side as its owner, an active
 * teammate (status 1) or an admin (the same standings accessBusiness allows), the shifter side as the
 * shifter. Anyone else gets 404, as if the connection did not exist; so does a suspended teammate.
 */
export async function connectionSides(ctx: ServiceContext, c: LoadedConnection): Promise<Side[]> {
  const actor = requirePerson(ctx);
  const sides: Side[] = [];
  if (await standingToward(ctx, { id: c.row.business_id, user_id: c.businessOwnerId })) sides.push('business');
  if (c.shifterUserId === actor.userId) sides.push('shifter');
  if (sides.length === 0) throw new AppError('CONNECTION-NOT-FND-ERR');
  return sides;
}

/**
 * A guarded move of `row` to a new state: applies only if nobody changed the row since it was read
 * (its status and version). The transition's audit row marks the write (services/kernel/marked-write.ts),
 * so a concurrent change that lost leaves no audit row and no notification behind.
 */
async function transition(
  ctx: ServiceContext,
  row: ConnectionRow,
  to: { status: ConnectionRow['status']; initiated_by: Side; responded_at: number | null },
  action: string,
  note: { kind: 'connection_request' | 'connection_accepted'; to: Side; parties: Parties } | null,
): Promise<boolean> {
  const version = Math.max(ctx.now(), row.updated_at + 1);
  return markedWrite(
    ctx,
    { type: 'connection', id: row.id },
    {
      precondition: existsIn(
        requestAuthorizations,
        and(
          eq(requestAuthorizations.id, row.id),
          eq(requestAuthorizations.status, row.status),
          eq(requestAuthorizations.updated_at, row.updated_at),
        )!,
      ),
      change: (marked) =>
        ctx.db
          .update(requestAuthorizations)
          .set({ ...to, updated_at: version })
          .where(and(eq(requestAuthorizations.id, row.id), marked)),
      audit: { action, data: { from: row.status, to: to.status, initiated_by: to.initiated_by } },
      notify: note ? [await connectionNotice(ctx, note.kind, note.to, note.parties)] : [],
    },
  );
}

function partiesOf(c: LoadedConnection): Parties {
  return {
    business: { id: c.row.business_id, name: c.join.business_name },
    shifter: { id: c.row.shifter_id, name: c.join.shifter_name, userId: c.shifterUserId },
  };
}

/** Which side a send comes from, and the pair it is about. */
async function resolveSender(ctx: ServiceContext, input: SendConnectionInput): Promise<{ side: Side; parties: Parties }> {
  const actor = requirePerson(ctx);
  const side: Side = input.as ?? (input.shifter_id ? 'business' : 'shifter');
  if (side === 'business') {
    if (!input.shifter_id) {
      throw new AppError('VALIDATION-ERR', 'shifter_id: required when the business side sends', [
        { field: 'shifter_id', message: 'required when the business side sends' },
      ]);
    }
    const { business } = await accessBusiness(ctx, input.business_id);
    const [s] = await ctx.db.select().from(shifters).where(eq(shifters.id, input.shifter_id)).limit(1);
    if (!s) throw new AppError('SHIFTER-NOT-FND-ERR');
    return {
      side,
      parties: { business: { id: business.id, name: business.name }, shifter: { id: s.id, name: s.display_name, userId: s.user_id } },
    };
  }
  const [s] = await ctx.db.select().from(shifters).where(eq(shifters.user_id, actor.userId)).limit(1);
  if (!s) throw new AppError('SHIFTER-NOT-FND-ERR', 'The caller has no shifter profile to connect with.');
  if (input.shifter_id && input.shifter_id !== s.id) {
    throw new AppError('FORBIDDEN-ERR', 'A shifter sends connection requests only for their own profile.');
  }
  const [b] = await ctx.db
    .select({ id: businesses.id, name: businesses.name })
    .from(businesses)
    .where(eq(businesses.id, input.business_id))
    .limit(1);
  if (!b) throw new AppError('BUSINESS-NOT-FND-ERR');
  return { side, parties: { business: b, shifter: { id: s.id, name: s.display_name, userId: s.user_id } } };
}

/**
 * POST /v1/request_authorization/send. A new pair starts pending from the sender's side. An existing
 * pair: accepted, or pending from the same side, is 409 CONNECTION-EXISTS-ERR; pending from the other
 * side is accepted (both want it); declined or removed is reopened as pending from the sender's side.
 * Returns the connection as stored after the change. A concurrent change to the pair makes it re-read
 * and decide again.
 */
export async function sendConnection(ctx: ServiceContext, input: SendConnectionInput): Promise<ConnectionView> {
  return connectionAsStored(ctx, await sendConnectionId(ctx, input));
}

async function sendConnectionId(ctx: ServiceContext, input: SendConnectionInput): Promise<string> {
  const { side, parties } = await resolveSender(ctx, input);
  const done = committedSubject(ctx, 'connection');
  if (done) return done;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [row] = await ctx.db
      .select()
      .from(requestAuthorizations)
      .where(and(eq(requestAuthorizations.business_id, parties.business.id), eq(requestAuthorizations.shifter_id, parties.shifter.id)))
      .limit(1);

    if (!row) {
      const now = ctx.now();
      const id = newId('connection');
      // A plain insert: the batch fails as a whole when the pair already exists.
      const w = prepareWrite(ctx, { type: 'connection', id });
      try {
        await w.commit({
          guard: ctx.db.insert(requestAuthorizations).values({
            id,
            business_id: parties.business.id,
            shifter_id: parties.shifter.id,
            initiated_by: side,
            status: 'pending',
            responded_at: null,
            created_at: now,
            updated_at: now,
          }),
          audit: { action: 'connection.request', data: { initiated_by: side } },
          notify: [await connectionNotice(ctx, 'connection_request', other(side), parties)],
        });
      } catch (err) {
        if (isUniqueViolation(err)) continue; // the other side (or a double click) created the pair first
        throw err;
      }
      return id;
    }

    if (row.status === 'accepted') throw new AppError('CONNECTION-EXISTS-ERR', 'These parties are already connected.');
    if (row.status === 'pending' && row.initiated_by === side) {
      throw new AppError('CONNECTION-EXISTS-ERR', 'A connection request from this side is already pending.');
    }
    const applied =
      row.status === 'pending'
        ? await transition(ctx, row, { status: 'accepted', initiated_by: row.initiated_by, responded_at: ctx.now() }, 'connection.accept', {
            kind: 'connection_accepted',
            to: row.initiated_by,
            parties,
          })
        : await transition(ctx, row, { status: 'pending', initiated_by: side, responded_at: null }, 'connection.request', {
            kind: 'connection_request',
            to: other(side),
            parties,
          });
    if (applied) return row.id;
  }
  throw new AppError('CONFLICT-ERR', 'The connection changed while sending; try again.');
}

/** Accept or decline a pending request: only its receiving side may. Returns the connection after the change. */
export async function respondToConnection(ctx: ServiceContext, id: string, decision: 'accept' | 'decline'): Promise<ConnectionView> {
  await respond(ctx, id, decision);
  return connectionAsStored(ctx, id);
}

async function respond(ctx: ServiceContext, id: string, decision: 'accept' | 'decline'): Promise<void> {
  const c = await loadConnection(ctx, id);
  const sides = await connectionSides(ctx, c);
  // A retry after the first attempt committed: its state check would now fail; answer from the row.
  if (committedSubject(ctx, 'connection') === id) return;
  const row = c.row;
  if (row.status !== 'pending') {
    throw new AppError('CONFLICT-ERR', `Only a pending request can be ${decision}ed; this one is ${row.status}.`, { status: row.status });
  }
  const receiving = other(row.initiated_by);
  if (!sides.includes(receiving)) {
    throw new AppError('FORBIDDEN-ERR', `Only the ${receiving} side may ${decision} this request.`);
  }
  const applied =
    decision === 'accept'
      ? await transition(ctx, row, { status: 'accepted', initiated_by: row.initiated_by, responded_at: ctx.now() }, 'connection.accept', {
          kind: 'connection_accepted',
          to: row.initiated_by,
          parties: partiesOf(c),
        })
      : await transition(
          ctx,
          row,
          { status: 'declined', initiated_by: row.initiated_by, responded_at: ctx.now() },
          'connection.decline',
          null,
        );
  if (!applied) throw new AppError('CONFLICT-ERR', 'The request changed meanwhile; reload it.');
}

/**
 * DELETE /v1/request_authorization/{id}: either side ends the connection, or withdraws or refuses a
 * pending request. Removing a removed connection changes nothing and succeeds (DELETE is idempotent).
 * Returns the connection, now removed.
 */
export async function removeConnection(ctx: ServiceContext, id: string): Promise<ConnectionView> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const c = await loadConnection(ctx, id);
    await connectionSides(ctx, c);
    const row = c.row;
    if (row.status === 'removed') return connectionAsStored(ctx, id);
    const to = { status: 'removed' as const, initiated_by: row.initiated_by, responded_at: row.responded_at };
    if (await transition(ctx, row, to, 'connection.remove', null)) return connectionAsStored(ctx, id);
  }
  throw new AppError('CONFLICT-ERR', 'The connection changed while removing; try again.');
}
