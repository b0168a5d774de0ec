import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, WebUser } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { getUserDetails } from '@/services/accounts';
import { type ActingBusiness, listActingBusinesses } from '@/services/businesses';
import { countUnreadThreads } from '@/services/messaging';
import { countUnreadNotifications } from '@/services/notifications';
import { renderError } from '@/web/render';

/**
 * Who is looking and for which business: what every signed-in page of the web application starts
 * from (the dashboard's two sides and the shared pages: inbox, notifications, reviews, help, admin). The business is
 * the one named by `?business_id=` when the person acts for it, else their default business, else the
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
async function shellCounts(c: Context<AppEnv>): Promise<ShellCounts> {
  const ctx = serviceCtx(c);
  const [notifications, messages] = await Promise.all([countUnreadNotifications(ctx), countUnreadThreads(ctx)]);
  return { notifications, messages: messages.total };
}

export async function dashboardBase(c: Context<AppEnv>): Promise<DashboardBase> {
  const user = c.get('webUser');
  if (!user) throw new Error('dashboard page reached without a signed-in user');
  const ctx = serviceCtx(c);
  const [businesses, details, counts] = await Promise.all([listActingBusinesses(ctx), getUserDetails(ctx), shellCounts(c)]);
  const asked = c.req.query('business_id');
  const business =
    businesses.find((b) => b.id === asked) ?? businesses.find((b) => b.id === details.default_business_id) ?? businesses[0] ?? null;
  return { user, csrfToken: c.get('csrfToken'), businesses, business, shifterId: details.shifter_id, isAdmin: details.is_admin, counts };
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
