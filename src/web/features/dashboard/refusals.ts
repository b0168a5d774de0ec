import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { AppEnv } from '@/http/app-types';
import { AppError } from '@/lib/errors';

/**
 * How the dashboard's pages turn a refusal into words beside the fields it concerns:
 * the service's `details[].field` first, then the codes that concern one field though the service
 * names none (`byCode`), else a message for the whole form. Anything but an AppError is not a
 * refusal and goes on to the error handler.
 */
export interface Refusal<F extends string> {
  status: ContentfulStatusCode;
  errors: Partial<Record<F, string>>;
  /** The message for the form as a whole: the service's own when no field took it. */
  message: string;
}

export function refusalOf<F extends string>(err: unknown, fields: readonly F[], byCode: Partial<Record<string, F>> = {}): Refusal<F> {
  if (!(err instanceof AppError)) throw err;
  const errors: Partial<Record<F, string>> = {};
  const details = Array.isArray(err.details) ? (err.details as { field?: unknown; message?: unknown }[]) : [];
  for (const d of details) {
    if (typeof d.field === 'string' && (fields as readonly string[]).includes(d.field) && typeof d.message === 'string') {
      errors[d.field as F] ??= d.message;
    }
  }
  // Only a field the form has: a message set on a field it does not show would be lost.
  const field = byCode[err.code];
  if (field && (fields as readonly string[]).includes(field) && !errors[field]) errors[field] = err.message;
  const onFields = Object.keys(errors).length > 0;
  return { status: err.status as ContentfulStatusCode, errors, message: onFields ? 'Check the fields marked below.' : err.message };
}

/**
 * refusalOf for a page that words the whole form's message itself: the messages beside the fields,
 * and the service's own message (`rest`) only when no field took it.
 */
export function fieldErrorsOf(
  err: unknown,
  fields: readonly string[],
  byCode: Partial<Record<string, string>> = {},
): { errors: Record<string, string>; rest: string | null } {
  const r = refusalOf(err, fields, byCode);
  // Every key refusalOf sets holds a message.
  return { errors: r.errors as Record<string, string>, rest: Object.keys(r.errors).length ? null : r.message };
}

/** A schema's refusal of a form, as messages beside the fields (`labels` rewords a field's message for people). */
export function schemaRefusal<F extends string>(
  error: ZodError,
  fields: readonly F[],
  labels: Partial<Record<F, string>> = {},
): Refusal<F> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of error.issues) {
    const name = String(issue.path[0] ?? '');
    if ((fields as readonly string[]).includes(name)) errors[name as F] ??= labels[name as F] ?? issue.message;
  }
  return { status: 400, errors, message: 'Check the fields marked below.' };
}

/** The page's own sentence for `?notice=<name>`: never text from the address itself. */
export function noticeOf<T extends Record<string, string>>(c: Context<AppEnv>, sentences: T): string | undefined {
  const key = c.req.query('notice');
  return key && Object.hasOwn(sentences, key) ? sentences[key as keyof T] : undefined;
}
