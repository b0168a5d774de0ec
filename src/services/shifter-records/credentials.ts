import { and, asc, count, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { auditLog, credentials } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { addDays, todayIn } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { inspectFile } from '../../lib/uploads';
import { auditInsert } from '../audit';
import { actorAudit, type ServiceContext } from '../context';
import { type ShifterAccess, shifterAccess } from '../access';
import { type CreateCredentialInput, invalid, type UpdateCredentialInput } from './schemas';

/**
 * Credentials (spec 2.8). Only the owning shifter writes them (an admin included: 403). Reading:
 * the owner and admins see every row; anyone else signed in (a business checking a shifter) sees the
 * rows with is_visible, and a hidden row, its document included, is 404 to them. Documents live in
 * R2 under credentials/<shifter_id>/<credential_id>/<upl_id>.<ext> (docs/storage.md).
 */
export const CREDENTIAL_DOC_MAX_BYTES = 8 * 1024 * 1024;
/** A credential expiring within this many days (today included) is flagged `expiring`. */
export const EXPIRING_WITHIN_DAYS = 30;
export const MAX_CREDENTIALS_PER_SHIFTER = 100;

type CredentialRow = typeof credentials.$inferSelect;

export function credentialDocumentPath(r: Pick<CredentialRow, 'shifter_id' | 'id'>) {
  return `/v1/shifter/${r.shifter_id}/credentials/${r.id}/document`;
}

/** `today` is the shifter's date (their own zone) the expiry flags are read against. */
export function credentialView(r: CredentialRow, today: string) {
  const expired = r.expires_on !== null && r.expires_on < today;
  const expiring = r.expires_on !== null && !expired && r.expires_on <= addDays(today, EXPIRING_WITHIN_DAYS);
  return {
    id: r.id,
    shifter_id: r.shifter_id,
    label: r.label,
    issuer: r.issuer,
    issued_on: r.issued_on,
    expires_on: r.expires_on,
    notes: r.notes,
    is_visible: r.is_visible,
    expiring,
    expired,
    has_document: r.document_key !== null,
    document_type: r.document_type,
    document_size: r.document_size,
    document_url: r.document_key === null ? null : credentialDocumentPath(r),
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
}

const seesAll = (a: ShifterAccess) => a.isOwner || a.actor.isAdmin;
const today = (ctx: ServiceContext, a: ShifterAccess) => todayIn(a.shifter.timezone, ctx.now());

function ownerOnly(a: ShifterAccess) {
  if (!a.isOwner) throw new AppError('FORBIDDEN-ERR', 'Only the shifter may change their credentials.');
}

/** A credential of this shifter that the caller may see; anything else is 404. */
async function visibleCredential(ctx: ServiceContext, a: ShifterAccess, credentialId: string): Promise<CredentialRow> {
  const [row] = await ctx.db
    .select()
    .from(credentials)
    .where(and(eq(credentials.id, credentialId), eq(credentials.shifter_id, a.shifter.id)))
    .limit(1);
  if (!row || (!row.is_visible && !seesAll(a))) throw new AppError('CREDENTIAL-NOT-FND-ERR');
  return row;
}

function checkDates(r: Pick<CredentialRow, 'issued_on' | 'expires_on'>) {
  if (r.issued_on && r.expires_on && r.expires_on < r.issued_on) throw invalid('expires_on', 'must be on or after issued_on');
}

/** GET /v1/shifter/{id}/credentials: soonest expiry first (no expiry last), then by label. */
export async function listCredentials(ctx: ServiceContext, shifterId: string) {
  const a = await shifterAccess(ctx, shifterId);
  const conds: SQL[] = [eq(credentials.shifter_id, a.shifter.id)];
  if (!seesAll(a)) conds.push(eq(credentials.is_visible, true));
  const rows = await ctx.db
    .select()
    .from(credentials)
    .where(and(...conds))
    .orderBy(sql`${credentials.expires_on} is null`, asc(credentials.expires_on), asc(credentials.label), asc(credentials.id));
  const t = today(ctx, a);
  return { shifter_id: a.shifter.id, data: rows.map((r) => credentialView(r, t)), next_cursor: null };
}

/** GET /v1/shifter/{id}/credentials/{credential_id} */
export async function getCredential(ctx: ServiceContext, shifterId: string, credentialId: string) {
  const a = await shifterAccess(ctx, shifterId);
  return credentialView(await visibleCredential(ctx, a, credentialId), today(ctx, a));
}

/** POST /v1/shifter/{id}/credentials */
export async function createCredential(ctx: ServiceContext, shifterId: string, input: CreateCredentialInput) {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  const now = ctx.now();
  const row: CredentialRow = {
    id: newId('credential'),
    shifter_id: a.shifter.id,
    label: input.label,
    issuer: input.issuer || null,
    issued_on: input.issued_on ?? null,
    expires_on: input.expires_on ?? null,
    notes: input.notes || null,
    document_key: null,
    document_type: null,
    document_size: null,
    is_visible: input.is_visible,
    created_at: now,
    updated_at: now,
  };
  checkDates(row);
  const [n] = await ctx.db.select({ n: count() }).from(credentials).where(eq(credentials.shifter_id, a.shifter.id));
  if ((n?.n ?? 0) >= MAX_CREDENTIALS_PER_SHIFTER) throw new AppError('CONFLICT-ERR', `A shifter may keep at most ${MAX_CREDENTIALS_PER_SHIFTER} credentials.`);
  await runBatch(ctx.db, [
    ctx.db.insert(credentials).values(row),
    auditInsert(ctx, 'credential.create', { type: 'credential', id: row.id }, { shifter_id: a.shifter.id }),
  ]);
  return credentialView(row, today(ctx, a));
}

/** PATCH /v1/shifter/{id}/credentials/{credential_id}: only the fields sent change; null clears. */
export async function updateCredential(ctx: ServiceContext, shifterId: string, credentialId: string, input: UpdateCredentialInput) {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  const old = await visibleCredential(ctx, a, credentialId);
  const pick = <K extends 'issuer' | 'notes'>(k: K) => (input[k] === undefined ? old[k] : input[k] || null);
  const next: CredentialRow = {
    ...old,
    label: input.label ?? old.label,
    issuer: pick('issuer'),
    issued_on: input.issued_on === undefined ? old.issued_on : input.issued_on,
    expires_on: input.expires_on === undefined ? old.expires_on : input.expires_on,
    notes: pick('notes'),
    is_visible: input.is_visible ?? old.is_visible,
    updated_at: ctx.now(),
  };
  checkDates(next);
  const [res] = (await runBatch(ctx.db, [
    ctx.db
      .update(credentials)
      .set({
        label: next.label,
        issuer: next.issuer,
        issued_on: next.issued_on,
        expires_on: next.expires_on,
        notes: next.notes,
        is_visible: next.is_visible,
        updated_at: next.updated_at,
      })
      .where(and(eq(credentials.id, old.id), eq(credentials.shifter_id, a.shifter.id))),
    auditInsert(ctx, 'credential.update', { type: 'credential', id: old.id }, { changed: Object.keys(input) }),
  ])) as Array<{ meta?: { changes?: number } }>;
  if (!res?.meta?.changes) throw new AppError('CREDENTIAL-NOT-FND-ERR');
  return credentialView(next, today(ctx, a));
}

/** Removes a stored object; a failure only leaves an unreferenced object behind, so it is logged, not raised. */
async function removeObject(ctx: ServiceContext, key: string) {
  try {
    await ctx.env.UPLOADS.delete(key);
  } catch (err) {
    ctx.log.error('credential document delete failed', { key, error: String(err) });
  }
}

/** DELETE /v1/shifter/{id}/credentials/{credential_id}: the row, then its document in R2. */
export async function deleteCredential(ctx: ServiceContext, shifterId: string, credentialId: string) {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  const old = await visibleCredential(ctx, a, credentialId);
  await runBatch(ctx.db, [
    ctx.db.delete(credentials).where(and(eq(credentials.id, old.id), eq(credentials.shifter_id, a.shifter.id))),
    auditInsert(ctx, 'credential.delete', { type: 'credential', id: old.id }, { shifter_id: a.shifter.id, label: old.label, document_key: old.document_key }),
  ]);
  if (old.document_key) await removeObject(ctx, old.document_key);
  return { id: old.id, deleted: true as const };
}

/**
 * Points the row at `next` (or at no document) only if it still points at what we read, so two
 * concurrent uploads cannot leave an object that no row references unnoticed. The audit row is
 * written only if the update was.
 */
async function swapDocument(
  ctx: ServiceContext,
  old: CredentialRow,
  next: { key: string; type: string; size: number } | null,
): Promise<boolean> {
  const now = ctx.now();
  const sameKey = old.document_key === null ? isNull(credentials.document_key) : eq(credentials.document_key, old.document_key);
  const applied = next
    ? sql`EXISTS (SELECT 1 FROM ${credentials} WHERE ${credentials.id} = ${old.id} AND ${credentials.document_key} = ${next.key})`
    : sql`NOT EXISTS (SELECT 1 FROM ${credentials} WHERE ${credentials.id} = ${old.id} AND ${credentials.document_key} IS NOT NULL)`;
  const [res] = (await runBatch(ctx.db, [
    ctx.db
      .update(credentials)
      .set({ document_key: next?.key ?? null, document_type: next?.type ?? null, document_size: next?.size ?? null, updated_at: now })
      .where(and(eq(credentials.id, old.id), sameKey)),
    insertWhere(
      ctx.db,
      auditLog,
      {
        id: newId('audit'),
        ...actorAudit(ctx.actor),
        action: next ? 'credential.document' : 'credential.document_delete',
        subject_type: 'credential',
        subject_id: old.id,
        request_id: ctx.requestId,
        data: JSON.stringify({ previous: old.document_key, key: next?.key ?? null, type: next?.type ?? null, size: next?.size ?? null }),
        created_at: now,
      },
      applied,
    ),
  ])) as Array<{ meta?: { changes?: number } }>;
  return (res?.meta?.changes ?? 0) > 0;
}

/**
 * POST /v1/shifter/{id}/credentials/{credential_id}/document: a PDF or an image, told by its first
 * bytes (never the client's type claim), at most 8 MB. Nothing is stored until the file passes; a
 * replaced document's object is deleted once the row points at the new one.
 */
export async function uploadCredentialDocument(ctx: ServiceContext, shifterId: string, credentialId: string, upload: File) {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  const old = await visibleCredential(ctx, a, credentialId);
  const file = await inspectFile(upload, {
    maxBytes: CREDENTIAL_DOC_MAX_BYTES,
    accept: (t) => t.mime === 'application/pdf' || t.mime.startsWith('image/'),
    what: 'credential document',
  });
  const key = `credentials/${a.shifter.id}/${old.id}/${newId('upload')}.${file.type.ext}`;
  await ctx.env.UPLOADS.put(key, file.bytes, {
    httpMetadata: { contentType: file.type.mime },
    customMetadata: { shifter_id: a.shifter.id, credential_id: old.id, uploaded_by: a.actor.userId },
  });
  const next = { key, type: file.type.mime, size: file.bytes.byteLength };
  if (!(await swapDocument(ctx, old, next))) {
    await removeObject(ctx, key);
    await visibleCredential(ctx, a, old.id); // deleted meanwhile → 404
    throw new AppError('CONFLICT-ERR', 'The credential’s document changed meanwhile; send the upload again.');
  }
  if (old.document_key) await removeObject(ctx, old.document_key);
  return credentialView({ ...old, document_key: key, document_type: next.type, document_size: next.size, updated_at: ctx.now() }, today(ctx, a));
}

/** DELETE /v1/shifter/{id}/credentials/{credential_id}/document: removes the document, keeps the credential. */
export async function deleteCredentialDocument(ctx: ServiceContext, shifterId: string, credentialId: string) {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  const old = await visibleCredential(ctx, a, credentialId);
  if (!old.document_key) throw new AppError('UPLOAD-NOT-FND-ERR', 'The credential has no document.');
  if (!(await swapDocument(ctx, old, null))) throw new AppError('CONFLICT-ERR', 'The credential’s document changed meanwhile; try again.');
  await removeObject(ctx, old.document_key);
  return credentialView({ ...old, document_key: null, document_type: null, document_size: null, updated_at: ctx.now() }, today(ctx, a));
}

/** GET /v1/shifter/{id}/credentials/{credential_id}/document: for those who may see the row. */
export async function readCredentialDocument(ctx: ServiceContext, shifterId: string, credentialId: string) {
  const a = await shifterAccess(ctx, shifterId);
  const row = await visibleCredential(ctx, a, credentialId);
  if (!row.document_key) throw new AppError('UPLOAD-NOT-FND-ERR', 'The credential has no document.');
  const obj = await ctx.env.UPLOADS.get(row.document_key);
  if (!obj) throw new AppError('UPLOAD-NOT-FND-ERR');
  return { obj, row };
}
