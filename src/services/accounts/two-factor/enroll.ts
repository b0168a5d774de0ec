import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { generate } from 'lean-qr';
import { toSvgPath } from 'lean-qr/extras/svg';
import { twoFactor, users } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { prepareWrite, requirePerson, type ServiceContext } from '../../kernel';
import { newBackupCodeSet } from './backup-codes';
import { openSecret, sealSecret } from './secret-box';
import { isEnabled, loadTwoFactor, twoFactorOpApplied, confirmPassword } from './state';
import { matchingStep, newTotpSecret, normalizeCode, totpUri } from './totp';
import { revokeAllTrustedDevices } from './trusted-devices';

/** An unconfirmed secret stays offered this long, so reloading the setup page shows the same QR code. */
export const ENROLMENT_TTL_MS = 30 * 60 * 1000;

export interface TotpEnrolment {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
  /** The QR code: an SVG path over a square of `size` modules (a 4-module quiet zone around it is the caller's). */
  qr: { size: number; path: string };
}

/**
 * Starts (or continues) setting up an authenticator app: a new secret is stored encrypted as pending
 * until a code from it confirms it. Refused while two-factor is on (disable first).
 */
export async function beginTotpEnrolment(ctx: ServiceContext): Promise<TotpEnrolment> {
  const actor = requirePerson(ctx);
  const now = ctx.now();
  const [row, [user]] = await Promise.all([
    loadTwoFactor(ctx.db, actor.userId),
    ctx.db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId)).limit(1),
  ]);
  if (!user) throw new AppError('USER-NOT-FND-ERR');
  if (isEnabled(row)) throw new AppError('CONFLICT-ERR', 'Two-factor authentication is already on.');

  let secret: string;
  if (row?.pending_secret_enc && row.pending_created_at !== null && row.pending_created_at > now - ENROLMENT_TTL_MS) {
    secret = await openSecret(ctx.settings, actor.userId, row.pending_secret_enc);
  } else {
    secret = newTotpSecret();
    const sealed = await sealSecret(ctx.settings, actor.userId, secret);
    await ctx.db
      .insert(twoFactor)
      .values({ user_id: actor.userId, pending_secret_enc: sealed, pending_created_at: now, created_at: now, updated_at: now })
      .onConflictDoUpdate({
        target: twoFactor.user_id,
        set: { pending_secret_enc: sealed, pending_created_at: now, updated_at: now },
        setWhere: isNull(twoFactor.totp_enabled_at),
      });
  }
  const uri = totpUri(secret, user.email);
  const code = generate(uri);
  return { secret, uri, qr: { size: code.size, path: toSvgPath(code) } };
}

/**
 * Confirms the app with a code from it and the account's password (someone holding only a stolen
 * session must not lock the owner out with a second factor of their own): two-factor turns on, the
 * code's step counts as used, and a first set of backup codes is made (returned once). Any trusted
 * device of an earlier setup is revoked.
 */
export async function confirmTotpEnrolment(ctx: ServiceContext, codeInput: string, password: string): Promise<{ backup_codes: string[] }> {
  const actor = requirePerson(ctx);
  await confirmPassword(ctx, actor.userId, password);
  const now = ctx.now();
  const row = await loadTwoFactor(ctx.db, actor.userId);
  if (isEnabled(row)) throw new AppError('CONFLICT-ERR', 'Two-factor authentication is already on.');
  if (!row?.pending_secret_enc || row.pending_created_at === null || row.pending_created_at <= now - ENROLMENT_TTL_MS) {
    throw new AppError('CONFLICT-ERR', 'The setup expired; start again to get a new QR code.');
  }
  const secret = await openSecret(ctx.settings, actor.userId, row.pending_secret_enc);
  const step = matchingStep(secret, normalizeCode(codeInput), now);
  if (step === null) throw new AppError('TWO-FACTOR-CODE-ERR');

  const w = prepareWrite(ctx, { type: 'two_factor', id: actor.userId }, (op) => twoFactorOpApplied(actor.userId, op));
  const backup = await newBackupCodeSet(ctx, actor.userId, w.applied!);
  const r = await w.commit({
    // Compare-and-swap on the pending secret read: a setup restarted meanwhile is not confirmed by an old code.
    guard: ctx.db
      .update(twoFactor)
      .set({
        totp_secret_enc: row.pending_secret_enc,
        totp_enabled_at: now,
        totp_last_step: step,
        pending_secret_enc: null,
        pending_created_at: null,
        last_op_id: w.op,
        updated_at: now,
      })
      .where(
        and(
          eq(twoFactor.user_id, actor.userId),
          eq(twoFactor.pending_secret_enc, row.pending_secret_enc),
          isNull(twoFactor.totp_enabled_at),
        ),
      ),
    follow: [...backup.statements, revokeAllTrustedDevices(ctx, actor.userId, w.applied!)],
    audit: { action: 'two_factor.enable', data: { method: 'totp' } },
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', 'Two-factor setup changed at the same moment; reload and try again.');
  return { backup_codes: backup.codes };
}

/**
 * A change to an account whose two-factor is on, after its password: one guarded write on the
 * two-factor row (`set`), the old backup codes replaced by a new set (or only deleted) and every
 * trusted device revoked, all or nothing.
 */
async function changeWhileOn(
  ctx: ServiceContext,
  password: string,
  change: { set: Partial<typeof twoFactor.$inferInsert>; newCodes: boolean; action: string },
): Promise<string[]> {
  const actor = requirePerson(ctx);
  await confirmPassword(ctx, actor.userId, password);
  const w = prepareWrite(ctx, { type: 'two_factor', id: actor.userId }, (op) => twoFactorOpApplied(actor.userId, op));
  const backup = await newBackupCodeSet(ctx, actor.userId, w.applied!);
  const r = await w.commit({
    guard: ctx.db
      .update(twoFactor)
      .set({ ...change.set, last_op_id: w.op, updated_at: ctx.now() })
      .where(and(eq(twoFactor.user_id, actor.userId), isNotNull(twoFactor.totp_enabled_at))),
    // Without new codes only the first statement, the delete of the old set, is kept.
    follow: [
      ...(change.newCodes ? backup.statements : backup.statements.slice(0, 1)),
      revokeAllTrustedDevices(ctx, actor.userId, w.applied!),
    ],
    audit: { action: change.action },
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', 'Two-factor authentication is not on.');
  return change.newCodes ? backup.codes : [];
}

/** Turns two-factor off (password required): the secret, backup codes and trusted devices go. */
export async function disableTwoFactor(ctx: ServiceContext, password: string): Promise<void> {
  await changeWhileOn(ctx, password, {
    set: {
      totp_secret_enc: null,
      totp_enabled_at: null,
      totp_last_step: null,
      pending_secret_enc: null,
      pending_created_at: null,
      sms_enabled_at: null,
    },
    newCodes: false,
    action: 'two_factor.disable',
  });
}

/** A new set of backup codes (password required); the old set stops working and trusted devices are revoked. */
export async function regenerateBackupCodes(ctx: ServiceContext, password: string): Promise<{ backup_codes: string[] }> {
  return { backup_codes: await changeWhileOn(ctx, password, { set: {}, newCodes: true, action: 'two_factor.backup_codes_regenerate' }) };
}
