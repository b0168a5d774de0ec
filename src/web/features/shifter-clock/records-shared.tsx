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

function fieldErrors(err: AppError): Errors {
  const out: Errors = {};
  const details = Array.isArray(err.details) ? (err.details as Array<{ field?: string; message?: string }>) : [];
  for (const d of details) if (d.field) out[d.field.replace(/^.*\./, '')] = d.message ?? err.message;
  if (!Object.keys(out).length) out._ = err.message;
  return out;
}

/** A schema's refusal of a form as messages by field (the first for each). */
export function schemaErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const out: Errors = {};
  for (const i of issues) {
    const field = String(i.path[0] ?? '_');
    out[field] ??= i.message;
  }
  return out;
}

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
  return { refused: { errors: fieldErrors(err), typed, target }, status };
}
