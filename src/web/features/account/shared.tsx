import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv, WebUser } from '@/http/app-types';
import { CsrfField, SubmitButton } from '@/web/components';
import { AccountNavItems } from '@/web/layout';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';

/**
 * What every account page needs from the request: the signed-in person (requireWebUser has set it)
 * and the CSRF token its forms carry.
 */
export interface PageBase {
  user: WebUser;
  csrfToken: string;
  /** What the app shell draws (the person's sides, the header's figures), read when the page renders. */
  shell: () => Promise<DashboardBase>;
}

export function pageBase(c: Context<AppEnv>): PageBase {
  const user = c.get('webUser');
  // requireWebUser runs before every account page; reaching here without a user is a wiring bug.
  if (!user) throw new Error('account page reached without a signed-in user');
  let shell: Promise<DashboardBase> | undefined;
  // Read once, and only by a page that renders (a POST that redirects never pays for it).
  return { user, csrfToken: c.get('csrfToken'), shell: () => (shell ??= dashboardBase(c)) };
}

export interface AccountShellProps {
  base: PageBase;
  title: string;
  /** The page's entry in ACCOUNT_NAV. */
  current: string;
  notice?: string | undefined;
  error?: string | undefined;
  children?: Child;
}

/** The account's sections, a navigation of the page under its heading (the app shell leads elsewhere). */
function AccountNav({ current }: { current: string }) {
  return (
    <nav class="account-nav" aria-label="Account">
      <ul>
        <AccountNavItems current={current} />
      </ul>
    </nav>
  );
}

/**
 * An account page inside the app's one shell (the shared side: the header leads on to the inbox, the
 * notifications, help and the dashboard), the account's sections as the page's own navigation, then
 * the heading's notice or error and the page.
 */
export async function AccountShell({ base, title, current, notice, error, children }: AccountShellProps) {
  return (
    <AppShell base={await base.shell()} title={title} side="shared" current={current} notice={notice} error={error}>
      <AccountNav current={current} />
      {children}
    </AppShell>
  );
}

/**
 * The success notice a redirect asked for by name (`?notice=…`), from the page's fixed table: never
 * text taken from the URL.
 */
export function noticeFrom<T extends Record<string, string>>(c: Context<AppEnv>, table: T): string | undefined {
  const key = c.req.query('notice');
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

const formats = new Map<string, { dateTime: Intl.DateTimeFormat; zone: Intl.DateTimeFormat }>();
function formatsFor(timeZone: string) {
  let f = formats.get(timeZone);
  if (!f) {
    f = {
      dateTime: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }),
      // en-US names the zone as people say it ("EST"), or by its offset ("GMT+1") where it has no common abbreviation.
      zone: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }),
    };
    formats.set(timeZone, f);
  }
  return f;
}

/**
 * An instant from a service view (ISO 8601) in words, in `timeZone` (UTC unless given), always with
 * the zone named: "20 Nov 2026, 14:03 UTC", "20 Nov 2026, 09:03 EST".
 */
export function formatInstant(iso: string, timeZone = 'UTC'): string {
  const f = formatsFor(timeZone);
  const d = new Date(iso);
  const zone = timeZone === 'UTC' ? 'UTC' : (f.zone.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? timeZone);
  return `${f.dateTime.format(d)} ${zone}`;
}

/** A row's first cell followed by "(This browser)" when the row is the one this browser uses. */
export function ThisBrowser({ here, children }: { here: boolean; children: Child }) {
  return (
    <>
      {children}
      {here ? (
        <>
          {' '}
          <strong>(This browser)</strong>
        </>
      ) : null}
    </>
  );
}

/** An instant shown with formatInstant (in `timeZone`, UTC unless given) and a machine-readable `datetime`. */
export function When({ iso, never = 'Never', timeZone }: { iso: string | null; never?: string; timeZone?: string | undefined }) {
  if (!iso) return <>{never}</>;
  return <time datetime={iso}>{formatInstant(iso, timeZone)}</time>;
}

/**
 * A submit button whose consequences are spelled out in a paragraph nearby (`describedBy` names it),
 * read out by screen readers when the button takes focus.
 */
export function DescribedSubmit({
  describedBy,
  variant = 'primary',
  children,
}: {
  describedBy: string;
  variant?: 'primary' | 'secondary' | 'danger';
  children: Child;
}) {
  return (
    <button type="submit" class={`button button-${variant}`} aria-describedby={describedBy}>
      {children}
    </button>
  );
}

export interface RowActionProps {
  action: string;
  csrfToken: string;
  /** The hidden field naming the row (e.g. `session_id`) and its value. */
  field: string;
  value: string;
  /** The visible button text ("Revoke"). */
  label: string;
  /** Said to screen readers after the label, so each row's button has its own name. */
  context: string;
  variant?: 'primary' | 'secondary' | 'danger';
}

/** A one-button form acting on one row of a list (revoke this session, this device). */
export function RowAction({ action, csrfToken, field, value, label, context, variant = 'secondary' }: RowActionProps) {
  return (
    <form method="post" action={action} class="inline-form">
      <CsrfField token={csrfToken} />
      <input type="hidden" name={field} value={value} />
      <SubmitButton variant={variant}>
        {label}
        <span class="visually-hidden">{` ${context}`}</span>
      </SubmitButton>
    </form>
  );
}
