import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-types';
import { serviceCtx } from '../../http/create-app';
import { timingSafeEqualStr } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { seedDemoData } from '../../local/demo';

/**
 * Local-development hook used by `npm run dev` and `npm run seed`: seeds demo data and returns the
 * demo accounts with fresh keys. It exists only with DEMO_MODE on and a DEMO_SEED_TOKEN set (the dev
 * script makes a random one per run); it is not part of the public API or its OpenAPI document.
 */
export const demoRouter = new Hono<AppEnv>().post('/internal/demo/seed', async (c) => {
  const { DEMO_MODE, DEMO_SEED_TOKEN } = c.get('settings');
  const given = c.req.header('X-Demo-Seed-Token') ?? '';
  if (!DEMO_MODE || !DEMO_SEED_TOKEN || !timingSafeEqualStr(given, DEMO_SEED_TOKEN)) {
    throw new AppError('NOT-FOUND-ERR', `No route for POST ${c.req.path}.`);
  }
  const force = c.req.query('force') === '1';
  const result = await seedDemoData(serviceCtx(c), { force });
  c.header('Cache-Control', 'no-store');
  return c.json(result, 200);
});
