import { eq } from 'drizzle-orm';
import { emailOutbox, users } from '../../../db/schema';
import type { ServiceContext } from '../../kernel';
import { deliverEmail, EMAIL_GRACE_MS } from '../../mail';
import { emailIdOf } from '../ids';
import type { ChannelAdapter, Delivery, SendOutcome } from './types';

/**
 * Email goes through the mail outbox (services/mail): the delivery writes one `email_outbox` row
 * whose id derives from the delivery's, then delivers it as any email is (Resend with the row id as
 * its Idempotency-Key, or the outbox stand-in that prints it under LOCAL_MAILBOX). A retried delivery
 * finds the same row, so a person never gets the email twice; the mail sweep also re-sends it.
 */
export const emailChannel: ChannelAdapter = {
  channel: 'email',
  async send(ctx: ServiceContext, d: Delivery): Promise<SendOutcome> {
    const [u] = await ctx.db
      .select({ email: users.email, verified: users.email_verified_at })
      .from(users)
      .where(eq(users.id, d.user_id))
      .limit(1);
    if (!u?.verified) return { status: 'skipped', provider: null, destination: null, reason: 'no verified email address' };
    const id = emailIdOf(d.id);
    const now = ctx.now();
    await ctx.db
      .insert(emailOutbox)
      .values({
        id,
        to_address: u.email,
        subject: d.title,
        text_body: d.body,
        template: `notification:${d.kind}`,
        provider: ctx.env.MAIL_PROVIDER_API_KEY ? 'resend' : 'outbox',
        status: 'queued',
        sensitive: d.sensitive,
        attempts: 0,
        next_attempt_at: now + EMAIL_GRACE_MS,
        created_at: now,
      })
      .onConflictDoNothing();
    // Throws on a provider failure (the email row is queued again): the delivery is retried.
    const result = await deliverEmail(ctx, id);
    const [row] = await ctx.db
      .select({ status: emailOutbox.status, provider: emailOutbox.provider, error: emailOutbox.last_error })
      .from(emailOutbox)
      .where(eq(emailOutbox.id, id))
      .limit(1);
    if (result === 'sent' || row?.status === 'sent') return { status: 'sent', provider: row?.provider ?? 'outbox', destination: u.email };
    if (result === 'failed' || row?.status === 'failed') {
      return { status: 'failed', provider: row?.provider ?? null, destination: u.email, reason: row?.error ?? 'email failed' };
    }
    // Another delivery of the same email holds it right now: ask again later.
    throw new Error('the email is being sent by another delivery');
  },
};
