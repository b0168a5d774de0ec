import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { getDecline, getRemove, postAccept, postAsk, postDecline, postRemove } from './connection-actions';
import { renderConnections } from './connections';

/**
 * The shifter's businesses ({app_url}/dashboard/shifter/connections): invitations, the crews they
 * are in, the requests they sent, and finding more businesses to ask.
 */
export const shifterConnectionPages = new Hono<AppEnv>();
shifterConnectionPages.get('/connections', (c) => renderConnections(c));
shifterConnectionPages.post('/connections/ask', postAsk);
shifterConnectionPages.post('/connections/:id/accept', postAccept);
shifterConnectionPages.get('/connections/:id/decline', getDecline);
shifterConnectionPages.post('/connections/:id/decline', postDecline);
shifterConnectionPages.get('/connections/:id/remove', getRemove);
shifterConnectionPages.post('/connections/:id/remove', postRemove);
