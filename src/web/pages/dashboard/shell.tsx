import type { Child } from 'hono/jsx';
import { Notice } from '../../components';
import { Document, SignOutForm } from '../../layout';
import { type DashboardBase, dashboardHref } from './context';

/** The sections of a business's dashboard, in the navigation's order. */
export const BUSINESS_NAV = [
  { path: '/dashboard', label: 'Today' },
  { path: '/dashboard/schedule', label: 'Schedule' },
  { path: '/dashboard/shifts/new', label: 'Post a shift' },
  { path: '/dashboard/bulk', label: 'Bulk posting' },
  { path: '/dashboard/templates', label: 'Templates' },
  { path: '/dashboard/crew', label: 'Crew' },
  { path: '/dashboard/board', label: 'Clock board' },
  { path: '/dashboard/money', label: 'Money' },
  { path: '/dashboard/settings', label: 'Settings' },
  { path: '/dashboard/assistant', label: 'Assistant' },
] as const;

export interface AppShellProps {
  base: DashboardBase;
  title: string;
  /** The page's path among BUSINESS_NAV (marks it aria-current). */
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

/** The switcher: a plain GET form (works without script) listing the person's businesses. */
function Switcher({ base }: { base: DashboardBase }) {
  if (base.businesses.length < 2 && !base.shifterId) return null;
  return (
    <form method="get" action="/dashboard" class="switcher">
      <label for="switch-business">Business</label>
      <select id="switch-business" name="business_id">
        {base.businesses.map((b) => (
          <option value={b.id} selected={b.id === base.business?.id}>
            {b.role === 'teammate' ? `${b.name} (teammate)` : b.name}
          </option>
        ))}
      </select>
      <button type="submit" class="button button-secondary">
        Switch
      </button>
      {base.shifterId ? <a href="/dashboard/shifter">Shifter side</a> : null}
    </form>
  );
}

/**
 * The web application's shell: the header (product name, the business switcher, account and sign
 * out), the section navigation of the current business, then the page's heading, its notice or
 * error and the page. Every link keeps the business the page is about.
 */
export function AppShell({ base, title, current, notice, error, scripts, styles, action, children }: AppShellProps) {
  const pageTitle = base.business ? `${title} · ${base.business.name}` : title;
  return (
    <Document title={pageTitle} scripts={scripts} styles={styles} csrfToken={base.csrfToken} bodyClass="app">
      <header class="site-header">
        <div class="site-header-inner">
          <a class="brand" href={dashboardHref(base, '/dashboard')}>
            Shiftmarket
          </a>
          <Switcher base={base} />
          <div class="header-links">
            <a href="/account">{base.user.displayName || base.user.email}</a>
            <SignOutForm csrfToken={base.csrfToken} />
          </div>
        </div>
      </header>
      <div class="app-frame">
        {base.business ? (
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
        ) : null}
        <main id="main" class="app-main" tabindex={-1}>
          <div class="page-head">
            <h1>{title}</h1>
            {action}
          </div>
          {notice ? <Notice kind="success">{notice}</Notice> : null}
          {error ? <Notice kind="error">{error}</Notice> : null}
          {children}
        </main>
      </div>
    </Document>
  );
}
