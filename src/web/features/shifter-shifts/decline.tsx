import { declineBody, type ShiftRequestView } from '@/services/shifts';
import { CsrfField, IdempotencyField, TextareaField } from '@/web/components';
import type { DashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { NEEDS_NETWORK_PROPS } from '../shifter/kept-page.model';
import { ShiftItem, shiftWhenText } from './parts';

/**
 * Decline asks once, with an optional reason (the decline service's `reason`, kept with the declined
 * request for the business). A Decline link opens the page's `<dialog>` where script runs (the
 * shifter-page island) and, without script, a confirmation page at the same address; both post the
 * same form there. Nothing else asks again.
 */

/** The reason's bound: the decline body's own (services/shifts declineBody). */
export const REASON_MAX = declineBody.shape.reason.unwrap().unwrap().maxLength ?? 500;

const REASON_HINT = `Optional, up to ${REASON_MAX} characters. The business reads it with your answer.`;

/** What the dialog and the page say of the request: "Barista at Corner Cup, Sat 14 Jun · 09:00–17:00". */
export const declineWhat = (s: ShiftRequestView) => `${s.role ?? 'Shift'} at ${s.business_name ?? 'a business'}, ${shiftWhenText(s)}`;

/** The Decline link: the confirmation page's address, which the dialog posts to as well. */
export function DeclineLink({ href, s }: { href: string; s: ShiftRequestView }) {
  return (
    <a
      class="button button-secondary"
      href={href}
      data-decline={declineWhat(s)}
      aria-label={`Decline: ${declineWhat(s)}`}
      {...NEEDS_NETWORK_PROPS}
    >
      Decline
    </a>
  );
}

function ReasonButtons({ back }: { back?: string }) {
  return (
    <div class="actions">
      <button type="submit" class="button button-primary">
        Decline the request
      </button>
      {back ? (
        <a class="button button-secondary" href={back}>
          Keep it
        </a>
      ) : (
        <button type="button" class="button button-secondary" data-decline-keep>
          Keep it
        </button>
      )}
    </div>
  );
}

/** The page's one dialog, filled by the island for the request whose Decline was tapped. */
export function DeclineDialog({ csrf }: { csrf: string }) {
  return (
    <dialog class="sf-dialog" data-decline-dialog aria-labelledby="decline-title">
      <form method="post" class="sf-dialog-form">
        <CsrfField token={csrf} />
        <IdempotencyField />
        <h2 id="decline-title">Decline this request?</h2>
        <p data-decline-what />
        <TextareaField label="Why (optional)" name="reason" maxLength={REASON_MAX} rows={3} hint={REASON_HINT} />
        <ReasonButtons />
      </form>
    </dialog>
  );
}

/** The confirmation page without script (GET of the Decline link), and the same form again after a refusal. */
export function DeclinePage(p: {
  base: DashboardBase;
  s: ShiftRequestView;
  current: string;
  action: string;
  back: string;
  reason?: string | undefined;
  error?: string | undefined;
  fieldError?: string | undefined;
}) {
  return (
    <AppShell base={p.base} side="shifter" current={p.current} title="Decline this request?" error={p.error}>
      <ul class="sf-list">
        <ShiftItem s={p.s} />
      </ul>
      <form method="post" action={p.action} class="sf-dialog-form">
        <CsrfField token={p.base.csrfToken} />
        <IdempotencyField />
        <TextareaField
          label="Why (optional)"
          name="reason"
          maxLength={REASON_MAX}
          rows={3}
          hint={REASON_HINT}
          value={p.reason}
          error={p.fieldError}
        />
        <ReasonButtons back={p.back} />
      </form>
    </AppShell>
  );
}

/** The reason as posted: null when empty; a refusal's words when the decline body refuses it (too long). */
export function readReason(raw: string): { reason: string | null; error?: string } {
  const parsed = declineBody.safeParse({ reason: raw });
  if (!parsed.success) return { reason: null, error: `Keep the reason to ${REASON_MAX} characters or fewer.` };
  return { reason: parsed.data.reason || null };
}
