// The Worker the benchmarks serve: the real one (src/index.ts, every request not under /__bench/
// goes to it unchanged) plus probe routes that each add one layer of an authenticated read, so
// bench/auth-read.mjs can say what each layer costs, and counters of what each request asks of the
// platform. Only bundled by the benchmarks, never deployed.
import { AsyncLocalStorage } from 'node:async_hooks';
import { eq } from 'drizzle-orm';
import { createDb } from '../src/db/client';
import { users } from '../src/db/schema';
import { type AppBindings, getSettings } from '../src/env';
import worker from '../src';
import { resolveApiKey } from '../src/services/accounts';
import { advanceInsightRollups } from '../src/services/insights';
import { consumeRateLimit, systemContext } from '../src/services/kernel';

// The real Worker's named exports: every Durable Object class wrangler.toml binds, so a new one needs no change here.
export * from '../src';

const PREFIX = '/__bench/';

/**
 * What one request asked of the platform until its answer: D1 statements and round trips (a batch is
 * one round trip) and the time spent waiting on them, Durable Object calls (each method or fetch on a
 * stub) and queue messages. Answered in `x-bench-*` headers; work a request leaves to waitUntil after
 * its answer is not in them.
 */
interface Counts {
  d1Statements: number;
  d1RoundTrips: number;
  /** Time spent waiting on D1, summed over the request's round trips (ms): its share of the database. */
  d1Ms: number;
  doCalls: number;
  queueMessages: number;
  /** With `x-bench-trace: <id>`: every statement (SQL, bound values), kept for GET /__bench/trace/<id>. */
  statements?: Array<{ sql: string; params: unknown[] }>;
}
const current = new AsyncLocalStorage<Counts>();
/** The statements of the last traced requests, by trace id (a few dozen at most). */
const traces = new Map<string, Array<{ sql: string; params: unknown[] }>>();
const count = (k: 'd1Statements' | 'd1RoundTrips' | 'doCalls' | 'queueMessages', n = 1) => {
  const c = current.getStore();
  if (c) c[k] += n;
};

/** A proxy that hands each method call (its name, arguments and result) to `on`, which returns what the caller gets. */
function counting<T extends object>(target: T, on: (prop: string, args: unknown[], result: unknown) => unknown): T {
  return new Proxy(target, {
    get(t, prop) {
      const v = Reflect.get(t, prop);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => on(String(prop), args, Reflect.apply(v, t, args));
    },
  });
}

/** Adds the time until `result` settles to the request's D1 time. */
function timed(result: unknown): unknown {
  const t0 = performance.now();
  const c = current.getStore();
  return (result as Promise<unknown>).finally(() => {
    if (c) c.d1Ms += performance.now() - t0;
  });
}

function countingD1(db: D1Database): D1Database {
  const statement = (s: D1PreparedStatement, sql: string): D1PreparedStatement =>
    counting(s, (prop, args, result) => {
      if (prop === 'bind') {
        current.getStore()?.statements?.push({ sql, params: args });
        return statement(result as D1PreparedStatement, sql);
      }
      if (['first', 'all', 'run', 'raw'].includes(prop)) {
        count('d1Statements');
        count('d1RoundTrips');
        return timed(result);
      }
      return result;
    });
  return counting(db, (prop, args, result) => {
    if (prop === 'prepare') return statement(result as D1PreparedStatement, String(args[0]));
    if (prop === 'batch') {
      count('d1Statements', (args[0] as unknown[]).length);
      count('d1RoundTrips');
      return timed(result);
    }
    if (prop === 'exec') {
      count('d1RoundTrips');
      return timed(result);
    }
    return result;
  });
}

function countingNamespace<N extends object>(ns: N): N {
  return counting(ns, (prop, _args, result) =>
    prop === 'get' || prop === 'getByName'
      ? counting(result as object, (_p, _a, r) => {
          count('doCalls');
          return r;
        })
      : result,
  );
}

function countingQueue(q: Queue): Queue {
  return counting(q, (prop, args, result) => {
    if (prop === 'send') count('queueMessages');
    if (prop === 'sendBatch') count('queueMessages', (args[0] as unknown[]).length);
    return result;
  });
}

const counted = new WeakMap<AppBindings, AppBindings>();
/** The bindings with counters, one object per environment (settings are cached per object). */
function countedEnv(env: AppBindings): AppBindings {
  const known = counted.get(env);
  if (known) return known;
  const e: AppBindings = {
    ...env,
    DB: countingD1(env.DB),
    RATE_LIMITER: countingNamespace(env.RATE_LIMITER),
    CLAIM_LOCK: countingNamespace(env.CLAIM_LOCK),
    THREADS: countingNamespace(env.THREADS),
    NOTIFICATIONS_QUEUE: countingQueue(env.NOTIFICATIONS_QUEUE),
    WEBHOOKS_QUEUE: countingQueue(env.WEBHOOKS_QUEUE),
  };
  counted.set(env, e);
  return e;
}

/**
 * GET /__bench/<layer>, each layer doing what the one before does and one thing more:
 * - `bare`: a JSON answer from the Worker, nothing else (no app, no middleware);
 * - `key`: + the API key lookup (one D1 query: key, user, admin and demo flags);
 * - `limit`: + the rate-limit Durable Object call;
 * - `user`: + the user's row: the least an authenticated read of one's account needs.
 * POST /__bench/rollups runs the 5-minute job that moves the figures' windowed rollups (after a load);
 * GET /__bench/trace/<id> answers the statements of the request sent with `x-bench-trace: <id>`.
 */
async function probe(layer: string, req: Request, env: AppBindings, ctx: ExecutionContext): Promise<Response> {
  if (layer === 'bare') return Response.json({ ok: true });
  if (layer.startsWith('trace/')) return Response.json({ statements: traces.get(layer.slice('trace/'.length)) ?? null });
  if (layer === 'rollups' && req.method === 'POST') {
    const steps = await advanceInsightRollups(systemContext(env, ctx, 'bench:rollups'));
    return Response.json({ steps });
  }
  const key = /^Bearer (\S+)$/.exec(req.headers.get('Authorization') ?? '')?.[1] ?? '';
  const db = createDb(env.DB);
  const cred = await resolveApiKey(db, key);
  if (!cred) return Response.json({ error: 'unknown key' }, { status: 401 });
  if (layer === 'key') return Response.json({ user_id: cred.userId });
  const settings = getSettings(env);
  const limit = await consumeRateLimit(
    env,
    `bench-probe:${cred.userId}`,
    settings.API_KEY_RATE_LIMIT,
    settings.API_KEY_RATE_WINDOW_SECONDS,
  );
  if (!limit.allowed) return Response.json({ error: 'rate limited' }, { status: 429 });
  if (layer === 'limit') return Response.json({ user_id: cred.userId, remaining: limit.remaining });
  const [user] = await db.select().from(users).where(eq(users.id, cred.userId)).limit(1);
  if (layer === 'user')
    return Response.json({ id: user?.id, email: user?.email, display_name: user?.display_name, remaining: limit.remaining });
  return Response.json({ error: `no layer ${layer}` }, { status: 404 });
}

export default {
  async fetch(req, env, ctx) {
    const { pathname } = new URL(req.url);
    if (pathname.startsWith(PREFIX)) return probe(pathname.slice(PREFIX.length), req, env, ctx);
    const counts: Counts = { d1Statements: 0, d1RoundTrips: 0, d1Ms: 0, doCalls: 0, queueMessages: 0 };
    const trace = req.headers.get('x-bench-trace');
    if (trace) {
      counts.statements = [];
      traces.set(trace, counts.statements);
      if (traces.size > 50) traces.delete(traces.keys().next().value!);
    }
    const res = await current.run(counts, () => worker.fetch(req, countedEnv(env), ctx));
    const out = new Response(res.body, res);
    out.headers.set('x-bench-d1-statements', String(counts.d1Statements));
    out.headers.set('x-bench-d1-round-trips', String(counts.d1RoundTrips));
    out.headers.set('x-bench-d1-ms', counts.d1Ms.toFixed(2));
    out.headers.set('x-bench-do-calls', String(counts.doCalls));
    out.headers.set('x-bench-queue-messages', String(counts.queueMessages));
    return out;
  },
  queue: worker.queue,
  scheduled: worker.scheduled,
} satisfies ExportedHandler<AppBindings>;
