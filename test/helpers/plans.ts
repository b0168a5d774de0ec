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

/**
 * How many times SQLite expands each CTE of `sqlText` while preparing it. SQLite copies a CTE's whole
 * definition into every place that names it (MATERIALIZED or not) and resolves each copy, with the
 * CTEs it names in turn: a CTE's expansions are the sum, over the CTEs and the main query that name
 * it, of how often they do times their own expansions. Preparing costs by these, not by the text's
 * length. Read from the text: comments dropped, every word equal to a CTE's name counted as a
 * reference (a column qualified by it included, so it errs high).
 */
export function cteExpansions(sqlText: string): Record<string, number> {
  const text = sqlText.replace(/--[^\n]*/g, '');
  const head = /\b(\w+)\s*(?:\([^()]*\))?\s+AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/gi;
  const bodies = new Map<string, string>();
  const spans: Array<[number, number]> = [];
  for (let m = head.exec(text); m; m = head.exec(text)) {
    if (/^(as|select|from|in|exists|join|over|cast)$/i.test(m[1]!)) continue;
    let depth = 1;
    let i = head.lastIndex;
    for (; i < text.length && depth > 0; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
    bodies.set(m[1]!, text.slice(head.lastIndex, i - 1));
    spans.push([m.index, i]);
  }
  let main = text;
  for (const [a, b] of spans.sort((x, y) => y[0] - x[0])) main = main.slice(0, a) + main.slice(b);
  const refs = (body: string, name: string) => body.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
  const memo = new Map<string, number>();
  const open = new Set<string>();
  const expansions = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    if (open.has(name)) throw new Error(`CTEs name each other: ${[...open].join(' → ')} → ${name}`);
    open.add(name);
    let n = refs(main, name);
    for (const [user, body] of bodies) {
      const r = user === name ? 0 : refs(body, name);
      if (r > 0) n += r * expansions(user);
    }
    open.delete(name);
    memo.set(name, n);
    return n;
  };
  return Object.fromEntries([...bodies.keys()].map((name) => [name, expansions(name)]));
}
