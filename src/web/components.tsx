import type { Child } from 'hono/jsx';

/**
 * The pages' building blocks. Hono JSX escapes every text child and attribute value, so
 * user-controlled text is passed as it is, never pre-built as HTML. Classes come from styles.ts.
 */

type Autocomplete = 'on' | 'off' | 'email' | 'username' | 'name' | 'current-password' | 'new-password' | 'one-time-code' | 'tel' | 'url';
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
