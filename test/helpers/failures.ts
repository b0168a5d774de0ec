import { env } from 'cloudflare:workers';
import { vi } from 'vitest';

/*
 * Failures injected around the real local D1 (nothing of our storage is replaced): the batch still
 * runs against D1, or is refused before reaching it. Each one is scoped to the batch under test, the
 * first that writes the named table: a queue consumer or a cron job running meanwhile (the outbox,
 * notifications, webhook deliveries) writes its own tables and passes through untouched, so it can
 * neither take the failure nor fail for it. Restore with vi.restoreAllMocks().
 */

/** The batch a failure is meant for: the first one with a statement that inserts, updates or deletes in `writes`. */
export interface BatchScope {
  writes: string;
}

export interface InjectedFailure {
  /** Whether the scoped batch came and took the failure. */
  fired(): boolean;
}

// D1 as it was when the file loaded: an injection passes other batches to it, never to an earlier spy.
const realBatch = env.DB.batch.bind(env.DB);

const sqlOf = (statement: D1PreparedStatement) => (statement as unknown as { statement?: string }).statement ?? '';

function writesTo(statements: D1PreparedStatement[], table: string): boolean {
  const name = table.replace(/[^a-z0-9_]/gi, '');
  const write = new RegExp(`\\b(?:insert(?:\\s+or\\s+\\w+)?\\s+into|update|delete\\s+from)\\s+"?${name}"?[\\s(]`, 'i');
  return statements.some((st) => write.test(sqlOf(st)));
}

function inject(scope: BatchScope, mode: 'fail' | 'lose'): InjectedFailure {
  let fired = false;
  vi.spyOn(env.DB, 'batch').mockImplementation(async (statements) => {
    if (fired || !writesTo(statements, scope.writes)) return realBatch(statements);
    fired = true;
    if (mode === 'lose') {
      await realBatch(statements);
      throw new Error('injected: connection lost after the commit');
    }
    throw new Error('injected: D1 refused the batch');
  });
  return { fired: () => fired };
}

/** The next D1 batch writing `scope.writes` commits, then its answer is lost (the call throws): a failure after the commit. */
export function loseNextBatchAnswer(scope: BatchScope): InjectedFailure {
  return inject(scope, 'lose');
}

/** The next D1 batch writing `scope.writes` fails before anything of it commits. */
export function failNextBatch(scope: BatchScope): InjectedFailure {
  return inject(scope, 'fail');
}
