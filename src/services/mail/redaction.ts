import type { ServiceContext } from '../kernel';

/** What replaces a sensitive email's subject and text once it is sent or has failed for good. */
export const REDACTED_SENT = '[redacted after sending]';
export const REDACTED_FAILED = '[redacted: not delivered]';

/**
 * The columns that replace a sensitive email's content, or none when it stays readable: with
 * LOCAL_MAILBOX on, the row is the developer's mailbox.
 */
export function redaction(ctx: ServiceContext, sensitive: boolean, text: string) {
  return sensitive && !ctx.settings.LOCAL_MAILBOX ? { subject: text, text_body: text } : {};
}
