import type { Child } from 'hono/jsx';
import { type ButtonVariant, CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { type DashboardBase, dashboardHref } from './context';
import { AppShell } from './shell';

export interface ConfirmPageProps {
  base: DashboardBase;
  title: string;
  /** The page's section among BUSINESS_NAV. */
  current: string;
  /** What will happen, in words: the question the button answers. */
  children: Child;
  /** Where the confirmed form posts (a /dashboard path; the business is kept). */
  action: string;
  button: string;
  variant?: ButtonVariant;
  /** Where "Cancel" goes back to, changing nothing. */
  back: string;
  hidden?: Record<string, string>;
  error?: string | undefined;
}

/**
 * The confirmation page a row's action opens (a GET: the row's link), for the templates, crew and
 * board pages: what will happen, the button that does it (a form that writes, with its own
 * idempotency key) and a way back that changes nothing. Works without script.
 */
export function ConfirmPage({
  base,
  title,
  current,
  children,
  action,
  button,
  variant = 'primary',
  back,
  hidden,
  error,
}: ConfirmPageProps) {
  return (
    <AppShell base={base} title={title} current={current} error={error}>
      <div class="confirm">{children}</div>
      <form method="post" action={dashboardHref(base, action)} class="actions">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        {Object.entries(hidden ?? {}).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <SubmitButton variant={variant}>{button}</SubmitButton>
        <a class="button button-secondary" href={dashboardHref(base, back)}>
          Cancel
        </a>
      </form>
    </AppShell>
  );
}
