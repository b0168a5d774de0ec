import { and, desc, eq, gt, isNull, notInArray as notIn, type SQL, sql } from 'drizzle-orm';
import { runBatch } from '../../../db/client';
import { trustedDevices } from '../../../db/schema';
import { sha256Hex } from '../../../lib/crypto';
import { AppError } from '../../../lib/errors';
import { newId, randomBase62 } from '../../../lib/ids';
import { toIso } from '../../../lib/time';
import { auditInsert, changedRows, requirePerson, type ServiceContext } from '../../kernel';

/** A trusted browser skips the second factor this long after its last use (each use rolls it forward). */
export const TRUSTED_DEVICE_TTL_MS = 30 * 24 * 3600 * 1000;
/** Devices kept per account; trusting one more ends the oldest. */
export const MAX_TRUSTED_DEVICES = 10;
const LABEL_MAX = 120;

/** What goes into the device cookie: `<row id>.<token>`, with the instant it stops working. */
export interface DeviceCookie {
  value: string;
  expiresAt: number;
}

export interface TrustedDeviceView {
  id: string;
  label: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

const mintToken = () => randomBase62(40);

function parseCookie(value: string | undefined): { id: string; token: string } | null {
  if (!value) return null;
  const m = /^(dev_[0-9A-Za-z]{20})\.([0-9A-Za-z]{40})$/.exec(value);
  return m ? { id: m[1]!, token: m[2]! } : null;
}

/** Trusts the browser of the signed-in user: a new row and the cookie to set. */
export async function trustDevice(ctx: ServiceContext, userId: string, label: string): Promise<DeviceCookie> {
  const now = ctx.now();
  const id = newId('trustedDevice');
  const token = mintToken();
  const expiresAt = now + TRUSTED_DEVICE_TTL_MS;
  const keep = ctx.db
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.user_id, userId), isNull(trustedDevices.revoked_at), gt(trustedDevices.expires_at, now)))
    .orderBy(desc(trustedDevices.last_used_at), desc(trustedDevices.id))
    .limit(MAX_TRUSTED_DEVICES - 1);
  await runBatch(ctx.db, [
    ctx.db
      .update(trustedDevices)
      .set({ revoked_at: now })
      .where(and(eq(trustedDevices.user_id, userId), isNull(trustedDevices.revoked_at), notIn(trustedDevices.id, keep))),
    ctx.db.insert(trustedDevices).values({
      id,
      user_id: userId,
      token_hash: await sha256Hex(token),
      label: label.slice(0, LABEL_MAX),
      created_at: now,
      last_used_at: now,
      expires_at: expiresAt,
    }),
    auditInsert(ctx, 'trusted_device.create', { type: 'trusted_device', id }, { user_id: userId }),
  ]);
  return { value: `${id}.${token}`, expiresAt };
}

/**
 * Uses a device cookie at sign-in: when it is a live device of this user, its token is swapped for a
 * new one (compare-and-swap on the old hash, so a copied cookie works at most once, and of two
 * concurrent uses one wins) and the expiry rolls forward. Returns the new cookie, or null.
 */
export async function useTrustedDevice(ctx: ServiceContext, userId: string, cookie: string | undefined): Promise<DeviceCookie | null> {
  const parsed = parseCookie(cookie);
  if (!parsed) return null;
  const now = ctx.now();
  const token = mintToken();
  const expiresAt = now + TRUSTED_DEVICE_TTL_MS;
  const result = await ctx.db
    .update(trustedDevices)
    .set({ token_hash: await sha256Hex(token), last_used_at: now, expires_at: expiresAt })
    .where(
      and(
        eq(trustedDevices.id, parsed.id),
        eq(trustedDevices.user_id, userId),
        eq(trustedDevices.token_hash, await sha256Hex(parsed.token)),
        isNull(trustedDevices.revoked_at),
        gt(trustedDevices.expires_at, now),
      ),
    )
    .run();
  if (changedRows(result) !== 1) return null;
  return { value: `${parsed.id}.${token}`, expiresAt };
}

export async function listTrustedDevices(ctx: ServiceContext): Promise<TrustedDeviceView[]> {
  const actor = requirePerson(ctx);
  const rows = await ctx.db
    .select()
    .from(trustedDevices)
    .where(and(eq(trustedDevices.user_id, actor.userId), isNull(trustedDevices.revoked_at), gt(trustedDevices.expires_at, ctx.now())))
    .orderBy(desc(trustedDevices.last_used_at), desc(trustedDevices.id))
    .limit(MAX_TRUSTED_DEVICES);
  return rows.map((d) => ({
    id: d.id,
    label: d.label,
    created_at: toIso(d.created_at),
    last_used_at: toIso(d.last_used_at),
    expires_at: toIso(d.expires_at),
  }));
}

/** Revokes one of the caller's devices; another user's device is 404, as one that does not exist. */
export async function revokeTrustedDevice(ctx: ServiceContext, deviceId: string): Promise<void> {
  const actor = requirePerson(ctx);
  const now = ctx.now();
  const [changed] = await runBatch(ctx.db, [
    ctx.db
      .update(trustedDevices)
      .set({ revoked_at: now })
      .where(and(eq(trustedDevices.id, deviceId), eq(trustedDevices.user_id, actor.userId), isNull(trustedDevices.revoked_at))),
    auditInsert(
      ctx,
      'trusted_device.revoke',
      { type: 'trusted_device', id: deviceId },
      undefined,
      sql`EXISTS (SELECT 1 FROM ${trustedDevices} WHERE ${trustedDevices.id} = ${deviceId} AND ${trustedDevices.revoked_at} = ${now})`,
    ),
  ]);
  if (changedRows(changed) === 0) throw new AppError('NOT-FOUND-ERR', 'No such trusted device of yours.');
}

/** Revokes every device of the account, inside the batch of a guarded change (`onlyIf`). */
export const revokeAllTrustedDevices = (ctx: ServiceContext, userId: string, onlyIf: SQL) =>
  ctx.db
    .update(trustedDevices)
    .set({ revoked_at: ctx.now() })
    .where(and(eq(trustedDevices.user_id, userId), isNull(trustedDevices.revoked_at), onlyIf));
