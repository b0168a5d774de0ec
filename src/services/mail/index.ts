import { and, eq } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { NotificationsMessage } from '../../queues/messages';
import type { ServiceContext } from '../context';
import { mailProviderFor } from './provider';

export interface EmailDraft {
  to: string;
  subject: string;
  text: string;
  template: string;
}

/**
 * Transactional-outbox email: the caller puts `insert` in the same db.batch as the change that
 * causes the mail, then calls `enqueue` after the batch commits. A cron sweep re-enqueues rows still
 * queued, so a failed queue send loses nothing.
 */
export function draftEmail(ctx: ServiceContext, draft: EmailDraft) {
  const id = newId('email');
  const insert = ctx.db.insert(emailOutbox).values({
    id,
    to_address: draft.to,
    subject: draft.subject,
    text_body: draft.text,
    template: draft.template,
    provider: ctx.env.MAIL_PROVIDER_API_KEY ? 'resend' : 'outbox',
    status: 'queued',
    created_at: ctx.now(),
  });
  const message: NotificationsMessage = { type: 'email.send', outbox_id: id };
  return { id, insert, enqueue: () => ctx.env.NOTIFICATIONS_QUEUE.send(message) };
}

/** Queue side: sends one outbox email once. */
export async function deliverEmail(ctx: ServiceContext, outboxId: string): Promise<'sent' | 'skipped'> {
  const [row] = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.id, outboxId)).limit(1);
  if (!row || row.status === 'sent') return 'skipped';
  const provider = mailProviderFor(ctx.env.MAIL_PROVIDER_API_KEY, ctx.log);
  await provider.send({ id: row.id, to: row.to_address, from: ctx.settings.MAIL_FROM, subject: row.subject, text: row.text_body });
  await ctx.db
    .update(emailOutbox)
    .set({ status: 'sent', sent_at: ctx.now(), provider: provider.name })
    .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, 'queued')));
  return 'sent';
}
