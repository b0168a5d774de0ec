import { and, eq, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { helpArticleFeedback, helpArticles } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { requirePerson, type ServiceContext } from '../kernel';
import type { FeedbackInput, FeedbackView } from './schemas';

/**
 * One vote per person and article: the vote is an upsert on (article, user), so a second vote
 * replaces the first. The article's counters are recounted from the votes in the same batch rather
 * than incremented: D1 runs a batch as one transaction, one batch at a time, so whatever votes race,
 * each batch leaves the counters equal to the votes stored, and a changed vote moves from one counter
 * to the other without a read-modify-write of ours in between.
 */
export async function sendArticleFeedback(ctx: ServiceContext, articleId: string, input: FeedbackInput): Promise<FeedbackView> {
  const actor = requirePerson(ctx);
  const [article] = await ctx.db.select({ id: helpArticles.id }).from(helpArticles).where(eq(helpArticles.id, articleId)).limit(1);
  if (!article) throw new AppError('HELP-NOT-FND-ERR', 'No such help article.');
  const now = ctx.now();
  const votes = (helpful: boolean) =>
    sql`(SELECT count(*) FROM ${helpArticleFeedback} WHERE ${helpArticleFeedback.article_id} = ${articleId} AND ${helpArticleFeedback.helpful} = ${helpful ? 1 : 0})`;

  const [, [vote], [counts]] = (await runBatch(ctx.db, [
    ctx.db
      .insert(helpArticleFeedback)
      .values({
        id: newId('helpFeedback'),
        article_id: articleId,
        user_id: actor.userId,
        helpful: input.helpful,
        comment: input.comment,
        created_at: now,
        updated_at: now,
      })
      .onConflictDoUpdate({
        target: [helpArticleFeedback.article_id, helpArticleFeedback.user_id],
        set: { helpful: input.helpful, comment: input.comment, updated_at: now },
      }),
    ctx.db
      .select()
      .from(helpArticleFeedback)
      .where(and(eq(helpArticleFeedback.article_id, articleId), eq(helpArticleFeedback.user_id, actor.userId))),
    ctx.db
      .update(helpArticles)
      .set({ helpful_count: votes(true), not_helpful_count: votes(false) })
      .where(eq(helpArticles.id, articleId))
      .returning({ helpful_count: helpArticles.helpful_count, not_helpful_count: helpArticles.not_helpful_count }),
  ])) as [unknown, Array<typeof helpArticleFeedback.$inferSelect>, Array<{ helpful_count: number; not_helpful_count: number }>];

  if (!vote || !counts) throw new AppError('HELP-NOT-FND-ERR', 'No such help article.');
  return {
    article_id: articleId,
    helpful: vote.helpful,
    comment: vote.comment,
    helpful_count: counts.helpful_count,
    not_helpful_count: counts.not_helpful_count,
    created_at: toIso(vote.created_at),
    updated_at: toIso(vote.updated_at),
  };
}
