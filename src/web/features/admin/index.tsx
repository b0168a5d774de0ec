import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { formIdempotency } from '@/http/middleware/idempotency';
import { requireWebUser } from '@/web/session';
import { postJoin, postResolve, renderDeliveries, renderDisputes, renderSupport } from './page';

/**
 * The admin's queues (/admin): disputes, support threads, notification deliveries. Mounted at `/`
 * beside the other shared pages, so the guards are scoped to these paths.
 */
export const adminPages = new Hono<AppEnv>();
adminPages.use('/admin', requireWebUser);
adminPages.use('/admin/*', requireWebUser);
adminPages.post('/admin/*', formIdempotency);
adminPages.get('/admin', renderDisputes);
adminPages.post('/admin/disputes/:id/resolve', postResolve);
adminPages.get('/admin/support', renderSupport);
adminPages.post('/admin/support/:id/join', postJoin);
adminPages.get('/admin/deliveries', renderDeliveries);
