import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/app-types';
import { AppError, type ErrorCode } from '../lib/errors';

/** A string field of a posted form, trimmed to `max` characters (a form is never trusted to be short). */
export async function formFields(c: Context<AppEnv>): Promise<(name: string, max?: number) => string> {
  const body = await c.req.parseBody();
  return (name, max = 256) => {
    const v = body[name];
    return typeof v === 'string' ? v.slice(0, max) : '';
  };
}

/** What a page says when a service refuses a form: the message and the status to answer with. */
export interface FormProblem {
  status: ContentfulStatusCode;
  message: string;
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  'LOGIN-FAILED-ERR': 'The email or password is not right.',
  'EMAIL-UNVERIFIED-ERR': 'This email address is not verified yet. Use the code we emailed you, then sign in.',
  'TWO-FACTOR-CODE-ERR': 'That code is not right, or it was used already. Wait for the next code and try again.',
  'PASSWORD-WRONG-ERR': 'The current password is not right.',
};

/**
 * Turns a service's AppError into words for the form: the codes a page expects beyond the common
 * ones (`extra`), else the table above; validation and conflict messages are ours (written for
 * people), so they are shown. A rate limit's Retry-After is set on the answer. Anything else is not
 * a form problem and is thrown on to the error handler.
 */
export function formProblem(c: Context<AppEnv>, err: unknown, extra: Partial<Record<ErrorCode, string>> = {}): FormProblem {
  if (!(err instanceof AppError)) throw err;
  if (err.code === 'RATE-LIMIT-ERR') {
    const retryAfter = err.headers?.['Retry-After'];
    if (retryAfter) c.header('Retry-After', retryAfter);
    const wait = retryAfter ? ` Try again in ${Math.ceil(Number(retryAfter) / 60)} minute(s).` : '';
    return { status: 429, message: `Too many attempts.${wait}` };
  }
  const mapped = extra[err.code] ?? MESSAGES[err.code];
  if (mapped) return { status: err.status, message: mapped };
  if (err.code === 'VALIDATION-ERR' || err.code === 'CONFLICT-ERR') return { status: err.status, message: err.message };
  throw err;
}
