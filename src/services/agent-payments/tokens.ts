import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { invoices, mcpConfirmTokens, users } from '../../db/schema';
import { toBase64Url, sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import { assertAgentPayWithinCap, standingToward } from '../access';
import {
  appLinkOrigin,
  changedRows,
  prepareWrite,
  requirePerson,
  type ServiceContext,
  SHIFT_STATUS,
  shiftPayMinor,
  shiftWhen,
  stateError,
} from '../kernel';
import { smsProviderFor } from '../notifications';
import { loadShift } from '../shifts';

/** A confirm link works this long (spec 8: 5 minutes, single use). */
export const CONFIRM_TOKEN_TTL_MS = 5 * 60_000;
/** 32 random bytes: 256 bits, base64url in the link. */
const TOKEN_BYTES = 32;
/** The confirm page's path under {app_url}. */
export const CONFIRM_PATH = '/mcp-confirm/';

export type ConfirmTokenRow = typeof mcpConfirmTokens.$inferSelect;

export interface IssuedConfirmation {
  id: string;
  token: string;
  confirm_url: string;
  expires_at: string;
  amount: number;
  currency: string;
  shift_request_id: string;
}

export const hashConfirmToken = (token: string) => sha256Hex(token);

/** "$160.00", "£96.00": an amount as people read it. */
export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
}

/**
 * The business owner asks to pre-pay a claimed or accepted shift (tool confirm_payment_for_shift).
 * Checks: the caller owns the shift's business (a teammate gets MCP-TEAMMATE-ERR, anyone else 404),
 * the shift is accepted with a shifter and not worked or started, it is not paid already
 * (INVOICE-PAID-ERR: a link would only say "Paid"), and the amount (scheduled hours × rate) is within
 * the agent cap (access: assertAgentPayWithinCap). Writes a token row (only its sha-256) with its
 * audit row and the owner's urgent notification (in-app, email, push) in one batch, then texts the
 * link to the owner's phone. Nothing is charged here. The link is on {app_url} by the one link rule
 * (kernel/app-links.ts), `requestOrigin` being the origin the agent reached.
 */
export async function issueConfirmation(
  ctx: ServiceContext,
  shiftRequestId: string,
  requestedBy: string | null,
  requestOrigin?: string,
): Promise<IssuedConfirmation> {
  const actor = requirePerson(ctx);
  const s = await loadShift(ctx, shiftRequestId);
  const standing = await standingToward(ctx, s.business);
  if (standing === 'teammate') throw new AppError('MCP-TEAMMATE-ERR', 'Only the business owner can pay for its shifts through an agent.');
  if (standing !== 'owner') {
    if (s.shifter?.user_id === actor.userId) throw new AppError('FORBIDDEN-ERR', 'Only the business owner pays for a shift.');
    throw new AppError('SHFT-NOT-FND-ERR');
  }
  const row = s.row;
  if (row.request_status !== SHIFT_STATUS.accepted) throw stateError(row, 'claimed or accepted');
  if (row.shifter_id === null) throw new AppError('SHFT-STATE-ERR', 'Nobody has claimed the shift yet.');
  if (row.is_noshow) throw new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  if (row.shift_end_at !== null) throw new AppError('SHFT-WORKED-ERR', 'The shift has been worked: its invoice is charged as usual.');
  const [invoice] = await ctx.db
    .select({ id: invoices.id, status: invoices.status })
    .from(invoices)
    .where(eq(invoices.shift_request_id, row.id))
    .limit(1);
  if (invoice?.status === 'paid')
    throw new AppError('INVOICE-PAID-ERR', 'This shift is paid already: there is nothing to confirm.', { invoice_id: invoice.id });
  const amountMinor = shiftPayMinor(row);
  assertAgentPayWithinCap(ctx, amountMinor, row.currency);
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)));
  const now = ctx.now();
  const expiresAt = now + CONFIRM_TOKEN_TTL_MS;
  const id = newId('mcpConfirmToken');
  const url = `${appLinkOrigin(ctx, requestOrigin)}${CONFIRM_PATH}${token}`;
  const amount = fromMinor(amountMinor, row.currency);
  const what = `${formatAmount(amount, row.currency)} for the shift ${shiftWhen(row)} at ${s.business.name}`;
  const body = `An assistant asks to pay ${what}. To confirm, open ${url} within 5 minutes while signed in. If you did not ask for this, ignore it.`;

  const w = prepareWrite(ctx, { type: 'mcp_confirm_token', id });
  await w.commit({
    guard: ctx.db.insert(mcpConfirmTokens).values({
      id,
      token_hash: await hashConfirmToken(token),
      user_id: actor.userId,
      shift_request_id: row.id,
      business_id: s.business.id,
      amount_minor: amountMinor,
      currency: row.currency,
      requested_by_token_id: requestedBy,
      expires_at: expiresAt,
      created_at: now,
    }),
    audit: { action: 'agent_payment.requested', data: { shift_request_id: row.id, amount_minor: amountMinor, currency: row.currency } },
    notify: [
      {
        kind: 'agent_payment_confirmation',
        userIds: [actor.userId],
        title: 'Confirm a payment an assistant asked for',
        body,
        data: { shift_request_id: row.id },
      },
    ],
  });
  await textConfirmLink(ctx, actor.userId, body);
  return { id, token, confirm_url: url, expires_at: toIso(expiresAt), amount, currency: row.currency, shift_request_id: row.id };
}

/**
 * The link also goes by text message to the owner's phone, whatever their SMS preference (which
 * governs ordinary notifications): like a sign-in code, it answers something they are doing now. A
 * failed send is logged, never fails the tool: the email and in-app copies are already written.
 */
async function textConfirmLink(ctx: ServiceContext, userId: string, text: string) {
  try {
    const [u] = await ctx.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId)).limit(1);
    if (!u?.phone) return;
    await smsProviderFor(ctx.settings, ctx.log).send({ to: u.phone, text, sensitive: true });
  } catch (err) {
    ctx.log.warn('agent payment confirmation: text message not sent', errorFields(err));
  }
}

export interface ConfirmationView {
  token: ConfirmTokenRow;
  shift: { id: string; when: string; business_name: string; shifter_name: string | null; role: string | null };
  amount: number;
}

/**
 * The confirmation a token names, only when `userId` is the user it was issued to and it is unused
 * and unexpired at ctx.now(); null in every other case (unknown, someone else's, used, expired), so
 * the page answers all of them alike.
 */
export async function openConfirmation(ctx: ServiceContext, token: string, userId: string): Promise<ConfirmationView | null> {
  if (!token || token.length > 128) return null;
  const [t] = await ctx.db
    .select()
    .from(mcpConfirmTokens)
    .where(eq(mcpConfirmTokens.token_hash, await hashConfirmToken(token)))
    .limit(1);
  if (!t || t.user_id !== userId || t.used_at !== null || t.expires_at <= ctx.now()) return null;
  const s = await loadShift(ctx, t.shift_request_id);
  return {
    token: t,
    shift: {
      id: s.row.id,
      when: shiftWhen(s.row),
      business_name: s.business.name,
      shifter_name: s.shifter?.display_name ?? null,
      role: s.roleLabel,
    },
    amount: fromMinor(t.amount_minor, t.currency),
  };
}

/**
 * Uses the token once: a guarded update takes it only if it is still unused and unexpired and the
 * caller is its user, stamping this operation's id, with the audit row in the same batch. Of two
 * concurrent confirmations exactly one takes it; the other (and every later one) gets null.
 */
export async function consumeConfirmation(ctx: ServiceContext, token: string, userId: string): Promise<ConfirmTokenRow | null> {
  const view = await openConfirmation(ctx, token, userId);
  if (!view) return null;
  const t = view.token;
  const now = ctx.now();
  const w = prepareWrite(
    ctx,
    { type: 'mcp_confirm_token', id: t.id },
    (op) =>
      sql`EXISTS (SELECT 1 FROM ${mcpConfirmTokens} WHERE ${mcpConfirmTokens.id} = ${t.id} AND ${mcpConfirmTokens.used_op_id} = ${op})`,
  );
  const r = await w.commit({
    guard: ctx.db
      .update(mcpConfirmTokens)
      .set({ used_at: now, used_op_id: w.op })
      .where(
        and(
          eq(mcpConfirmTokens.id, t.id),
          eq(mcpConfirmTokens.user_id, userId),
          isNull(mcpConfirmTokens.used_at),
          gt(mcpConfirmTokens.expires_at, now),
        ),
      ),
    audit: { action: 'agent_payment.confirmed', data: { shift_request_id: t.shift_request_id, amount_minor: t.amount_minor } },
  });
  if (!r.applied) return null;
  return { ...t, used_at: now, used_op_id: w.op };
}

/** Records what the charge answered on the used token (for the audit trail and support). */
export async function recordChargeOutcome(ctx: ServiceContext, tokenId: string, status: string, invoiceId: string | null): Promise<void> {
  const res = await ctx.db
    .update(mcpConfirmTokens)
    .set({ charge_status: status, invoice_id: invoiceId })
    .where(eq(mcpConfirmTokens.id, tokenId))
    .run();
  if (changedRows(res) === 0) ctx.log.warn('agent payment outcome not recorded: token row gone', { token_id: tokenId });
}
