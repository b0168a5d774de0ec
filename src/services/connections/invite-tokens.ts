import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { randomBase62 } from '../../lib/ids';
import { appLinkOrigin, type ServiceContext } from '../kernel';
import { type CrewInviteChannel, INVITE_TOKEN_PATTERN } from './invite-schemas';

/*
 * The small rules crew invitations share: their tokens (22 random base62 characters, about 131 bits:
 * long enough that guessing one is hopeless, short enough for a text message and a QR code a phone
 * reads from across a counter), the link they make, and an address as typed becoming one address
 * (normalized, so a re-send finds the last one) and its mask (all anyone is ever shown of it).
 */

export const newInviteToken = () => randomBase62(22);
export const tokenHash = (token: string) => sha256Hex(`crew-invite:${token}`);
export const looksLikeToken = (token: string) => INVITE_TOKEN_PATTERN.test(token);

/** The page a token opens: /join/{token} on {app_url} (`origin`: the page's own, when the caller is one). */
export const joinUrl = (ctx: ServiceContext, token: string, origin?: string) => `${appLinkOrigin(ctx, origin)}/join/${token}`;

const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

/** The address to send to, from the email or the phone as typed; VALIDATION-ERR naming the field. */
export function addressOf(input: { email: string | null; phone: string | null }): { channel: CrewInviteChannel; address: string } {
  const email = input.email?.trim() ?? '';
  const phone = input.phone?.trim() ?? '';
  if (email && phone) {
    throw new AppError('VALIDATION-ERR', 'Give an email address or a phone number, not both.', [
      { field: 'email', message: 'Give an email address or a phone number, not both.' },
    ]);
  }
  if (email) {
    const address = email.toLowerCase();
    if (address.length > 254 || !EMAIL.test(address)) {
      throw new AppError('VALIDATION-ERR', 'Enter an email address, like sam@example.com.', [
        { field: 'email', message: 'Enter an email address, like sam@example.com.' },
      ]);
    }
    return { channel: 'email', address };
  }
  if (phone) {
    const digits = phone.replace(/[\s().-]/g, '');
    if (!/^\+[1-9]\d{6,14}$/.test(digits)) {
      throw new AppError('VALIDATION-ERR', 'Enter a mobile number with its country code, like +1 212 555 0100.', [
        { field: 'phone', message: 'Enter a mobile number with its country code, like +1 212 555 0100.' },
      ]);
    }
    return { channel: 'sms', address: digits };
  }
  throw new AppError('VALIDATION-ERR', 'Give an email address or a mobile number.', [
    { field: 'email', message: 'Give an email address or a mobile number.' },
  ]);
}

/** s•••@example.com, or •••• 42: enough to tell two invitations apart, not enough to learn an address. */
export function maskAddress(channel: CrewInviteChannel, address: string): string {
  if (channel === 'sms') return `•••• ${address.slice(-2)}`;
  const at = address.lastIndexOf('@');
  return `${address.slice(0, 1)}•••${address.slice(at)}`;
}

/** The limiter's subject for an address: a digest, so no address is a Durable Object's name. */
export const addressKey = (address: string) => sha256Hex(`crew-invite-address:${address}`);
