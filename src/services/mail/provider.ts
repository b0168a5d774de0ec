import type { Logger } from '../../lib/log';

export interface OutgoingEmail {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  template: string;
  /** Carries a secret (a code, a reset or confirm link): its subject and text are never logged. */
  sensitive: boolean;
}

/** Where email goes. Without a provider credential the outbox stand-in takes it. */
export interface MailProvider {
  readonly name: string;
  send(mail: OutgoingEmail): Promise<void>;
}

/**
 * The stand-in when no provider is configured. With LOCAL_MAILBOX on (local development) the
 * email_outbox row is the developer's mailbox and the log prints the whole email, codes included.
 * Otherwise nothing is delivered and the log says so without any of the email's content.
 */
export class OutboxMailProvider implements MailProvider {
  readonly name = 'outbox';
  constructor(
    private readonly log: Logger,
    private readonly localMailbox: boolean,
  ) {}
  async send(mail: OutgoingEmail): Promise<void> {
    if (this.localMailbox) {
      this.log.info('email (local mailbox)', { to: mail.to, subject: mail.subject, text: mail.text, outbox_id: mail.id });
      return;
    }
    this.log.warn('email not delivered: no mail provider is configured', {
      outbox_id: mail.id,
      template: mail.template,
      sensitive: mail.sensitive,
    });
  }
}

/** Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email). */
export class ResendMailProvider implements MailProvider {
  readonly name = 'resend';
  constructor(
    private readonly apiKey: string,
    private readonly endpoint = 'https://api.resend.com/emails',
    private readonly timeoutMs = 15_000,
  ) {}
  async send(mail: OutgoingEmail): Promise<void> {
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${this.apiKey}`,
        'Content-Type': 'application/json',
        // Resend de-duplicates on this header, so a retried queue message cannot send twice.
        'Idempotency-Key': mail.id,
      },
      body: JSON.stringify({ from: mail.from, to: [mail.to], subject: mail.subject, text: mail.text }),
      // Shorter than the delivery lease, so a hung call cannot overlap the next attempt.
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // Only the status: the provider's answer may quote the message.
    if (!res.ok) throw new Error(`mail provider answered ${res.status}`);
  }
}

export function mailProviderFor(apiKey: string | undefined, log: Logger, localMailbox: boolean): MailProvider {
  return apiKey ? new ResendMailProvider(apiKey) : new OutboxMailProvider(log, localMailbox);
}
