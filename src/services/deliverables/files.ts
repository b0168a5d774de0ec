import { and, eq, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { shiftDeliverableFiles, shiftDeliverables, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { type SniffedType, sniffType } from '../../lib/uploads';
import { committedSubject, prepareWrite, type ServiceContext } from '../kernel';
import { oneDeliverable, partyOf, writeRule } from './deliverables';
import { type DeliverableFileRow, deliverableFileView } from './file-views';
import type { DeliverableFileView } from './schemas';

/**
 * Files attached to shift deliverables (issue 14). Who may attach: whoever may record a deliverable on
 * the shift (writeRule); who may download: the shift's parties and admins (partyOf). Objects live in
 * R2 under deliverables/<shift_request_id>/<deliverable_id>/<upl_id>.<ext> (docs/storage.md).
 *
 * The object is stored first and the row written after it, guarded in SQL on the shift's state and on
 * the deliverable's file count; if the row is not written (refused, or the write failed) the object is
 * deleted, so no object is left that no row references and no row points at a missing object.
 */
export const DELIVERABLE_FILE_MAX_BYTES = 8 * 1024 * 1024;
export const MAX_FILES_PER_DELIVERABLE = 10;
const FILE_NAME_MAX = 120;

/** The accepted types beyond those lib/uploads sniffs (PDF and images): zip archives, and UTF-8 text (CSV by its name). */
const ZIP: SniffedType = { mime: 'application/zip', ext: 'zip' };
const TEXT: SniffedType = { mime: 'text/plain', ext: 'txt' };
const CSV: SniffedType = { mime: 'text/csv', ext: 'csv' };

/** UTF-8 without NUL or control characters other than tab, line feed, form feed and carriage return. */
function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return false;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** The file's type told from its bytes (the name only tells CSV from other text); null when not accepted. */
export function sniffDeliverableType(bytes: Uint8Array, name: string): SniffedType | null {
  const known = sniffType(bytes.slice(0, 16));
  if (known) return known;
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return ZIP;
  if (isPlainText(bytes)) return /\.csv$/i.test(name.trim()) ? CSV : TEXT;
  return null;
}

/**
 * The name a file is listed and offered under: the client's name without any path, control or bidi
 * characters or characters that are unsafe in file names, at most FILE_NAME_MAX characters, ending in
 * the extension of its sniffed type (a "report.exe" that is a PDF becomes "report.exe.pdf").
 */
export function cleanFileName(raw: string, type: SniffedType): string {
  const base = (raw.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed from names
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069"*:<>?|]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const dot = base.lastIndexOf('.');
  const given = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const same = given === type.ext || (type.ext === 'jpg' && given === 'jpeg');
  const stem = (same ? base.slice(0, dot) : base).trim() || 'file';
  const ext = same ? given : type.ext;
  return `${[...stem].slice(0, FILE_NAME_MAX - ext.length - 1).join('')}.${ext}`;
}

async function inspect(upload: File) {
  if (upload.size === 0) throw new AppError('VALIDATION-ERR', 'The file is empty.', [{ field: 'file', message: 'empty' }]);
  if (upload.size > DELIVERABLE_FILE_MAX_BYTES) {
    throw new AppError('PAYLOAD-TOO-LARGE-ERR', `The deliverable file must be at most ${DELIVERABLE_FILE_MAX_BYTES / 1024 / 1024} MB.`);
  }
  const bytes = new Uint8Array(await upload.arrayBuffer());
  const type = sniffDeliverableType(bytes, upload.name);
  if (!type) {
    throw new AppError(
      'UNSUPPORTED-MEDIA-ERR',
      'This file type is not accepted for a deliverable: send a PDF, an image (JPEG, PNG, GIF, WebP, HEIC), a zip archive or UTF-8 text (CSV included).',
    );
  }
  return { bytes, type, name: cleanFileName(upload.name, type) };
}

/** Removes a stored object; a failure only leaves an unreferenced object behind, so it is logged, not raised. */
async function removeObject(ctx: ServiceContext, key: string) {
  try {
    await ctx.env.UPLOADS.delete(key);
  } catch (err) {
    ctx.log.error('deliverable file delete failed', { key, ...errorFields(err) });
  }
}

/** After the row write failed with an error: whether it committed all the same; null when even that read fails. */
async function rowStored(ctx: ServiceContext, id: string, key: string): Promise<boolean | null> {
  try {
    const [row] = await ctx.db
      .select({ id: shiftDeliverableFiles.id })
      .from(shiftDeliverableFiles)
      .where(eq(shiftDeliverableFiles.id, id))
      .limit(1);
    return row !== undefined;
  } catch (err) {
    ctx.log.error('deliverable file: cannot tell whether the row was written', { file_id: id, key, ...errorFields(err) });
    return null;
  }
}

async function oneFile(ctx: ServiceContext, shiftId: string, deliverableId: string, fileId: string): Promise<DeliverableFileRow> {
  const f = shiftDeliverableFiles;
  const [row] = await ctx.db
    .select()
    .from(f)
    .where(and(eq(f.id, fileId), eq(f.deliverable_id, deliverableId), eq(f.shift_request_id, shiftId)))
    .limit(1);
  if (!row) throw new AppError('UPLOAD-NOT-FND-ERR', 'The deliverable has no such file.');
  return row;
}

const countOf = (deliverableId: string) =>
  sql`(SELECT COUNT(*) FROM ${shiftDeliverableFiles} WHERE ${shiftDeliverableFiles.deliverable_id} = ${deliverableId})`;

const filesIn = (ctx: ServiceContext, deliverableId: string) =>
  ctx.db.$count(shiftDeliverableFiles, eq(shiftDeliverableFiles.deliverable_id, deliverableId));

const tooMany = () => new AppError('CONFLICT-ERR', `A deliverable holds at most ${MAX_FILES_PER_DELIVERABLE} files.`);

/** POST /v1/shift_request/{id}/deliverables/{deliverable_id}/files */
export async function uploadDeliverableFile(
  ctx: ServiceContext,
  shiftId: string,
  deliverableId: string,
  upload: File,
): Promise<DeliverableFileView> {
  const { s, party } = await partyOf(ctx, shiftId);
  const done = committedSubject(ctx, 'shift_deliverable_file');
  if (done) return deliverableFileView(await oneFile(ctx, s.row.id, deliverableId, done));
  const dlv = await oneDeliverable(ctx, s.row.id, deliverableId);
  const { side, state } = writeRule(s, party);
  const file = await inspect(upload);
  if ((await filesIn(ctx, dlv.id)) >= MAX_FILES_PER_DELIVERABLE) throw tooMany();

  const id = newId('upload');
  const key = `deliverables/${s.row.id}/${dlv.id}/${id}.${file.type.ext}`;
  await ctx.env.UPLOADS.put(key, file.bytes, {
    httpMetadata: { contentType: file.type.mime },
    customMetadata: { shift_request_id: s.row.id, deliverable_id: dlv.id, uploaded_by: party.actor.userId },
  });
  const row: DeliverableFileRow = {
    id,
    deliverable_id: dlv.id,
    shift_request_id: s.row.id,
    uploaded_by_user_id: party.actor.userId,
    name: file.name,
    content_type: file.type.mime,
    size: file.bytes.byteLength,
    object_key: key,
    created_at: ctx.now(),
  };
  const sr = shiftRequests;
  // The deliverable must still exist: its author may delete it while the file arrives.
  const sd = shiftDeliverables;
  const condition = sql`EXISTS (SELECT 1 FROM ${sr} WHERE ${sr.id} = ${s.row.id} AND ${state}) AND EXISTS (SELECT 1 FROM ${sd} WHERE ${sd.id} = ${dlv.id}) AND ${countOf(dlv.id)} < ${MAX_FILES_PER_DELIVERABLE}`;
  let applied: boolean;
  try {
    const r = await prepareWrite(
      ctx,
      { type: 'shift_deliverable_file', id },
      () => sql`EXISTS (SELECT 1 FROM ${shiftDeliverableFiles} WHERE ${shiftDeliverableFiles.id} = ${id})`,
    ).commit({
      guard: insertWhere(ctx.db, shiftDeliverableFiles, row, condition),
      audit: {
        action: 'shift_deliverable.file',
        data: { shift_request_id: s.row.id, deliverable_id: dlv.id, side, type: row.content_type, size: row.size },
      },
    });
    applied = r.applied;
  } catch (err) {
    const stored = await rowStored(ctx, id, key);
    if (stored === false) await removeObject(ctx, key);
    if (!stored) throw err;
    applied = true; // the write committed; only its answer was lost
  }
  if (!applied) {
    await removeObject(ctx, key);
    await oneDeliverable(ctx, s.row.id, dlv.id); // deleted meanwhile: SHFT-NOT-FND-ERR
    if ((await filesIn(ctx, dlv.id)) >= MAX_FILES_PER_DELIVERABLE) throw tooMany();
    throw new AppError('SHFT-STATE-ERR', 'The shift changed meanwhile; it no longer takes deliverables.');
  }
  return deliverableFileView(row);
}

/** A stored file as served (the route gives it storedFileHeaders): its bytes, sniffed type, name and size. */
export interface DeliverableFileDownload {
  body: ReadableStream;
  content_type: string;
  filename: string;
  size: number;
}

/** GET /v1/shift_request/{id}/deliverables/{deliverable_id}/files/{file_id}: the shift's parties and admins. */
export async function readDeliverableFile(
  ctx: ServiceContext,
  shiftId: string,
  deliverableId: string,
  fileId: string,
): Promise<DeliverableFileDownload> {
  const { s } = await partyOf(ctx, shiftId);
  const row = await oneFile(ctx, s.row.id, deliverableId, fileId);
  const obj = await ctx.env.UPLOADS.get(row.object_key);
  if (!obj) throw new AppError('UPLOAD-NOT-FND-ERR');
  return {
    body: obj.body,
    content_type: row.content_type.startsWith('text/') ? `${row.content_type}; charset=utf-8` : row.content_type,
    filename: row.name,
    size: row.size,
  };
}
