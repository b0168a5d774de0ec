import type { Child } from 'hono/jsx';
import { WEB_ENTRIES } from '@generated/web/assets';
import { Notice } from '@/web/components';
import { Document, SignOutForm } from '@/web/layout';
import { type DashboardBase, dashboardHref, type ShellCounts } from './context';
import { LIVE_COUNTS_PATH } from './live-region';

/** The sections of a business's dashboard, in the navigation's order. */
export const BUSINESS_NAV = [
  { path: '/dashboard', label: 'Today' },
  { path: '/dashboard/schedule', label: 'Schedule' },
  { path: '/dashboard/shifts/new', label: 'Post a shift' },
  { path: '/dashboard/bulk', label: 'Bulk posting' },
  { path: '/dashboard/templates', label: 'Templates' },
  { path: '/dashboard/crew', label: 'Crew' },
  { path: '/dashboard/board', label: 'Clock board' },
  { path: '/dashboard/timesheets', label: 'Timesheets' },
  { path: '/dashboard/money', label: 'Money' },
  { path: '/dashboard/settings', label: 'Settings' },
  { path: '/dashboard/assistant', label: 'Assistant' },
] as const;

/**
 * The sections of a person's shifter side, in the navigation's order. On a phone the first four are
 * the bottom bar's tabs (one thumb's reach) and the rest sit under its More; from 64rem every one is
 * listed in the side column.
 */
export const SHIFTER_NAV = [
  { path: '/dashboard/shifter', label: 'Home', tab: true },
  { path: '/dashboard/shifter/find', label: 'Find shifts', tab: true },
  { path: '/dashboard/shifter/schedule', label: 'My schedule', tab: true },
  { path: '/dashboard/shifter/clock', label: 'Clock', tab: true },
  { path: '/dashboard/shifter/connections', label: 'Businesses', tab: false },
  { path: '/dashboard/shifter/timesheets', label: 'Timesheets', tab: false },
  { path: '/dashboard/shifter/earnings', label: 'Earnings', tab: false },
  { path: '/dashboard/shifter/records', label: 'Records', tab: false },
  { path: '/dashboard/shifter/profile', label: 'Profile', tab: false },
] as const;

/**
 * Which side a page is on: the business's sections, the shifter's, or neither (the pages every
 * person shares: inbox, notifications, reviews, help, admin), where only the header leads on.
 */
export type ShellSide = 'business' | 'shifter' | 'shared';

export interface AppShellProps {
  base: DashboardBase;
  title: string;
  /** Defaults to the business side when the page has a business, else shared. */
  side?: ShellSide | undefined;
  /** The page's path among the side's sections or the header's links (marks it aria-current). */
  current?: string | undefined;
  notice?: string | undefined;
  error?: string | undefined;
  /** The page's islands: their scripts and stylesheets (generated/web/assets.ts addresses). */
  scripts?: readonly string[] | undefined;
  styles?: readonly string[] | undefined;
  /** Beside the heading: the page's main action. */
  action?: Child;
  children?: Child;
}

/**
 * The switcher: a plain GET form (works without script) listing the person's businesses, and the way
 * to their other side (the shifter side from a business, their business from the shifter side). A
 * shifter without a business finds the Welcome page there, where one is created.
 */
function Switcher({ base, side }: { base: DashboardBase; side: ShellSide }) {
  if (!base.businesses.length) {
    return side === 'shifter' ? (
      <a class="switcher-link" href="/dashboard?side=business">
        Business side
      </a>
    ) : null;
  }
  if (base.businesses.length < 2 && side === 'business') {
    return base.shifterId ? (
      <a class="switcher-link" href="/dashboard/shifter">
        Shifter side
      </a>
    ) : null;
  }
  return (
    <form method="get" action="/dashboard" class="switcher">
      <label for="switch-business">Business</label>
      <select id="switch-business" name="business_id">
        {base.businesses.map((b) => (
          <option value={b.id} selected={side === 'business' && b.id === base.business?.id}>
            {b.role === 'teammate' ? `${b.name} (teammate)` : b.name}
          </option>
        ))}
      </select>
      <button type="submit" class="button button-secondary">
        {side === 'business' ? 'Switch' : 'Open'}
      </button>
      {base.shifterId && side !== 'shifter' ? <a href="/dashboard/shifter">Shifter side</a> : null}
    </form>
  );
}

/**
 * A header link with its unread figure, read by a screen reader as part of the link's name. With
 * `live` (a business's pages), the `live` island brings the figure up to date from `live.src`.
 */
function CountLink({
  href,
  label,
  count,
  current,
  live,
}: {
  href: string;
  label: string;
  count: number | null;
  current?: string | undefined;
  live?: { region: string; src: string } | undefined;
}) {
  return (
    <a
      href={href}
      class="count-link"
      aria-current={href === current ? 'page' : undefined}
      data-live-region={live?.region}
      data-live-on={live ? 'counts' : undefined}
      data-live-src={live?.src}
      data-live-label={live ? label : undefined}
    >
      {label}
      {count ? (
        <span class="count-badge">
          {count > 99 ? '99+' : count}
          <span class="visually-hidden"> unread</span>
        </span>
      ) : null}
    </a>
  );
}

/**
 * The inbox and notifications links with their figures; `businessId` marks them for the live
 * updates of that business's pages (their fragment, GET /dashboard/live/counts, renders this too).
 */
export function HeaderCounts({
  counts,
  current,
  businessId,
}: {
  counts: ShellCounts;
  current?: string | undefined;
  businessId?: string | undefined;
}) {
  const src = businessId ? `${LIVE_COUNTS_PATH}?business_id=${encodeURIComponent(businessId)}` : undefined;
  return (
    <>
      <CountLink
        href="/inbox"
        label="Inbox"
        count={counts.messages}
        current={current}
        live={src ? { region: 'count-inbox', src } : undefined}
      />
      <CountLink
        href="/notifications"
        label="Notifications"
        count={counts.notifications}
        current={current}
        live={src ? { region: 'count-notifications', src } : undefined}
      />
    </>
  );
}

/** The header's links after the inbox and notifications: reviews, help, admin, the account, sign out. */
function MoreLinks({ base, current }: { base: DashboardBase; current?: string | undefined }) {
  return (
    <>
      {base.shifterId || base.businesses.length ? (
        <a href="/reviews" aria-current={current === '/reviews' ? 'page' : undefined}>
          Reviews
        </a>
      ) : null}
      <a href="/help" aria-current={current === '/help' ? 'page' : undefined}>
        Help
      </a>
      {base.isAdmin ? (
        <a href="/admin" aria-current={current === '/admin' ? 'page' : undefined}>
          Admin
        </a>
      ) : null}
      <a href="/account">{base.user.displayName || base.user.email}</a>
      <SignOutForm csrfToken={base.csrfToken} />
    </>
  );
}

/** The side's section navigation: the business's (every link keeps the business) or the shifter's. */
function SectionNav({ base, side, current }: { base: DashboardBase; side: ShellSide; current?: string | undefined }) {
  if (side === 'business' && base.business) {
    return (
      <nav class="app-nav" aria-label={`${base.business.name}: sections`}>
        <ul>
          {BUSINESS_NAV.map((item) => (
            <li>
              <a href={dashboardHref(base, item.path)} aria-current={item.path === current ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    );
  }
  if (side === 'shifter' && base.shifterId) {
    const more = SHIFTER_NAV.filter((item) => !item.tab);
    const inMore = more.some((item) => item.path === current);
    return (
      <nav class="app-nav app-nav-shifter" aria-label="Shifter: sections">
        <ul>
          {SHIFTER_NAV.map((item) => (
            <li class={item.tab ? undefined : 'nav-beyond-tabs'}>
              <a href={item.path} aria-current={item.path === current ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
          <li class="nav-more">
            {/* A disclosure that needs no script: the sections beyond the phone's tabs. */}
            <details>
              <summary class={inMore ? 'is-current' : undefined}>More</summary>
              <ul>
                {more.map((item) => (
                  <li>
                    <a href={item.path} aria-current={item.path === current ? 'page' : undefined}>
                      {item.label}
                    </a>
                  </li>
                ))}
              </ul>
            </details>
          </li>
        </ul>
      </nav>
    );
  }
  return null;
}

/**
 * The web application's one shell, for both sides of the dashboard and the shared pages: the header
 * (product name, the switcher, the inbox and the notifications with their unread figures, help,
 * admin for admins, the account and sign out), the side's section navigation, then the page's
 * heading, its notice or error and the page. Every business link keeps the business the page is about.
 */
export function AppShell({ base, title, side: asked, current, notice, error, scripts, styles, action, children }: AppShellProps) {
  const side: ShellSide = asked ?? (base.business ? 'business' : 'shared');
  const pageTitle = side === 'business' && base.business ? `${title} · ${base.business.name}` : title;
  const home = side === 'shifter' ? '/dashboard/shifter' : dashboardHref(side === 'business' ? base : { business: null }, '/dashboard');
  // A business's pages follow its changes (the `live` island: docs/decisions/live-updates.md).
  const live = side === 'business' && base.business ? base.business.id : undefined;
  return (
    <Document
      title={pageTitle}
      scripts={live ? [...(scripts ?? []), WEB_ENTRIES.islands.live.js] : scripts}
      styles={styles}
      csrfToken={base.csrfToken}
      bodyClass="app"
      manifest={side === 'shifter' ? '/app.webmanifest' : undefined}
    >
      <header class="site-header">
        <div class="site-header-inner">
          <a class="brand" href={home}>
            Shiftmarket
          </a>
          <Switcher base={base} side={side} />
          <nav class="header-links" aria-label="You">
            <HeaderCounts counts={base.counts} current={current} businessId={live} />
            {/* Inline from 48rem; on a phone the same links sit under Menu, so the header stays two rows. */}
            <div class="header-more">
              <MoreLinks base={base} current={current} />
            </div>
            <details class="header-menu">
              <summary>Menu</summary>
              <div class="header-menu-list">
                <MoreLinks base={base} current={current} />
              </div>
            </details>
          </nav>
        </div>
      </header>
      <div class={side === 'shared' ? 'app-frame app-frame-single' : 'app-frame'}>
        <SectionNav base={base} side={side} current={current} />
        <main id="main" class="app-main" tabindex={-1}>
          <div class="page-head">
            <h1>{title}</h1>
            {action}
          </div>
          {notice ? <Notice kind="success">{notice}</Notice> : null}
          {error ? <Notice kind="error">{error}</Notice> : null}
          {children}
          {live ? (
            <div data-island="live" data-props={JSON.stringify({ businessId: live })}>
              <p class="visually-hidden" role="status" data-live-announce />
            </div>
          ) : null}
        </main>
      </div>
    </Document>
  );
}
