import { Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-types';
import { assetsRouter } from './assets';
import { calendarFeedRoutes } from './calendar-feed';
import { csrf } from './csrf';
import { accountPages } from './features/account';
import { adminPages } from './features/admin';
import { dashboardPages } from './features/dashboard';
import { financePages } from './features/finance';
import { helpPages } from './features/help';
import { inboxPages } from './features/inbox';
import { kioskLock, kioskPages } from './features/kiosk';
import { loginPages } from './features/sign-in/login';
import { agentSettingsPage, oauthPages } from './features/oauth';
import { mcpConfirmPages } from './features/oauth/mcp-confirm';
import { publicPages } from './features/public';
import { reviewsPages } from './features/reviews';
import { twoFactorChallengePages } from './features/sign-in/two-factor-challenge';
import { renderError } from './render';
import { requestOrigin } from '../http/origin';
import { appOrigin } from './urls';

/** A page asked for on another origin than {app_url} (e.g. the API's host) is sent there. */
const onAppOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const app = appOrigin(c);
  if (app !== requestOrigin(c)) {
    const url = new URL(c.req.url);
    return c.redirect(`${app}${url.pathname}${url.search}`, 308);
  }
  await next();
};

/**
 * The paths of the pages; only these run the page middleware (the JSON API never does). Each page is
 * matched by one entry: `/x/*` matches `/x` itself too, so listing both would run the middleware
 * twice on `/x` (two CSRF cookies in one answer).
 */
const PAGE_PATHS = [
  '/',
  '/signup/*',
  '/s/*',
  '/b/*',
  '/join/*',
  '/inbox/*',
  '/notifications/*',
  '/reviews/*',
  '/help/*',
  '/admin/*',
  '/login/*',
  '/logout',
  '/account/*',
  '/dashboard/*',
  '/finance/web/*',
  '/mcp-confirm/*',
];

/** The kiosk's own pages (a venue's tablet in kiosk mode): the only ones a kiosk reaches. */
const KIOSK_PATHS = ['/kiosk/*'];

/**
 * The server-rendered pages ({app_url}): sign-in with its two-factor step, sign-out, and the account
 * settings, plus their stylesheet and script. Every page route runs the CSRF check; the account pages
 * need the cookie session (pages/account).
 */
export const webRouter = new Hono<AppEnv>();
webRouter.route('/', assetsRouter);
webRouter.route('/', calendarFeedRoutes);
for (const path of PAGE_PATHS) webRouter.use(path, onAppOrigin, kioskLock, csrf);
for (const path of KIOSK_PATHS) webRouter.use(path, onAppOrigin, csrf);
webRouter.route('/', loginPages);
webRouter.route('/', twoFactorChallengePages);
// The OAuth consent page lives on {auth_url} (the provider's advertised authorize endpoint), not {app_url}.
webRouter.use('/oauth/authorize', kioskLock, csrf);
webRouter.route('/', oauthPages);
webRouter.route('/', agentSettingsPage);
webRouter.route('/', mcpConfirmPages);
webRouter.route('/account', accountPages);
webRouter.route('/dashboard', dashboardPages);
webRouter.route('/', publicPages);
webRouter.route('/', inboxPages);
webRouter.route('/', reviewsPages);
webRouter.route('/', helpPages);
webRouter.route('/', adminPages);
webRouter.route('/kiosk', kioskPages);
webRouter.all('/account/*', (c) => renderError(c, 404, 'Page not found', 'There is no such page.'));
webRouter.route('/finance/web', financePages);
