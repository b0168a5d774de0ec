import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { credentials } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { addDays, todayIn } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { inspectFile } from '../../lib/uploads';
import { committedSubject, existsIn, markedWrite, prepareWrite, type ServiceContext } from '../kernel';
import { isAdmin, type ShifterAccess, shifterAccess } from '../access';
import {
  type CreateCredentialInput,
  type CredentialDeleted,
  type CredentialList,
  type CredentialView,
  invalid,
  type UpdateCredentialInput,
} from './schemas';
import { nextVersion, rowAsRead, rowExists, underCap, UPDATE_ATTEMPTS } from './versioned';

/**
 * Credentials (spec 2.8). Only the owning shifter writes them (an admin included: 403). Reading:
 * the owner and admins see every row; anyone else signed in (a business checking a shifter) sees the
 * rows with is_visible, and a hidden row, its document included, is 404 to them. Documents live in
 * R2 under credentials/<shifter_id>/<credential_id>/<upl_id>.<ext> (docs/storage.md).
 *
 * Every change is one guarded write (services/kernel/guarded-write.ts) with its audit row; a retry of a
 * create or an upload whose change already committed (Idempotency-Key) answers from the credential
 * it wrote instead of writing again.
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
export function credentialView(r: CredentialRow, today: string): CredentialView {
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

const seesAll = (a: ShifterAccess) => a.isOwner || isAdmin(a.actor);
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
export async function listCredentials(ctx: ServiceContext, shifterId: string): Promise<CredentialList> {
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
export async function getCredential(ctx: ServiceContext, shifterId: string, credentialId: string): Promise<CredentialView> {
  const a = await shifterAccess(ctx, shifterId);
  return credentialView(await visibleCredential(ctx, a, credentialId), today(ctx, a));
}

/** A credential as stored now, as the caller may see it. */
async function currentView(ctx: ServiceContext, a: ShifterAccess, credentialId: string): Promise<CredentialView> {
  return credentialView(await visibleCredential(ctx, a, credentialId), today(ctx, a));
}

/** The credential a retry's first attempt wrote (Idempotency-Key), as stored now; null when none. */
async function committedCredential(ctx: ServiceContext, a: ShifterAccess): Promise<CredentialView | null> {
  const done = committedSubject(ctx, 'credential');
  return done ? currentView(ctx, a, done) : null;
}

/**
 * POST /v1/shifter/{id}/credentials. The insert is conditional on the shifter holding fewer than
 * MAX_CREDENTIALS_PER_SHIFTER, so concurrent creates cannot pass the cap.
 */
export async function createCredential(ctx: ServiceContext, shifterId: string, input: CreateCredentialInput): Promise<CredentialView> {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  const replay = await committedCredential(ctx, a);
  if (replay) return replay;
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
  const w = prepareWrite(ctx, { type: 'credential', id: row.id }, () => rowExists(credentials, row.id));
  const r = await w.commit({
    guard: insertWhere(ctx.db, credentials, row, underCap(credentials, a.shifter.id, MAX_CREDENTIALS_PER_SHIFTER)),
    audit: { action: 'credential.create', data: { shifter_id: a.shifter.id } },
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', `A shifter may keep at most ${MAX_CREDENTIALS_PER_SHIFTER} credentials.`);
  return credentialView(row, today(ctx, a));
}

/**
 * PATCH /v1/shifter/{id}/credentials/{credential_id}: only the fields sent change; null clears. The
 * update is guarded on the version read; a concurrent change makes it read again and re-apply.
 */
export async function updateCredential(
  ctx: ServiceContext,
  shifterId: string,
  credentialId: string,
  input: UpdateCredentialInput,
): Promise<CredentialView> {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  if (committedSubject(ctx, 'credential') === credentialId) return currentView(ctx, a, credentialId);
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
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
      updated_at: nextVersion(ctx, old.updated_at),
    };
    checkDates(next);
    const applied = await markedWrite(
      ctx,
      { type: 'credential', id: old.id },
      {
        precondition: rowAsRead(credentials, old.id, a.shifter.id, old.updated_at),
        change: (marked) =>
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
            .where(and(eq(credentials.id, old.id), marked)),
        audit: { action: 'credential.update', data: { changed: Object.keys(input) } },
      },
    );
    if (applied) return credentialView(next, today(ctx, a));
  }
  throw new AppError('CONFLICT-ERR', 'The credential kept changing meanwhile; try again.');
}

/** Removes a stored object; a failure only leaves an unreferenced object behind, so it is logged, not raised. */
async function removeObject(ctx: ServiceContext, key: string) {
  try {
    await ctx.env.UPLOADS.delete(key);
  } catch (err) {
    ctx.log.error('credential document delete failed', { key, ...errorFields(err) });
  }
}

/** DELETE /v1/shifter/{id}/credentials/{credential_id}: the row, then its document in R2. */
export async function deleteCredential(ctx: ServiceContext, shifterId: string, credentialId: string): Promise<CredentialDeleted> {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  if (committedSubject(ctx, 'credential') === credentialId) return { id: credentialId, deleted: true as const };
  const old = await visibleCredential(ctx, a, credentialId);
  const applied = await markedWrite(
    ctx,
    { type: 'credential', id: old.id },
    {
      precondition: rowAsRead(credentials, old.id, a.shifter.id),
      change: (marked) => ctx.db.delete(credentials).where(and(eq(credentials.id, old.id), marked)),
      audit: { action: 'credential.delete', data: { shifter_id: a.shifter.id, label: old.label, document_key: old.document_key } },
    },
  );
  if (!applied) throw new AppError('CREDENTIAL-NOT-FND-ERR');
  if (old.document_key) await removeObject(ctx, old.document_key);
  return { id: old.id, deleted: true as const };
}

type DocumentPointer = { key: string; type: string; size: number } | null;

/**
 * Points the row at `next` (or at no document) only if it still points at what we read, so two
 * concurrent uploads cannot leave an object that no row references unnoticed. One guarded write: the
 * audit row is written only if the pointer moved. Returns the row's new version, or null when the
 * pointer had changed meanwhile.
 */
async function swapDocument(ctx: ServiceContext, old: CredentialRow, next: DocumentPointer): Promise<number | null> {
  const version = nextVersion(ctx, old.updated_at);
  const sameKey = old.document_key === null ? isNull(credentials.document_key) : eq(credentials.document_key, old.document_key);
  const applied = await markedWrite(
    ctx,
    { type: 'credential', id: old.id },
    {
      precondition: existsIn(credentials, and(eq(credentials.id, old.id), sameKey)!),
      change: (marked) =>
        ctx.db
          .update(credentials)
          .set({
            document_key: next?.key ?? null,
            document_type: next?.type ?? null,
            document_size: next?.size ?? null,
            updated_at: version,
          })
          .where(and(eq(credentials.id, old.id), marked)),
      audit: {
        action: next ? 'credential.document' : 'credential.document_delete',
        data: { previous: old.document_key, key: next?.key ?? null, type: next?.type ?? null, size: next?.size ?? null },
      },
    },
  );
  return applied ? version : null;
}

/**
 * After the pointer write failed with an error: whether it committed all the same (the answer was
 * lost after the commit), read from the row. Null when even that read fails.
 */
async function pointsAt(ctx: ServiceContext, credentialId: string, key: string): Promise<boolean | null> {
  try {
    const [row] = await ctx.db.select({ key: credentials.document_key }).from(credentials).where(eq(credentials.id, credentialId)).limit(1);
    return row?.key === key;
  } catch (err) {
    ctx.log.error('credential document: cannot tell whether the pointer was written', {
      credential_id: credentialId,
      key,
      ...errorFields(err),
    });
    return null;
  }
}

/**
 * POST /v1/shifter/{id}/credentials/{credential_id}/document: a PDF or an image, told by its first
 * bytes (never the client's type claim), at most 8 MB. Nothing is stored until the file passes. The
 * object is written first, then the row is pointed at it; a replaced document's object is deleted
 * once the row points at the new one. If pointing the row fails, the new object is deleted, so no
 * object is left that no row references, and no row points at an object that is not there. (When
 * even the check fails, the object is kept and its key logged: an orphan is the lesser harm.)
 */
export async function uploadCredentialDocument(
  ctx: ServiceContext,
  shifterId: string,
  credentialId: string,
  upload: File,
): Promise<CredentialView> {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  if (committedSubject(ctx, 'credential') === credentialId) return currentView(ctx, a, credentialId);
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
  let applied: boolean;
  try {
    applied = (await swapDocument(ctx, old, next)) !== null;
  } catch (err) {
    const committed = await pointsAt(ctx, old.id, key);
    if (committed === false) await removeObject(ctx, key);
    if (!committed) throw err;
    applied = true; // the write committed; only its answer was lost
  }
  if (!applied) {
    await removeObject(ctx, key);
    await visibleCredential(ctx, a, old.id); // deleted meanwhile → 404
    throw new AppError('CONFLICT-ERR', 'The credential’s document changed meanwhile; send the upload again.');
  }
  if (old.document_key) await removeObject(ctx, old.document_key);
  return currentView(ctx, a, old.id);
}

/** DELETE /v1/shifter/{id}/credentials/{credential_id}/document: removes the document, keeps the credential. */
export async function deleteCredentialDocument(ctx: ServiceContext, shifterId: string, credentialId: string): Promise<CredentialView> {
  const a = await shifterAccess(ctx, shifterId);
  ownerOnly(a);
  if (committedSubject(ctx, 'credential') === credentialId) return currentView(ctx, a, credentialId);
  const old = await visibleCredential(ctx, a, credentialId);
  if (!old.document_key) throw new AppError('UPLOAD-NOT-FND-ERR', 'The credential has no document.');
  const version = await swapDocument(ctx, old, null);
  if (version === null) throw new AppError('CONFLICT-ERR', 'The credential’s document changed meanwhile; try again.');
  await removeObject(ctx, old.document_key);
  return credentialView({ ...old, document_key: null, document_type: null, document_size: null, updated_at: version }, today(ctx, a));
}

/** A stored document as served (the route gives it storedFileHeaders): its bytes, stored type, name and size. */
export interface CredentialDocument {
  body: ReadableStream;
  content_type: string;
  filename: string;
  size: number;
}

/** GET /v1/shifter/{id}/credentials/{credential_id}/document: for those who may see the row. */
export async function readCredentialDocument(ctx: ServiceContext, shifterId: string, credentialId: string): Promise<CredentialDocument> {
  const a = await shifterAccess(ctx, shifterId);
  const row = await visibleCredential(ctx, a, credentialId);
  if (!row.document_key) throw new AppError('UPLOAD-NOT-FND-ERR', 'The credential has no document.');
  const obj = await ctx.env.UPLOADS.get(row.document_key);
  if (!obj) throw new AppError('UPLOAD-NOT-FND-ERR');
  const ext = row.document_key.split('.').pop() ?? 'bin';
  return {
    body: obj.body,
    content_type: obj.httpMetadata?.contentType ?? 'application/octet-stream',
    filename: `credential-${row.id}.${ext}`,
    size: obj.size,
  };
}
