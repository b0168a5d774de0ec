import { z } from '@hono/zod-openapi';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../lib/pagination';

export interface PagingOptions {
  /** The largest page a caller may ask for (default MAX_LIMIT). */
  max?: number;
  /** The page size when none is asked for (default DEFAULT_LIMIT). */
  default?: number;
  /** The longest cursor accepted (default 200). */
  cursorMax?: number;
  /** The limit's description in the OpenAPI document; null: none. Default: "Rows per page, 1–max (default n)." */
  limitDescription?: string | null;
  /** The cursor's description in the OpenAPI document; null: none. */
  cursorDescription?: string | null;
}

/** The `limit` query parameter of a paged list: a whole number from 1 to `max`, coerced from the query string. */
export function pagingLimit(o: PagingOptions = {}) {
  const max = o.max ?? MAX_LIMIT;
  const def = o.default ?? DEFAULT_LIMIT;
  const limit = z.coerce.number().int().min(1).max(max).default(def);
  const description = o.limitDescription === undefined ? `Rows per page, 1–${max} (default ${def}).` : o.limitDescription;
  return description === null ? limit : limit.openapi({ description });
}

/** The `cursor` query parameter of a paged list: the previous page's next_cursor, opaque. */
export function pagingCursor(o: PagingOptions = {}) {
  const cursor = z
    .string()
    .max(o.cursorMax ?? 200)
    .optional();
  const description = o.cursorDescription === undefined ? 'next_cursor from the previous page.' : o.cursorDescription;
  return description === null ? cursor : cursor.openapi({ description });
}

/**
 * The `limit` and `cursor` query parameters of a paged list, to spread into its query schema. The
 * options keep each list's bounds and descriptions, so the OpenAPI document says what it said before.
 */
export function pagingQuery(o: PagingOptions = {}) {
  return { limit: pagingLimit(o), cursor: pagingCursor(o) };
}
