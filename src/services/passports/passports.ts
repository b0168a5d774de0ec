import { and, desc, eq, isNull } from 'drizzle-orm';
import { aiPassports } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { committedSubject, existsIn, markedWrite, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import type { ListPassportsQuery, PassportList, PassportView, RecordPassportInput } from './schemas';

/**
 * AI passports (issue 14): a person records which agent, model and operator act for their account,
 * lists and revokes them. Only the account's own passports, for anyone (admins included): a passport
 * is a statement by the account holder, so nobody else writes or reads it through these routes.
 */
type PassportRow = typeof aiPassports.$inferSelect;

export function passportView(r: PassportRow): PassportView {
  return {
    id: r.id,
    user_id: r.user_id,
    agent_name: r.agent_name,
    model: r.model,
    operator: r.operator,
    purpose: r.purpose,
    status: r.revoked_at === null ? 'active' : 'revoked',
    created_at: toIso(r.created_at),
    revoked_at: toIso(r.revoked_at),
  };
}

async function ownPassport(ctx: ServiceContext, userId: string, id: string): Promise<PassportRow> {
  const [row] = await ctx.db
    .select()
    .from(aiPassports)
    .where(and(eq(aiPassports.id, id), eq(aiPassports.user_id, userId)))
    .limit(1);
  if (!row) throw new AppError('PASSPORT-NOT-FND-ERR');
  return row;
}

/** POST /v1/ai_passports */
export async function recordPassport(ctx: ServiceContext, input: RecordPassportInput): Promise<PassportView> {
  const actor = requirePerson(ctx);
  const done = committedSubject(ctx, 'ai_passport');
  if (done) return passportView(await ownPassport(ctx, actor.userId, done));
  const row: PassportRow = {
    id: newId('passport'),
    user_id: actor.userId,
    agent_name: input.agent_name,
    model: input.model,
    operator: input.operator,
    purpose: input.purpose || null,
    created_at: ctx.now(),
    revoked_at: null,
  };
  await prepareWrite(ctx, { type: 'ai_passport', id: row.id }).commit({
    guard: ctx.db.insert(aiPassports).values(row),
    audit: { action: 'ai_passport.record', data: { agent_name: row.agent_name, model: row.model } },
  });
  return passportView(row);
}

/** GET /v1/ai_passports: the caller's own, newest first. */
export async function listPassports(ctx: ServiceContext, q: ListPassportsQuery): Promise<PassportList> {
  const actor = requirePerson(ctx);
  const own = eq(aiPassports.user_id, actor.userId);
  const rows = await ctx.db
    .select()
    .from(aiPassports)
    .where(q.include_revoked ? own : and(own, isNull(aiPassports.revoked_at)))
    .orderBy(desc(aiPassports.created_at), desc(aiPassports.id))
    .limit(q.limit);
  return { data: rows.map(passportView) };
}

/** POST /v1/ai_passports/{id}/revoke: once; a second revoke is a 409. */
export async function revokePassport(ctx: ServiceContext, id: string): Promise<PassportView> {
  const actor = requirePerson(ctx);
  if (committedSubject(ctx, 'ai_passport') === id) return passportView(await ownPassport(ctx, actor.userId, id));
  const old = await ownPassport(ctx, actor.userId, id);
  if (old.revoked_at !== null) throw new AppError('PASSPORT-REVOKED-ERR');
  const now = ctx.now();
  // The audit row is the marker (kernel/marked-write.ts): of two concurrent revokes only one applies and audits.
  const applied = await markedWrite(
    ctx,
    { type: 'ai_passport', id },
    {
      precondition: existsIn(
        aiPassports,
        and(eq(aiPassports.id, id), eq(aiPassports.user_id, actor.userId), isNull(aiPassports.revoked_at))!,
      ),
      change: (marked) =>
        ctx.db
          .update(aiPassports)
          .set({ revoked_at: now })
          .where(and(eq(aiPassports.id, id), isNull(aiPassports.revoked_at), marked)),
      audit: { action: 'ai_passport.revoke' },
    },
  );
  if (!applied) throw new AppError('PASSPORT-REVOKED-ERR');
  return passportView({ ...old, revoked_at: now });
}
