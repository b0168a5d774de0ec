import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema';
import type { ServiceContext } from '../../kernel';
import { smsProviderFor } from '../sms';
import type { ChannelAdapter, Delivery, SendOutcome } from './types';

/**
 * SMS through the notifications' SMS channel (sms.ts): Twilio when configured, else the local
 * stand-in (prints the text under LOCAL_MAILBOX). Sent to the account's phone number; off by default
 * for every kind (the person turns it on in their preferences).
 */
export const smsChannel: ChannelAdapter = {
  channel: 'sms',
  async send(ctx: ServiceContext, d: Delivery): Promise<SendOutcome> {
    const [u] = await ctx.db.select({ phone: users.phone }).from(users).where(eq(users.id, d.user_id)).limit(1);
    if (!u?.phone) return { status: 'skipped', provider: null, destination: null, reason: 'no phone number' };
    const provider = smsProviderFor(ctx.settings, ctx.log);
    await provider.send({ to: u.phone, text: d.body, sensitive: d.sensitive });
    return { status: 'sent', provider: provider.name, destination: u.phone };
  },
};
