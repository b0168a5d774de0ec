import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

export type Db = ReturnType<typeof createDb>;

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export { schema };

type BatchItems = Parameters<Db['batch']>[0];
export type BatchItem = BatchItems[number];

/** Runs statements as one atomic D1 batch (D1 has no interactive transactions). */
export function runBatch(db: Db, items: BatchItem[]) {
  if (items.length === 0) return Promise.resolve([]);
  return db.batch(items as unknown as BatchItems);
}

/** True when a D1 error is a UNIQUE constraint failure. */
export function isUniqueViolation(err: unknown): boolean {
  const msg = err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : String(err);
  return msg.includes('UNIQUE constraint failed');
}
