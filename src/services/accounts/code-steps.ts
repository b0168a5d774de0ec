import { and, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import { codeSteps } from '../../db/schema';
import { sha256Hex, timingSafeEqualStr } from '../../lib/crypto';
import { newId, randomBase62 } from '../../lib/ids';
import type { ServiceContext } from '../kernel';

/*
 * The browser side of an emailed-code step (db/schema/users.ts `codeSteps`): the address the code went
 * to, kept on the server and bound to the browser that started the step by a random token in its
 * cookie. The pages never carry the address in a URL; the sign-up's confirmation from that browser
 * needs only the code (the browser set the password moments before), while the API's verify_email
 * and a browser without the step still ask for the email, the code and the password.
 */

export type CodeStepPurpose = (typeof codeSteps.$inferSelect)['purpose'];

/** A step lives as long as the attempts of its address are counted together (codes.ts, an hour); a new code renews it. */
export const CODE_STEP_TTL_MS = 60 * 60 * 1000;

/** The cookie's value: `<step id>.<secret>`; only a SHA-256 of the secret is stored. */
const TOKEN_PATTERN = /^cst_[0-9A-Za-z]{20}\.[0-9A-Za-z]{40}$/;

export interface CodeStep {
  id: string;
  purpose: CodeStepPurpose;
  email: string;
  userId: string | null;
  expiresAt: number;
}

/** A new step for `email`: the cookie's token and the statement that stores it (run it once the code is sent). */
export async function newCodeStep(ctx: ServiceContext, purpose: CodeStepPurpose, email: string, userId: string | null) {
  const id = newId('codeStep');
  const secret = randomBase62(40);
  const now = ctx.now();
  const expiresAt = now + CODE_STEP_TTL_MS;
  const insert = ctx.db.insert(codeSteps).values({
    id,
    purpose,
    email,
    user_id: userId,
    token_hash: await sha256Hex(secret),
    expires_at: expiresAt,
    created_at: now,
  });
  return { token: `${id}.${secret}`, expiresAt, insert };
}

/** The live, unused step this token names, for this purpose; null for anything else (no reason given). */
export async function readCodeStep(ctx: ServiceContext, token: string | undefined, purpose: CodeStepPurpose): Promise<CodeStep | null> {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const [id, secret] = token.split('.') as [string, string];
  const [row] = await ctx.db
    .select()
    .from(codeSteps)
    .where(and(eq(codeSteps.id, id), eq(codeSteps.purpose, purpose), isNull(codeSteps.consumed_at), gt(codeSteps.expires_at, ctx.now())))
    .limit(1);
  if (!row || !timingSafeEqualStr(await sha256Hex(secret), row.token_hash)) return null;
  return { id: row.id, purpose: row.purpose, email: row.email, userId: row.user_id, expiresAt: row.expires_at };
}

/** A new code was sent for the step: it lives another CODE_STEP_TTL_MS from now. */
export function renewCodeStep(ctx: ServiceContext, stepId: string) {
  return ctx.db
    .update(codeSteps)
    .set({ expires_at: ctx.now() + CODE_STEP_TTL_MS })
    .where(and(eq(codeSteps.id, stepId), isNull(codeSteps.consumed_at)));
}

/** Marks the step used (in the batch of the change it finished: only when `onlyIf` holds). */
export function consumeCodeStep(ctx: ServiceContext, stepId: string, now: number, onlyIf?: SQL) {
  return ctx.db
    .update(codeSteps)
    .set({ consumed_at: now })
    .where(and(eq(codeSteps.id, stepId), isNull(codeSteps.consumed_at), onlyIf));
}

/** Removes steps a day past their expiry or their use (the code rows keep the attempt counts). */
export function pruneCodeSteps(ctx: ServiceContext) {
  const before = ctx.now() - 24 * 3600 * 1000;
  return ctx.db.delete(codeSteps).where(or(lt(codeSteps.expires_at, before), lt(codeSteps.consumed_at, before)));
}
