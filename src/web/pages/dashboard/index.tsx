import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';
import { formIdempotency } from '../../../http/middleware/idempotency';
import { requireWebUser } from '../../session';
import { postAssistant, postInvite, renderAssistant, renderInvite } from './assistant';
import { renderBulk } from './bulk';
import { renderHome } from './home';
import { postShift, renderPostShift } from './post-shift';
import { renderShifter } from './shifter';
import { renderSchedule } from './schedule';
import { postShiftChange, renderShiftChange } from './shift-change';

/**
 * The web application for people who run a venue ({app_url}/dashboard): signed-in pages only, every
 * one calling the same services as the API with the person as the actor. Forms that write carry an
 * idempotency key (formIdempotency), so a form sent twice acts once.
 */
export const dashboardPages = new Hono<AppEnv>();
dashboardPages.use('*', requireWebUser);
dashboardPages.post('*', formIdempotency);
dashboardPages.get('/', renderHome);
dashboardPages.get('/shifts/new', renderPostShift);
dashboardPages.post('/shifts/new', postShift);
dashboardPages.get('/schedule', renderSchedule);
dashboardPages.get('/shifts/:id/change', renderShiftChange);
dashboardPages.post('/shifts/:id/change', postShiftChange);
dashboardPages.get('/bulk', renderBulk);
dashboardPages.get('/shifter', renderShifter);
dashboardPages.get('/assistant', renderAssistant);
dashboardPages.post('/assistant', postAssistant);
dashboardPages.get('/assistant/invite', renderInvite);
dashboardPages.post('/assistant/invite', postInvite);
