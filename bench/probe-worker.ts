// The Worker the benchmarks serve: the real one (src/index.ts, every request not under /__bench/
// goes to it unchanged) plus probe routes that each add one layer of an authenticated read, so
// bench/auth-read.mjs can say what each layer costs. Only bundled by the benchmarks, never deployed.
import { eq } from 'drizzle-orm';
import { createDb } from '../src/db/client';
import { users } from '../src/db/schema';
import { type AppBindings, getSettings } from '../src/env';
import worker from '../src';
import { resolveApiKey } from '../src/services/accounts';
import { consumeRateLimit } from '../src/services/kernel';

// The real Worker's named exports: every Durable Object class wrangler.toml binds, so a new one needs no change here.
export * from '../src';

const PREFIX = '/__bench/';

/**
 * GET /__bench/<layer>, each layer doing what the one before does and one thing more:
 * - `bare`: a JSON answer from the Worker, nothing else (no app, no middleware);
 * - `key`: + the API key lookup (one D1 query: key, user, admin and demo flags);
 * - `limit`: + the rate-limit Durable Object call;
 * - `user`: + the user's row: the least an authenticated read of one's account needs.
 */
async function probe(layer: string, req: Request, env: AppBindings): Promise<Response> {
  if (layer === 'bare') return Response.json({ ok: true });
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
  fetch(req, env, ctx) {
    const { pathname } = new URL(req.url);
    if (pathname.startsWith(PREFIX)) return probe(pathname.slice(PREFIX.length), req, env);
    return worker.fetch(req, env, ctx);
  },
  queue: worker.queue,
  scheduled: worker.scheduled,
} satisfies ExportedHandler<AppBindings>;
