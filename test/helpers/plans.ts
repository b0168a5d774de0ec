import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { AppBindings } from '../../src/env';
import worker from '../../src';
import { type ApiResult, BASE, type CallOptions } from './api';

/** One D1 statement as the service sent it: its SQL and bound values. */
export interface Recorded {
  sql: string;
  params: unknown[];
}

/** The D1 binding, recording every statement prepared through it (and its bound values) into `log`. */
export function recordingD1(real: D1Database, log: Recorded[]): D1Database {
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (query: string) => {
          const entry: Recorded = { sql: query, params: [] };
          log.push(entry);
          const stmt = target.prepare(query);
          return new Proxy(stmt, {
            get(s, p) {
              if (p === 'bind')
                return (...values: unknown[]) => {
                  entry.params = values;
                  return s.bind(...values);
                };
              const v = Reflect.get(s, p);
              return typeof v === 'function' ? v.bind(s) : v;
            },
          });
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Calls the Worker as `call` does, with D1 recording; returns the answer and the statements it ran. */
export async function callRecording(
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<{ res: ApiResult; statements: Recorded[] }> {
  const statements: Recorded[] = [];
  const bindings = { ...env, DB: recordingD1(env.DB, statements) } as AppBindings;
  const url = new URL(path, BASE);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set('Authorization', `Bearer ${opts.key}`);
  if (opts.body !== undefined) headers.set('Content-Type', 'application/json');
  const ctx = createExecutionContext();
  const raw = await worker.fetch(
    new Request(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await raw.clone().text();
  return { res: { status: raw.status, headers: raw.headers, body: text ? JSON.parse(text) : null, raw }, statements };
}

/** SQLite's plan for a recorded statement: one line per step, indented by depth ("SEARCH s USING INDEX …"). */
export async function planOf(stmt: Recorded): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${stmt.sql}`)
    .bind(...stmt.params)
    .all<{ id: number; parent: number; detail: string }>();
  const depth = new Map<number, number>([[0, -1]]);
  return results.map((r) => {
    const d = (depth.get(r.parent) ?? -1) + 1;
    depth.set(r.id, d);
    return `${'  '.repeat(d)}${r.detail}`;
  });
}

/** The statements that read `table` (by name in their SQL), each with its plan. */
export async function plansReading(statements: Recorded[], table: string): Promise<Array<{ sql: string; plan: string[] }>> {
  const reading = statements.filter((s) => new RegExp(`\\b${table}\\b`).test(s.sql) && /^\s*(select|with)/i.test(s.sql));
  return Promise.all(reading.map(async (s) => ({ sql: s.sql, plan: await planOf(s) })));
}

/**
 * A step that reads `table` whole: `SCAN <table or alias>` without an index. `aliases` are the
 * names the statement gives the table.
 */
export function fullScans(plan: string[], names: string[]): string[] {
  return plan.filter((l) => {
    const m = /^\s*SCAN (\S+)( USING .*)?$/.exec(l);
    return m !== null && names.includes(m[1]!) && m[2] === undefined;
  });
}
