import type { Child } from 'hono/jsx';

/**
 * The pages' building blocks. Hono JSX escapes every text child and attribute value, so
 * user-controlled text is passed as it is, never pre-built as HTML. Classes come from styles.ts.
 */

type Autocomplete =
  | 'on'
  | 'off'
  | 'email'
  | 'username'
  | 'name'
  | 'current-password'
  | 'new-password'
  | 'one-time-code'
  | 'tel'
  | 'url'
  | 'cc-number';
type InputMode = 'none' | 'text' | 'tel' | 'url' | 'email' | 'numeric' | 'decimal' | 'search';
export type ButtonVariant = 'primary' | 'secondary' | 'danger';

/** The form field that carries the CSRF token (also exported by csrf.ts, which checks it). */
export const CSRF_FIELD = '_csrf';

/** The hidden CSRF field every form posted to a page route carries (csrf.ts checks it). */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

export interface TextFieldProps {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password' | 'tel' | 'url' | 'number' | 'search' | undefined;
  value?: string | undefined;
  autocomplete?: Autocomplete | undefined;
  required?: boolean | undefined;
  inputMode?: InputMode | undefined;
  pattern?: string | undefined;
  maxLength?: number | undefined;
  /** Shown under the field, tied to it with aria-describedby, and marks it aria-invalid. */
  error?: string | undefined;
  hint?: string | undefined;
  autofocus?: boolean | undefined;
  /** Defaults to `field-<name>`; set it when one page has two fields of the same name. */
  id?: string | undefined;
}

/** A labelled input with its hint and error announced by screen readers (aria-describedby). */
export function TextField(props: TextFieldProps) {
  const id = props.id ?? `field-${props.name}`;
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        inputmode={props.inputMode}
        pattern={props.pattern}
        maxlength={props.maxLength}
        autofocus={props.autofocus}
        aria-describedby={describedBy}
        aria-invalid={props.error ? 'true' : undefined}
      />
      {props.hint ? (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A new password and its repeat (a password change, a reset): the first field with an error takes
 * the focus (`first`, the form's first such field).
 */
export function NewPasswordFields({
  errors,
  first,
  hint,
}: {
  errors: { new_password?: string | undefined; new_password_again?: string | undefined };
  first: string | undefined;
  hint: string;
}) {
  return (
    <>
      <TextField
        label="New password"
        name="new_password"
        type="password"
        autocomplete="new-password"
        required
        maxLength={200}
        hint={hint}
        error={errors.new_password}
        autofocus={first === 'new_password'}
      />
      <TextField
        label="New password again"
        name="new_password_again"
        type="password"
        autocomplete="new-password"
        required
        maxLength={200}
        error={errors.new_password_again}
        autofocus={first === 'new_password_again'}
      />
    </>
  );
}

export interface SubmitButtonProps {
  children: Child;
  variant?: ButtonVariant | undefined;
  /** A name/value pair sent with the form when this button submits it (forms with two actions). */
  name?: string | undefined;
  value?: string | undefined;
}

/** A form's submit button; `primary` unless told otherwise. */
export function SubmitButton({ children, variant = 'primary', name, value }: SubmitButtonProps) {
  return (
    <button type="submit" class={`button button-${variant}`} name={name} value={value}>
      {children}
    </button>
  );
}

/** A message box: errors interrupt screen readers (role="alert"), the others are polite (role="status"). */
export function Notice({ kind, children }: { kind: 'info' | 'success' | 'error'; children: Child }) {
  return (
    <div class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/**
 * A table that may scroll sideways on a narrow screen: the scrolling region is focusable and named,
 * so a keyboard can scroll it (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function TableWrap({ label, class: extra, children }: { label: string; class?: string; children: Child }) {
  return (
    <section class={extra ? `table-wrap ${extra}` : 'table-wrap'} tabindex={0} aria-label={label}>
      {children}
    </section>
  );
}

/** A titled section of a page. */
export function Card({ title, children }: { title: string; children: Child }) {
  return (
    <section class="card">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A read-only value with a Copy button (a new API key, backup codes). The button starts `hidden`
 * and the page script shows and wires it (`data-copy-target` names the input, `data-copy-status`
 * the aria-live line that says "Copied"); without script the text is still there to select.
 */
export function CopyField({ label, value, id }: { label: string; value: string; id: string }) {
  const statusId = `${id}-status`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} type="text" value={value} readonly spellcheck={false} autocomplete="off" />
        <button type="button" class="button button-secondary" data-copy-target={id} data-copy-status={statusId} hidden>
          Copy
        </button>
      </div>
      <span class="copy-status" id={statusId} aria-live="polite" />
    </div>
  );
}

export interface PostButtonFormProps {
  action: string;
  csrfToken: string;
  label: string;
  variant?: ButtonVariant | undefined;
  /** Extra hidden fields (e.g. the id of the session to revoke). */
  hidden?: Record<string, string> | undefined;
}

/** A form that is a single button posting to `action` (Revoke, Sign out elsewhere, …). */
export function PostButtonForm({ action, csrfToken, label, variant = 'secondary', hidden }: PostButtonFormProps) {
  return (
    <form method="post" action={action} class="inline-form">
      <CsrfField token={csrfToken} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <SubmitButton variant={variant}>{label}</SubmitButton>
    </form>
  );
}

/** The ids a field's hint and error get, and its aria-describedby (so both are read with it). */
function describedBy(id: string, hint: string | undefined, error: string | undefined) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return { hintId, errorId, describedBy: [hintId, errorId].filter(Boolean).join(' ') || undefined };
}

function FieldNotes({
  hint,
  error,
  hintId,
  errorId,
}: {
  hint?: Child;
  error?: string | undefined;
  hintId?: string | undefined;
  errorId?: string | undefined;
}) {
  return (
    <>
      {hint ? (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </>
  );
}

export interface InputFieldProps {
  label: string;
  name: string;
  type: 'date' | 'time' | 'datetime-local' | 'number' | 'text' | 'email' | 'search';
  value?: string | undefined;
  required?: boolean | undefined;
  /** For time and number inputs: e.g. 900 (seconds) for a 15-minute step. */
  step?: number | undefined;
  min?: string | undefined;
  max?: string | undefined;
  inputMode?: InputMode | undefined;
  maxLength?: number | undefined;
  hint?: Child;
  error?: string | undefined;
  autofocus?: boolean | undefined;
  id?: string | undefined;
  wide?: boolean | undefined;
}

/** A labelled input of any type, with its hint and error tied to it like TextField's. */
export function InputField(p: InputFieldProps) {
  const id = p.id ?? `field-${p.name}`;
  const d = describedBy(id, p.hint ? 'y' : undefined, p.error);
  return (
    <div class={p.wide ? 'field field-wide' : 'field'}>
      <label for={id}>{p.label}</label>
      <input
        id={id}
        name={p.name}
        type={p.type}
        value={p.value}
        required={p.required}
        step={p.step}
        min={p.min}
        max={p.max}
        inputmode={p.inputMode}
        maxlength={p.maxLength}
        autofocus={p.autofocus}
        aria-describedby={d.describedBy}
        aria-invalid={p.error ? 'true' : undefined}
      />
      <FieldNotes hint={p.hint} error={p.error} hintId={d.hintId} errorId={d.errorId} />
    </div>
  );
}

export interface SelectFieldProps {
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  value?: string | undefined;
  required?: boolean | undefined;
  hint?: Child;
  error?: string | undefined;
  autofocus?: boolean | undefined;
  id?: string | undefined;
  wide?: boolean | undefined;
}

export function SelectField(p: SelectFieldProps) {
  const id = p.id ?? `field-${p.name}`;
  const d = describedBy(id, p.hint ? 'y' : undefined, p.error);
  return (
    <div class={p.wide ? 'field field-wide' : 'field'}>
      <label for={id}>{p.label}</label>
      <select
        id={id}
        name={p.name}
        required={p.required}
        autofocus={p.autofocus}
        aria-describedby={d.describedBy}
        aria-invalid={p.error ? 'true' : undefined}
      >
        {p.options.map((o) => (
          <option value={o.value} selected={o.value === p.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes hint={p.hint} error={p.error} hintId={d.hintId} errorId={d.errorId} />
    </div>
  );
}

export function TextareaField(p: {
  label: string;
  name: string;
  value?: string | undefined;
  maxLength?: number;
  hint?: Child;
  error?: string | undefined;
  rows?: number;
  /** When a page has more than one such field (one form per row). */
  id?: string | undefined;
}) {
  const id = p.id ?? `field-${p.name}`;
  const d = describedBy(id, p.hint ? 'y' : undefined, p.error);
  return (
    <div class="field field-wide">
      <label for={id}>{p.label}</label>
      <textarea
        id={id}
        name={p.name}
        rows={p.rows ?? 3}
        maxlength={p.maxLength}
        aria-describedby={d.describedBy}
        aria-invalid={p.error ? 'true' : undefined}
      >
        {p.value ?? ''}
      </textarea>
      <FieldNotes hint={p.hint} error={p.error} hintId={d.hintId} errorId={d.errorId} />
    </div>
  );
}

/** The hidden idempotency key of a form that writes (http/middleware/idempotency.ts `formIdempotency`). */
export function IdempotencyField({ value }: { value?: string | undefined }) {
  return <input type="hidden" name="_idem" value={value ?? crypto.randomUUID()} />;
}
