import type { Child } from 'hono/jsx';
import { CsrfField, SubmitButton } from '@/web/components';
import type { DashboardBase } from './context';
import { AppShell } from './shell';

export interface ConfirmViewProps {
  base: DashboardBase;
  title: string;
  /** The page's section among BUSINESS_NAV. */
  current: string;
  /** Where the confirmed form posts: a full address (the business kept with dashboardHref). */
  action: string;
  /** The first form's fields, sent again with the confirmation (its idempotency key `_idem` among them). */
  fields: Record<string, string>;
  /** The button that does it, saying what it does. */
  confirmLabel: string;
  /** Where "Cancel" goes: back, changing nothing. */
  cancelHref: string;
  /** The button in the danger style (a deletion, a refund). */
  danger?: boolean;
  error?: string | undefined;
  /** What will happen, in words. */
  children?: Child;
}

/**
 * The confirmation a change that matters asks for, as a page of its own (it works without script):
 * what will happen, then a form posting the same fields again with `confirm=1` (the handler acts only
 * with it) and a way back that changes nothing.
 */
export function ConfirmView({ base, title, current, action, fields, confirmLabel, cancelHref, danger, error, children }: ConfirmViewProps) {
  return (
    <AppShell base={base} title={title} current={current} error={error}>
      {children}
      <form method="post" action={action} class="actions">
        <CsrfField token={base.csrfToken} />
        {Object.entries(fields).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="1" />
        <SubmitButton variant={danger ? 'danger' : 'primary'}>{confirmLabel}</SubmitButton>
        <a class="button button-secondary" href={cancelHref}>
          Cancel
        </a>
      </form>
    </AppShell>
  );
}
