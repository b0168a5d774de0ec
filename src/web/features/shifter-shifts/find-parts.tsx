import type { ShiftRequestView } from '@/services/shifts';
import { CsrfField, IdempotencyField, InputField, SelectField, SubmitButton } from '@/web/components';
import { formatMoney } from '@/web/format';
import type { DashboardBase } from '../dashboard/context';
import { NEEDS_NETWORK_PROPS } from '../shifter/kept-page.model';
import { DeclineLink } from './decline';
import { FIND, OverlapMark, rateText } from './parts';

/** Find shifts' parts (find.tsx): a request's answers, the filters. */

export interface CounterState {
  id: string;
  value: string;
  error: string;
}

export interface FindFilters {
  date?: string | undefined;
  role?: string | undefined;
  min_rate?: string | undefined;
  business?: string | undefined;
  cursor?: string | undefined;
}

export type FilterField = 'date' | 'role' | 'min_rate' | 'business';

/** A request's decline confirmation (GET: the page without script; POST: the decline, with its reason). */
export const declinePath = (id: string) => `${FIND}/requests/${encodeURIComponent(id)}/decline`;

/**
 * A request's answers: Accept (only when none of the worker's accepted shifts overlaps it, as the
 * accept service requires; else the overlap and what to do), Decline (asks once, with a reason), and a
 * counter-offer. All need the network: the saved copy offline leaves them out (kept-page.model.ts).
 */
export function RequestActions({
  base,
  s,
  counter,
  overlaps,
}: {
  base: DashboardBase;
  s: ShiftRequestView;
  counter?: CounterState | undefined;
  overlaps: readonly ShiftRequestView[];
}) {
  const suggested = s.suggested_counter_rate ?? null;
  const mine = counter?.id === s.id ? counter : undefined;
  const fieldId = `counter-${s.id}`;
  return (
    <>
      <OverlapMark s={s} others={overlaps} action="accept" />
      {suggested !== null ? (
        <p class="sf-suggest">
          Your counter rule asks at least <strong>{formatMoney(suggested, s.currency)}/h</strong> for a shift like this.
        </p>
      ) : null}
      <div class="sf-actions" {...NEEDS_NETWORK_PROPS}>
        {overlaps.length ? null : (
          <form method="post" action={`${FIND}/requests/${encodeURIComponent(s.id)}/accept`}>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <button type="submit" class="button button-primary" aria-label={`Accept: ${s.role ?? 'shift'} at ${s.business_name ?? ''}`}>
              Accept
            </button>
          </form>
        )}
        <DeclineLink href={declinePath(s.id)} s={s} />
      </div>
      <details class="sf-counter" open={mine !== undefined} {...NEEDS_NETWORK_PROPS}>
        <summary>Counter-offer</summary>
        <form method="post" action={`${FIND}/requests/${encodeURIComponent(s.id)}/counter`} class="sf-counter-form">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <InputField
            id={fieldId}
            label={`Your rate per hour (${s.currency})`}
            name="hourly_rate"
            type="number"
            step={0.01}
            min="0.01"
            inputMode="decimal"
            required
            value={mine?.value ?? (suggested !== null ? String(suggested) : '')}
            hint={`Offered: ${rateText(s)}.${suggested !== null ? ` Suggested by your counter rule: ${formatMoney(suggested, s.currency)}/h.` : ''}`}
            error={mine?.error}
          />
          <SubmitButton>Send counter-offer</SubmitButton>
        </form>
      </details>
    </>
  );
}

export function FilterForm({
  filters,
  errors,
  roles,
  crews,
}: {
  filters: FindFilters;
  errors: Partial<Record<FilterField, string>>;
  roles: { id: number; label: string }[];
  crews: { id: string; name: string }[];
}) {
  const any = Boolean(filters.date || filters.role || filters.min_rate || filters.business);
  return (
    <details class="sf-filters" open={any || Object.keys(errors).length > 0} {...NEEDS_NETWORK_PROPS}>
      <summary>Filters{any ? ' (on)' : ''}</summary>
      <form method="get" action={FIND} class="form-grid">
        <InputField label="Date" name="date" type="date" value={filters.date} error={errors.date} />
        <SelectField
          label="Role"
          name="role"
          value={filters.role ?? ''}
          options={[{ value: '', label: 'Any role' }, ...roles.map((r) => ({ value: String(r.id), label: r.label }))]}
          error={errors.role}
        />
        <InputField
          label="Minimum rate per hour"
          name="min_rate"
          type="number"
          step={0.01}
          min="0"
          inputMode="decimal"
          value={filters.min_rate}
          error={errors.min_rate}
        />
        <SelectField
          label="Business"
          name="business"
          value={filters.business ?? ''}
          options={[{ value: '', label: 'Any of your crews' }, ...crews.map((b) => ({ value: b.id, label: b.name }))]}
        />
        <div class="actions">
          <SubmitButton>Show shifts</SubmitButton>
          {any ? (
            <a class="button button-secondary" href={FIND}>
              Clear
            </a>
          ) : null}
        </div>
      </form>
    </details>
  );
}
