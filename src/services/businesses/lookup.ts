import { eq } from 'drizzle-orm';
import { businesses } from '../../db/schema';
import type { ServiceContext } from '../kernel';

/** A business's id and name by its public slug (the embed's connect page); undefined when none has it. */
export async function businessBySlug(ctx: ServiceContext, slug: string): Promise<{ id: string; name: string } | undefined> {
  const [b] = await ctx.db.select({ id: businesses.id, name: businesses.name }).from(businesses).where(eq(businesses.slug, slug)).limit(1);
  return b;
}
