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
    test: (b) => String.fromCharCode(...b.slice(4, 8)) === 'ftyp' && ['heic', 'heix', 'mif1', 'msf1'].includes(String.fromCharCode(...b.slice(8, 12))),
  },
  { mime: 'application/pdf', ext: 'pdf', test: (b) => String.fromCharCode(...b.slice(0, 5)) === '%PDF-' },
];

export type SniffedType = { mime: string; ext: string };

export function sniffType(bytes: Uint8Array): SniffedType | null {
  const hit = SIGNATURES.find((s) => s.test(bytes));
  return hit ? { mime: hit.mime, ext: hit.ext } : null;
}

/**
 * Route middleware for uploads, run before the body is parsed: a multipart body is required, and a
 * declared length far beyond the limit is refused without reading it.
 */
export function uploadGuard(maxBytes: number, what: string): MiddlewareHandler {
  return async (c, next) => {
    const type = c.req.header('Content-Type') ?? '';
    if (!type.startsWith('multipart/form-data')) throw new AppError('UNSUPPORTED-MEDIA-ERR', 'Send multipart/form-data with a "file" field.');
    const declared = Number(c.req.header('Content-Length') ?? '0');
    if (declared > maxBytes + 64 * 1024) throw new AppError('PAYLOAD-TOO-LARGE-ERR', `The ${what} must be at most ${maxBytes / 1024 / 1024} MB.`);
    return next();
  };
}

/** Schema for a multipart file field (documented as binary). */
export const fileField = z
  .custom<File>((v) => v instanceof File, { message: 'a file is required' })
  .openapi({ type: 'string', format: 'binary' });

/** Checks an uploaded file's size and sniffed type; nothing is stored until this passes. */
export async function inspectFile(file: File, opts: { maxBytes: number; accept: (t: SniffedType) => boolean; what: string }) {
  if (file.size === 0) throw new AppError('VALIDATION-ERR', 'The file is empty.', [{ field: 'file', message: 'empty' }]);
  if (file.size > opts.maxBytes) throw new AppError('PAYLOAD-TOO-LARGE-ERR', `The ${opts.what} must be at most ${opts.maxBytes / 1024 / 1024} MB.`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffType(bytes.slice(0, 16));
  if (!type || !opts.accept(type)) throw new AppError('UNSUPPORTED-MEDIA-ERR', `This file type is not accepted for the ${opts.what}.`);
  return { bytes, type, filename: file.name };
}
