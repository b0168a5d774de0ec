import { z } from '@hono/zod-openapi';
import { AppError } from './errors';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export const paginationInput = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .openapi({ description: `Rows per page, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
  cursor: z.string().max(200).nullish().openapi({ description: 'next_cursor from the previous page.' }),
};

/** Opaque cursors: base64url of a small JSON value. */
export function encodeCursor(value: unknown): string {
  return btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function decodeCursor<T>(cursor: string, check: (v: unknown) => v is T): T {
  try {
    const v: unknown = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/')));
    if (check(v)) return v;
  } catch {
    /* fall through */
  }
  throw new AppError('VALIDATION-ERR', 'The cursor is not valid; start again without it.', [{ field: 'cursor', message: 'invalid' }]);
}

export const isKeysetCursor = (v: unknown): v is [number, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'string';
export const isOffsetCursor = (v: unknown): v is { o: number } =>
  typeof v === 'object' && v !== null && typeof (v as { o?: unknown }).o === 'number' && (v as { o: number }).o >= 0;
