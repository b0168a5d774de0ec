import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv, WebUser } from '@/http/app-types';
import { isHttps } from '@/http/cookies';
import { serviceCtx } from '@/http/create-app';
import { getUserDetails } from '@/services/accounts';
import { type ActingBusiness, listActingBusinesses } from '@/services/businesses';
import { countUnreadThreads } from '@/services/messaging';
import { countUnreadNotifications } from '@/services/notifications';
import { renderError } from '@/web/render';

/**
 * Who is looking and for which business: what every signed-in page of the web application starts
 * from (the dashboard's two sides and the shared pages: inbox, notifications, reviews, help, admin). The business is
 * the one named by `?business_id=` when the person acts for it, else the one they chose last in this
 * browser (the `sm_business` cookie), else their default business, else the
 * first they act for. A business they do not act for is never chosen from the address (it would be a
 * 404 from the services anyway): the page falls back to their own.
 */
export interface DashboardBase {
  user: WebUser;
  csrfToken: string;
  businesses: ActingBusiness[];
  /** The business the page is about; null for a person without one (shifter side or new account). */
  business: ActingBusiness | null;
  shifterId: string | null;
  isAdmin: boolean;
  /** The header's figures: unread notifications (the bell) and threads with unread messages (null: not counted). */
  counts: ShellCounts;
}

export interface ShellCounts {
  notifications: number;
  messages: number | null;
}

/** What the header shows on every page; one cheap read each, in parallel with the page's own. */
export async function shellCounts(c: Context<AppEnv>): Promise<ShellCounts> {
  const ctx = serviceCtx(c);
  const [notifications, messages] = await Promise.all([countUnreadNotifications(ctx), countUnreadThreads(ctx)]);
  return { notifications, messages: messages.total };
}

/**
 * What every page starts from. A page of either side also remembers that side for a person who has
 * both (rememberSide); the dashboard's home asks first where the person lands (`remember: false`).
 */
export async function dashboardBase(c: Context<AppEnv>, opts: { remember?: boolean } = {}): Promise<DashboardBase> {
  const user = c.get('webUser');
  if (!user) throw new Error('dashboard page reached without a signed-in user');
  const ctx = serviceCtx(c);
  const [businesses, details, counts] = await Promise.all([listActingBusinesses(ctx), getUserDetails(ctx), shellCounts(c)]);
  const asked = c.req.query('business_id');
  const named = businesses.find((b) => b.id === asked);
  // A typed or bookmarked address (no business_id) opens the business chosen last in this browser.
  const chosen = named ? null : readChosenBusiness(c, user.userId);
  const business =
    named ??
    businesses.find((b) => b.id === chosen) ??
    businesses.find((b) => b.id === details.default_business_id) ??
    businesses[0] ??
    null;
  if (named) rememberChosenBusiness(c, user.userId, named.id);
  const base = {
    user,
    csrfToken: c.get('csrfToken'),
    businesses,
    business,
    shifterId: details.shifter_id,
    isAdmin: details.is_admin,
    counts,
  };
  if (opts.remember !== false) rememberSide(c, base);
  return base;
}

// ---- The business chosen last ----

/**
 * The business a person chose last in this browser (the switcher, or any address naming it), so an
 * address without `?business_id=` (typed, bookmarked, a link from an email) opens that business, not
 * the default one: `<business id>.<user id>`, with the side cookie's attributes. It only chooses
 * among the businesses the person stands for now (listActingBusinesses); it grants nothing.
 */
const BUSINESS_COOKIE = 'sm_business';

function readChosenBusiness(c: Context<AppEnv>, userId: string): string | null {
  const raw = isHttps(c) ? getCookie(c, BUSINESS_COOKIE, 'host') : getCookie(c, BUSINESS_COOKIE);
  const dot = raw?.lastIndexOf('.') ?? -1;
  if (!raw || dot < 0 || raw.slice(dot + 1) !== userId) return null;
  return raw.slice(0, dot) || null;
}

function rememberChosenBusiness(c: Context<AppEnv>, userId: string, businessId: string): void {
  if (readChosenBusiness(c, userId) === businessId) return;
  setCookie(c, BUSINESS_COOKIE, `${businessId}.${userId}`, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    maxAge: SIDE_MAX_AGE_SECONDS,
    ...(isHttps(c) ? { secure: true, prefix: 'host' as const } : {}),
  });
}

// ---- Where a person lands ----

/** The two sides of the dashboard: a business's (its Today and sections) and the shifter's. */
export type DashboardSide = 'business' | 'shifter';

export const SHIFTER_HOME = '/dashboard/shifter';

/**
 * The side a person with both used last, kept in this browser (docs/decisions/web-pages.md, "Where a
 * person lands"): `<side>.<user id>`, so a browser shared by two people keeps each one's side apart
 * from the other's. HttpOnly, SameSite=Lax, `__Host-` on HTTPS like the app's other cookies
 * (http/cookies.ts); it says nothing anyone may act on, only which side `/dashboard` opens.
 */
const SIDE_COOKIE = 'sm_side';
const SIDE_MAX_AGE_SECONDS = 400 * 86_400;

/** The side a dashboard address belongs to: the shifter side's pages, else the business's; none for the shared pages. */
function sideOfPath(path: string): DashboardSide | null {
  if (path === SHIFTER_HOME || path.startsWith(`${SHIFTER_HOME}/`)) return 'shifter';
  if (path === '/dashboard' || path.startsWith('/dashboard/')) return 'business';
  return null;
}

function readSide(c: Context<AppEnv>, userId: string): DashboardSide | null {
  const raw = isHttps(c) ? getCookie(c, SIDE_COOKIE, 'host') : getCookie(c, SIDE_COOKIE);
  const dot = raw?.indexOf('.') ?? -1;
  if (!raw || dot < 0 || raw.slice(dot + 1) !== userId) return null;
  const side = raw.slice(0, dot);
  return side === 'business' || side === 'shifter' ? side : null;
}

/** Keeps the side of this page for a person who has both sides (the only ones with a choice to remember). */
export function rememberSide(c: Context<AppEnv>, base: Pick<DashboardBase, 'user' | 'business' | 'businesses' | 'shifterId'>): void {
  if (!base.shifterId || !base.businesses.length) return;
  const side = sideOfPath(c.req.path);
  if (!side || (side === 'business' && !base.business)) return;
  if (readSide(c, base.user.userId) === side) return;
  setCookie(c, SIDE_COOKIE, `${side}.${base.user.userId}`, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    maxAge: SIDE_MAX_AGE_SECONDS,
    ...(isHttps(c) ? { secure: true, prefix: 'host' as const } : {}),
  });
}

/**
 * Where `/dashboard` sends this person, or null to show the business's Today (or the Welcome page).
 * An address that names its side (`?business_id=`, `?side=business`) is kept as typed; otherwise a
 * person who works shifts and acts for no business lands on the shifter side, and a person with both
 * sides on the one they used last (the business's when this browser has not seen them choose).
 */
export function landingOf(c: Context<AppEnv>, base: Pick<DashboardBase, 'user' | 'businesses' | 'shifterId'>): string | null {
  if (c.req.query('business_id') !== undefined || c.req.query('side') === 'business') return null;
  if (!base.shifterId) return null;
  if (!base.businesses.length) return SHIFTER_HOME;
  return readSide(c, base.user.userId) === 'shifter' ? SHIFTER_HOME : null;
}

/** A /dashboard address for the current business: `dashboardHref(base, '/dashboard/schedule', { date })`. */
export function dashboardHref(base: Pick<DashboardBase, 'business'>, path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  if (base.business) params.set('business_id', base.business.id);
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, v);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Forms: a business named by the form (`business_id` in its address or its fields) must be one the
 * person acts for. A page read falls back to their own business (dashboardBase); a form that names
 * another one is refused, with nothing changed, instead of acting on their own business. The answer is
 * the same for a business that does not exist (no probing).
 */
export const refuseOtherBusiness: MiddlewareHandler<AppEnv> = async (c, next) => {
  const fromBody = (await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)).business_id;
  const named = [c.req.query('business_id'), typeof fromBody === 'string' ? fromBody : undefined].filter(
    (id): id is string => id !== undefined && id !== '',
  );
  if (named.length) {
    const acting = new Set((await listActingBusinesses(serviceCtx(c))).map((b) => b.id));
    if (named.some((id) => !acting.has(id)) || new Set(named).size > 1)
      return renderError(c, 403, 'Not your business', 'This form names a business you do not act for: nothing was changed.');
  }
  await next();
};
