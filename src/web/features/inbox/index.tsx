import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { formIdempotency } from '@/http/middleware/idempotency';
import { requireWebUser } from '@/web/session';
import { liveThread, postSend, postThreadAction, renderInbox, renderThread } from './inbox';
import { postMarkAllRead, postMarkRead, postPreferences, renderNotifications, renderPreferences } from './notifications';

/**
 * A signed-in person's inbox (/inbox) and notifications (/notifications): every page needs the
 * person, and every form that writes carries an idempotency key (formIdempotency).
 */
export const inboxPages = new Hono<AppEnv>();
for (const path of ['/inbox', '/inbox/*', '/notifications', '/notifications/*']) {
  inboxPages.use(path, requireWebUser);
  inboxPages.post(path, formIdempotency);
}
inboxPages.get('/inbox', renderInbox);
inboxPages.get('/inbox/:id/live', liveThread);
inboxPages.get('/inbox/:id', renderThread);
inboxPages.post('/inbox/:id/send', postSend);
inboxPages.post('/inbox/:id/:action', postThreadAction);
inboxPages.get('/notifications', renderNotifications);
inboxPages.post('/notifications/read_all', postMarkAllRead);
inboxPages.get('/notifications/preferences', renderPreferences);
inboxPages.post('/notifications/preferences', postPreferences);
inboxPages.post('/notifications/:id/read', postMarkRead);
