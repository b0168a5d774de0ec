// What the records page's parts share: its address, a refused form (messages by field, what was
// typed), reading a form's values, and the folded edit form of a listed record.
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '@/http/app-types';
import { AppError } from '@/lib/errors';
import { CsrfField, IdempotencyField, SubmitButton } from '@/web/components';

export const PATH = '/dashboard/shifter/records';

export type Errors = Record<string, string>;
export type Typed = Record<string, string>;

/** A refused form: the messages by field, what was typed, and which form (an entry's id, or `new`). */
export interface Refused {
  errors: Errors;
  typed: Typed;
  target: string;
}

export const NONE: Refused = { errors: {}, typed: {}, target: '' };

/**
 * The page's words for a refused field of the three forms (a trip, a credential, a counter rule; only
 * `label` is in two, and means a name in both). The schemas' and the services' messages are written
 * for programs (field names, date formats, minor units) and stay as they are for the API; the page says
 * what to type instead, beside the field. `typed` tells the two refusals of a rule's start band apart.
 */
const FIELD_WORDS: Record<string, (typed: Typed) => string> = {
  log_date: () => 'Enter the day of the trip, between the years 2000 and 2100.',
  miles: () => 'Enter the miles driven, more than 0, like 12.4 (at most two decimals).',
  purpose: () => 'Keep the purpose to 500 characters.',
  label: () => 'Enter a name, up to 120 characters.',
  issuer: () => 'Keep the issuer to 200 characters.',
  expires_on: () => 'Enter the day it expires, between the years 2000 and 2100.',
  min_hourly_rate: () => 'Enter the least you take per hour, more than 0, like 18.50.',
  start_from: () => 'Fill in both times, “from” and “until”, or leave both empty for any time.',
  start_to: (t) =>
    t.start_from && t.start_from === t.start_to
      ? '“Until” must be another time than “from”; leave both empty for any time.'
      : 'Fill in both times, “from” and “until”, or leave both empty for any time.',
  weekdays: () => 'Tick the days again, or none for any day.',
};

/** The refused fields in the page's words; a field the forms do not show gets the form's own line. */
function inWords(fields: Iterable<string>, typed: Typed): Errors {
  const out: Errors = {};
  for (const field of fields) {
    const words = FIELD_WORDS[field];
    if (words) out[field] ??= words(typed);
    else out._ ??= 'Not saved: this form was refused as it is. Check it and try again.';
  }
  return out;
}

function fieldErrors(err: AppError, typed: Typed): Errors {
  const details = Array.isArray(err.details) ? (err.details as Array<{ field?: string; message?: string }>) : [];
  const fields = details.flatMap((d) => (d.field ? [d.field.replace(/^.*\./, '')] : []));
  // No field named: the service's message is for the whole form (a limit reached, a record gone).
  return fields.length ? inWords(fields, typed) : { _: err.message };
}

/** A schema's refusal of a form as the page's words by field (the first for each). */
export function schemaErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[], typed: Typed = {}): Errors {
  return inWords(
    issues.map((i) => String(i.path[0] ?? '_')),
    typed,
  );
}

/** "12 Mar 2027": a record's calendar date (YYYY-MM-DD) as people read it, the year included. */
export const dayMonthYear = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

export const yearOf = (c: Context<AppEnv>) => {
  const y = Number(c.req.query('year'));
  return Number.isInteger(y) && y >= 2000 && y <= 2100 ? y : undefined;
};

/** A number typed in a form: empty is absent (the schema then says it is required), anything else is read as typed. */
export const numberOf = (v: string) => (v === '' ? undefined : Number(v));

/** A listed record's own form, folded under its summary: its fields, then Save and Delete (the `action` the handler reads). */
export function EditForm(p: {
  summary: string;
  action: string;
  csrfToken: string;
  open: boolean;
  error: string | undefined;
  children: Child;
}) {
  return (
    <details class="record-edit" open={p.open}>
      <summary>{p.summary}</summary>
      <form method="post" action={p.action} class="form-grid">
        <CsrfField token={p.csrfToken} />
        <IdempotencyField />
        {p.error ? <p class="field-error">{p.error}</p> : null}
        {p.children}
        <div class="form-actions">
          <SubmitButton name="action" value="save">
            Save
          </SubmitButton>
          <SubmitButton name="action" value="delete" variant="danger">
            Delete
          </SubmitButton>
        </div>
      </form>
    </details>
  );
}

export const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
export type RefusalStatus = 400 | 403 | 404 | 409 | 422 | 429;

/** A service's refusal as the page's: its status (a client error only) and its messages by field. */
export function refusedBy(err: unknown, typed: Typed, target: string): { refused: Refused; status: RefusalStatus } {
  if (!(err instanceof AppError) || err.status >= 500) throw err;
  const status = ([400, 403, 404, 409, 429] as const).find((s) => s === err.status) ?? 422;
  return { refused: { errors: fieldErrors(err, typed), typed, target }, status };
}
