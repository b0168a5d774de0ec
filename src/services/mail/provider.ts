import type { Logger } from '../../lib/log';

export interface OutgoingEmail {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
}

/** Where email goes. Locally there is no credential, so the outbox stand-in only logs it. */
export interface MailProvider {
  readonly name: string;
  send(mail: OutgoingEmail): Promise<void>;
}

export class OutboxMailProvider implements MailProvider {
  readonly name = 'outbox';
  constructor(private readonly log: Logger) {}
  async send(mail: OutgoingEmail): Promise<void> {
    // The row in email_outbox is the local mailbox; the log line lets a developer read codes in `npm run dev`.
    this.log.info('email (local outbox)', { to: mail.to, subject: mail.subject, text: mail.text, outbox_id: mail.id });
  }
}

/** Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email). */
export class ResendMailProvider implements MailProvider {
  readonly name = 'resend';
  constructor(
    private readonly apiKey: string,
    private readonly endpoint = 'https://api.resend.com/emails',
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
    });
    if (!res.ok) throw new Error(`mail provider answered ${res.status}`);
  }
}

export function mailProviderFor(apiKey: string | undefined, log: Logger): MailProvider {
  return apiKey ? new ResendMailProvider(apiKey) : new OutboxMailProvider(log);
}
