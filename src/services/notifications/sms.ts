import type { Logger } from '../../lib/log';

/** One text message. `sensitive` ones (sign-in codes) never have their text logged outside local development. */
export interface OutgoingSms {
  to: string;
  text: string;
  sensitive: boolean;
}

/** Where text messages go: the SMS channel of the notifications system. */
export interface SmsProvider {
  readonly name: string;
  send(sms: OutgoingSms): Promise<void>;
}

const lastDigits = (phone: string) => `…${phone.replace(/\D/g, '').slice(-2)}`;

/**
 * The stand-in without a provider credential. With LOCAL_MAILBOX on (local development) the log
 * prints the whole message, codes included, so a developer can read it; otherwise nothing is
 * delivered and the log says so without the text or the number.
 */
export class LocalSmsProvider implements SmsProvider {
  readonly name = 'local';
  constructor(
    private readonly log: Logger,
    private readonly localMailbox: boolean,
  ) {}
  async send(sms: OutgoingSms): Promise<void> {
    if (this.localMailbox) {
      this.log.info('sms (local stand-in)', { to: sms.to, text: sms.text });
      return;
    }
    this.log.warn('sms not delivered: no SMS provider is configured', { to: lastDigits(sms.to), sensitive: sms.sensitive });
  }
}

/** Twilio's Messages API (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource). */
export class TwilioSmsProvider implements SmsProvider {
  readonly name = 'twilio';
  constructor(
    private readonly accountSid: string,
    private readonly authToken: string,
    private readonly from: string,
    private readonly timeoutMs = 10_000,
  ) {}
  async send(sms: OutgoingSms): Promise<void> {
    const url = `https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(this.accountSid)}/Messages.json`;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${btoa(`${this.accountSid}:${this.authToken}`)}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: sms.to, From: this.from, Body: sms.text }).toString(),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // Only the status: the provider's answer may quote the message.
    if (!res.ok) throw new Error(`sms provider answered ${res.status}`);
  }
}

export interface SmsSettings {
  TWILIO_ACCOUNT_SID?: string | undefined;
  TWILIO_AUTH_TOKEN?: string | undefined;
  SMS_FROM?: string | undefined;
  LOCAL_MAILBOX: boolean;
}

export function smsProviderFor(settings: SmsSettings, log: Logger): SmsProvider {
  const { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token, SMS_FROM: from } = settings;
  return sid && token && from ? new TwilioSmsProvider(sid, token, from) : new LocalSmsProvider(log, settings.LOCAL_MAILBOX);
}
