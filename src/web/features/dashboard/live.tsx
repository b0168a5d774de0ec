import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { requestOrigin } from '@/http/origin';
import { AppError } from '@/lib/errors';
import { listActingBusinesses } from '@/services/businesses';
import { openBusinessLive } from '@/services/live';
import { renderPage } from '@/web/render';
import { appOrigin } from '@/web/urls';
import { shellCounts } from './context';
import { HeaderCounts } from './shell';

/**
 * GET /dashboard/live?business_id=: the WebSocket of a business's pages (the `live` island), for a
 * person who may see the business (services/live). Only the application's own pages may open it: a
 * browser sends the page's Origin with the upgrade, and the session cookie alone must not let another
 * site listen in.
 */
export async function liveBusiness(c: Context<AppEnv>): Promise<Response> {
  const origin = c.req.header('Origin');
  if (!origin || (origin !== requestOrigin(c) && origin !== appOrigin(c))) return c.text('Forbidden', 403);
  if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') return c.text('Expected a WebSocket', 426);
  const businessId = c.req.query('business_id');
  if (!businessId) return c.text('Name the business: ?business_id=', 400);
  try {
    return await openBusinessLive(serviceCtx(c), businessId, c.req.raw);
  } catch (err) {
    if (err instanceof AppError && (err.status === 404 || err.status === 403)) return c.text('Not found', 404);
    throw err;
  }
}

/**
 * GET /dashboard/live/counts?business_id=: the header's inbox and notifications links with their
 * figures, as every page renders them (the `live` island swaps them in on a `counts` signal).
 */
export async function renderLiveCounts(c: Context<AppEnv>): Promise<Response> {
  const businessId = c.req.query('business_id');
  const acting = await listActingBusinesses(serviceCtx(c));
  const known = acting.some((b) => b.id === businessId) ? businessId : undefined;
  return renderPage(c, <HeaderCounts counts={await shellCounts(c)} businessId={known} />);
}
