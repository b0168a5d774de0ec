import type { Child } from 'hono/jsx';
import type { AppError } from '@/lib/errors';

/**
 * What the reviews, help and admin pages share: star ratings said in words, dates of instants, a
 * textarea whose id is the form's own (several forms of one kind sit on one page), and a form's
 * refusal state (which form, the messages beside its fields, what was typed, its idempotency key).
 */

/** "★★★★☆" for the eye and "4 of 5 stars" for a screen reader. */
export function Stars({ rating }: { rating: number }) {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span class="stars">
      <span aria-hidden="true">{'★'.repeat(n) + '☆'.repeat(5 - n)}</span>
      <span class="visually-hidden">{`${n} of 5 stars`}</span>
    </span>
  );
}

/** An instant (ISO 8601) as a calendar date in words, "12 Mar 2026" (UTC: a review's day is the same for both parties). */
export function dayOf(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));
}

/** A form that was refused: which one (`key`), the messages beside its fields or above it, what was typed. */
export interface FormState {
  key: string;
  errors: Record<string, string>;
  message?: string | null | undefined;
  values: Record<string, string>;
  idem?: string | undefined;
}

/** The state for the form `key`, when it is the refused one. */
export const stateFor = (state: FormState | null | undefined, key: string): FormState | null => (state?.key === key ? state : null);

/** A labelled textarea with its own id, its hint and error tied to it. */
export function Textarea(p: {
  id: string;
  label: string;
  name: string;
  value?: string | undefined;
  maxLength?: number | undefined;
  required?: boolean | undefined;
  hint?: Child;
  error?: string | undefined;
  rows?: number | undefined;
  autofocus?: boolean | undefined;
}) {
  const hintId = p.hint ? `${p.id}-hint` : undefined;
  const errorId = p.error ? `${p.id}-error` : undefined;
  const described = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field field-wide">
      <label for={p.id}>{p.label}</label>
      <textarea
        id={p.id}
        name={p.name}
        rows={p.rows ?? 3}
        maxlength={p.maxLength}
        required={p.required}
        autofocus={p.autofocus}
        aria-describedby={described}
        aria-invalid={p.error ? 'true' : undefined}
      >
        {p.value ?? ''}
      </textarea>
      {p.hint ? (
        <p class="hint" id={hintId}>
          {p.hint}
        </p>
      ) : null}
      {p.error ? (
        <p class="field-error" id={errorId}>
          {p.error}
        </p>
      ) : null}
    </div>
  );
}

/** The form's message that concerns no one field, announced. */
export function FormMessage({ state }: { state: FormState | null }) {
  if (!state?.message) return null;
  return (
    <p class="field-error" role="alert">
      {state.message}
    </p>
  );
}

/**
 * A service's refusal as messages beside the fields it concerns: the fields its details name, else the
 * field its code concerns (`codeFields`); anything else is the form's message (`rest`).
 */
export function fieldErrorsOf(
  err: AppError,
  fields: readonly string[],
  codeFields: Partial<Record<string, string>> = {},
): { errors: Record<string, string>; rest: string | null } {
  const errors: Record<string, string> = {};
  const details = Array.isArray(err.details) ? (err.details as { field?: unknown; message?: unknown }[]) : [];
  for (const d of details) {
    if (typeof d.field === 'string' && fields.includes(d.field) && typeof d.message === 'string') errors[d.field] ??= d.message;
  }
  const byCode = codeFields[err.code];
  if (byCode && !errors[byCode]) errors[byCode] = err.message;
  return { errors, rest: Object.keys(errors).length ? null : err.message };
}
