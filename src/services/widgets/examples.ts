import { and, desc, eq, gt, gte, isNotNull, sql } from 'drizzle-orm';
import { businesses, reviews, shiftRequests, shiftRoles, shifters, users } from '../../db/schema';
import { type ServiceContext, workedShiftSql } from '../kernel';

/**
 * The demo slugs the example host page (widgets/examples/index.html, served only with DEMO_MODE on)
 * is filled with: the demo business with the most open broadcasts, the one with an upheld-dispute
 * review (so the reviews widget shows it left out), a paused demo shifter, and the role the first
 * business has worked most in the going-rate window.
 */
export interface ExampleSlugs {
  business: string;
  reviewed_business: string;
  paused_shifter: string;
  role: string;
}

export async function exampleSlugs(ctx: ServiceContext): Promise<ExampleSlugs> {
  const now = ctx.now();
  const demoBusiness = and(eq(users.is_demo, true), eq(businesses.user_id, users.id));
  const [busiest] = await ctx.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .innerJoin(users, demoBusiness)
    .leftJoin(
      shiftRequests,
      and(
        eq(shiftRequests.business_id, businesses.id),
        eq(shiftRequests.is_broadcast, true),
        eq(shiftRequests.request_status, 1),
        gt(shiftRequests.starts_at, now),
      ),
    )
    .groupBy(businesses.id)
    .orderBy(desc(sql`count(${shiftRequests.id})`), businesses.slug)
    .limit(1);
  const [reviewed] = await ctx.db
    .select({ slug: businesses.slug })
    .from(reviews)
    .innerJoin(businesses, and(eq(reviews.review_on, 'business'), eq(reviews.review_on_id, businesses.id)))
    .innerJoin(users, demoBusiness)
    .where(eq(reviews.dispute_status, 'upheld'))
    .orderBy(businesses.slug)
    .limit(1);
  const [paused] = await ctx.db
    .select({ slug: shifters.slug })
    .from(shifters)
    .innerJoin(users, and(eq(users.id, shifters.user_id), eq(users.is_demo, true)))
    .where(eq(shifters.accept_shift_req, false))
    .orderBy(shifters.slug)
    .limit(1);
  const [role] = busiest
    ? await ctx.db
        .select({ slug: shiftRoles.slug })
        .from(shiftRequests)
        .innerJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
        .where(
          and(
            eq(shiftRequests.business_id, busiest.id),
            workedShiftSql(),
            isNotNull(shiftRequests.shift_end_at),
            gte(shiftRequests.starts_at, now - ctx.settings.GOING_RATE_WINDOW_DAYS * 86_400_000),
          ),
        )
        .groupBy(shiftRoles.slug)
        .orderBy(desc(sql`count(*)`), shiftRoles.slug)
        .limit(1)
    : [];
  return {
    business: busiest?.slug ?? '',
    reviewed_business: reviewed?.slug ?? busiest?.slug ?? '',
    paused_shifter: paused?.slug ?? '',
    role: role?.slug ?? '',
  };
}
