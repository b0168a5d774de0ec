import { desc, eq, isNotNull, max, sql } from 'drizzle-orm';
import { businesses, cities, shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { shifterIdOf } from '../../services/access';
import { requirePerson } from '../../services/context';
import { partyRating } from '../../services/reviews/aggregates';
import { workedShiftSql } from '../../services/shifts/status';
import { defineTool } from '../tool';
import { businessProfileSpec, listConnectionsSpec, shifterProfileSpec } from '../tool-specs';
import { assertRole } from './standing';

/** A business's public profile by slug: what its public page shows, never its settings or position. */
export const businessProfile = defineTool({
  ...businessProfileSpec,
  async run(ctx, args) {
    requirePerson(ctx);
    const [b] = await ctx.db.select().from(businesses).where(eq(businesses.slug, args.slug)).limit(1);
    if (!b) throw new AppError('BUSINESS-NOT-FND-ERR');
    return {
      business: {
        id: b.id,
        slug: b.slug,
        name: b.name,
        timezone: b.timezone,
        city_id: b.city_id,
        country_id: b.country_id,
        currency: b.currency,
        created_at: toIso(b.created_at),
        ratings: await partyRating(ctx, 'business', b.id),
      },
    };
  },
  summarize: (r) => `${r.business.name}: rated ${r.business.ratings.average ?? 'n/a'} from ${r.business.ratings.count} review(s).`,
});

/** A shifter's public profile by slug (the Paused badge as is_paused). */
export const shifterProfile = defineTool({
  ...shifterProfileSpec,
  async run(ctx, args) {
    requirePerson(ctx);
    const [row] = await ctx.db
      .select({ s: shifters, city: cities.name })
      .from(shifters)
      .leftJoin(cities, eq(cities.id, shifters.city_id))
      .where(eq(shifters.slug, args.slug))
      .limit(1);
    if (!row) throw new AppError('SHIFTER-NOT-FND-ERR');
    const s = row.s;
    return {
      shifter: {
        id: s.id,
        slug: s.slug,
        display_name: s.display_name,
        headline: s.headline,
        bio: s.bio,
        photo_url: s.photo_url,
        city: row.city,
        accept_shift_req: s.accept_shift_req,
        is_paused: !s.accept_shift_req,
        created_at: toIso(s.created_at),
        ratings: await partyRating(ctx, 'shifter', s.id),
      },
    };
  },
  summarize: (r) => `${r.shifter.display_name}${r.shifter.is_paused ? ' (paused)' : ''}: rated ${r.shifter.ratings.average ?? 'n/a'}.`,
});

const shiftCount = sql<number>`count(*)`.mapWith(Number);
const workedCount = sql<number>`sum(case when ${workedShiftSql()} then 1 else 0 end)`.mapWith(Number);
const lastDate = max(shiftRequests.shift_date);

/**
 * The distinct counterparties of the caller's shift request history (any status): the businesses of
 * the shifts their shifter profile was sent or took, and the shifters of the shifts of businesses
 * they own (a teammate's businesses are not theirs here). Most recent shift first.
 */
export const listConnections = defineTool({
  ...listConnectionsSpec,
  async run(ctx, args) {
    const actor = requirePerson(ctx);
    await assertRole(ctx, args.role);
    const out: Array<{
      kind: 'business' | 'shifter';
      id: string;
      name: string;
      slug: string;
      shifts: number;
      worked_shifts: number;
      last_shift_date: string;
    }> = [];
    const shifterId = args.role === 'business' ? null : await shifterIdOf(ctx, actor.userId);
    if (shifterId) {
      const rows = await ctx.db
        .select({
          id: businesses.id,
          name: businesses.name,
          slug: businesses.slug,
          shifts: shiftCount,
          worked: workedCount,
          last: lastDate,
        })
        .from(shiftRequests)
        .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
        .where(eq(shiftRequests.shifter_id, shifterId))
        .groupBy(businesses.id)
        .orderBy(desc(lastDate))
        .limit(args.limit);
      for (const r of rows) {
        out.push({
          kind: 'business',
          id: r.id,
          name: r.name,
          slug: r.slug,
          shifts: r.shifts,
          worked_shifts: r.worked ?? 0,
          last_shift_date: r.last ?? '',
        });
      }
    }
    if (args.role !== 'shifter') {
      const rows = await ctx.db
        .select({
          id: shifters.id,
          name: shifters.display_name,
          slug: shifters.slug,
          shifts: shiftCount,
          worked: workedCount,
          last: lastDate,
        })
        .from(shiftRequests)
        .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
        .innerJoin(shifters, eq(shifters.id, shiftRequests.shifter_id))
        .where(sql`${eq(businesses.user_id, actor.userId)} AND ${isNotNull(shiftRequests.shifter_id)}`)
        .groupBy(shifters.id)
        .orderBy(desc(lastDate))
        .limit(args.limit);
      for (const r of rows) {
        out.push({
          kind: 'shifter',
          id: r.id,
          name: r.name,
          slug: r.slug,
          shifts: r.shifts,
          worked_shifts: r.worked ?? 0,
          last_shift_date: r.last ?? '',
        });
      }
    }
    out.sort((a, b) => (a.last_shift_date < b.last_shift_date ? 1 : a.last_shift_date > b.last_shift_date ? -1 : 0));
    return { counterparties: out };
  },
  summarize: (r) => `${r.counterparties.length} counterpart${r.counterparties.length === 1 ? 'y' : 'ies'}.`,
});
