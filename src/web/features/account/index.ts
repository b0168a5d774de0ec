import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { requireWebUser } from '@/web/session';
import { apiKeyPage } from './api-key';
import { passwordPage } from './password';
import { profilePage } from './profile';
import { securityPage } from './security';
import { securitySetupPage } from './security-setup';
import { sessionsPage } from './sessions';

/**
 * The account settings pages (mounted at /account), all behind the cookie session: requireWebUser
 * sends a signed-out browser to sign-in and a session waiting for its second factor to the
 * challenge, and makes the session's user the actor, so each page calls the same services as the
 * JSON API, as that user. Forms post, then redirect to a page (post/redirect/get), except where a
 * secret is shown once (a new API key, backup codes): that POST answers with the page itself.
 */
export const accountPages = new Hono<AppEnv>();
accountPages.use('*', requireWebUser);
accountPages.route('/', profilePage);
accountPages.route('/', apiKeyPage);
accountPages.route('/', passwordPage);
accountPages.route('/', sessionsPage);
accountPages.route('/', securityPage);
accountPages.route('/', securitySetupPage);
