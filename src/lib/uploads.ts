import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { AppError } from './errors';

/** File types recognised by their first bytes, never by the client's claim. */
const SIGNATURES: Array<{ mime: string; ext: string; test: (b: Uint8Array) => boolean }> = [
  { mime: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/png', ext: 'png', test: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v) },
  { mime: 'image/gif', ext: 'gif', test: (b) => String.fromCharCode(...b.slice(0, 4)) === 'GIF8' },
  {
    mime: 'image/webp',
    ext: 'webp',
    test: (b) => String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP',
  },
  {
    mime: 'image/heic',
    ext: 'heic',
    test: (b) =>
      String.fromCharCode(...b.slice(4, 8)) === 'ftyp' && ['heic', 'heix', 'mif1', 'msf1'].includes(String.fromCharCode(...b.slice(8, 12))),
  },
  { mime: 'application/pdf', ext: 'pdf', test: (b) => String.fromCharCode(...b.slice(0, 5)) === '%PDF-' },
];

export type SniffedType = { mime: string; ext: string };

export function sniffType(bytes: Uint8Array): SniffedType | null {
  const hit = SIGNATURES.find((s) => s.test(bytes));
  return hit ? { mime: hit.mime, ext: hit.ext } : null;
}

/** Room for the multipart framing around the file (boundaries, part headers, small fields). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export interface UploadCap {
  /** The whole multipart body: the file limit plus MULTIPART_OVERHEAD_BYTES. */
  maxBodyBytes: number;
  /** Said in the 413, e.g. "The clock photo must be at most 8 MB." */
  message: string;
}

/** The body cap of each upload route, keyed by its guard (read by the app's body limit). */
const uploadCaps = new WeakMap<MiddlewareHandler, UploadCap>();

/**
 * The body cap a route's handler declares, when it is an upload guard. The app's body limit counts the
 * bytes against it as they arrive, before anything reads or buffers the body; other routes get the
 * much smaller general body limit.
 */
export function uploadCapOf(handler: unknown): UploadCap | undefined {
  return typeof handler === 'function' ? uploadCaps.get(handler as MiddlewareHandler) : undefined;
}

const tooLarge = (what: string, maxBytes: number) => `The ${what} must be at most ${maxBytes / 1024 / 1024} MB.`;

/**
 * Route middleware for uploads: marks the route as taking a file of at most `maxBytes` (see
 * uploadCapOf; the size is enforced by the app's body limit, which never trusts Content-Length) and
 * requires a multipart body.
 */
export function uploadGuard(maxBytes: number, what: string): MiddlewareHandler {
  const guard: MiddlewareHandler = async (c, next) => {
    const type = c.req.header('Content-Type') ?? '';
    if (!type.startsWith('multipart/form-data'))
      throw new AppError('UNSUPPORTED-MEDIA-ERR', 'Send multipart/form-data with a "file" field.');
    return next();
  };
  uploadCaps.set(guard, { maxBodyBytes: maxBytes + MULTIPART_OVERHEAD_BYTES, message: tooLarge(what, maxBytes) });
  return guard;
}

/** Schema for a multipart file field (documented as binary). */
export const fileField = z
  .custom<File>((v) => v instanceof File, { message: 'a file is required' })
  .openapi({ type: 'string', format: 'binary' });

/** Checks an uploaded file's size and sniffed type; nothing is stored until this passes. */
export async function inspectFile(file: File, opts: { maxBytes: number; accept: (t: SniffedType) => boolean; what: string }) {
  if (file.size === 0) throw new AppError('VALIDATION-ERR', 'The file is empty.', [{ field: 'file', message: 'empty' }]);
  if (file.size > opts.maxBytes) throw new AppError('PAYLOAD-TOO-LARGE-ERR', tooLarge(opts.what, opts.maxBytes));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffType(bytes.slice(0, 16));
  if (!type || !opts.accept(type)) throw new AppError('UNSUPPORTED-MEDIA-ERR', `This file type is not accepted for the ${opts.what}.`);
  return { bytes, type, filename: file.name };
}
