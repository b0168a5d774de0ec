import { and, asc, desc, eq } from 'drizzle-orm';
import { businesses, teammates } from '../../db/schema';
import { TEAMMATE_STATUS } from '../access';
import { requirePerson, type ServiceContext } from '../kernel';

/** A business the person acts for, as the web application's switcher lists it. */
export interface ActingBusiness {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  currency: string;
  /** Where the going rate is read for the business's shifts. */
  city_id: number | null;
  role: 'owner' | 'teammate';
  is_default: boolean;
}

/**
 * The businesses the caller owns (default first, then oldest) and those they are an active teammate
 * of (by name): where the web application lets them switch to. Admin standing is not listed: an
 * admin opens another business by its id.
 */
export async function listActingBusinesses(ctx: ServiceContext): Promise<ActingBusiness[]> {
  const { userId } = requirePerson(ctx);
  const cols = {
    id: businesses.id,
    name: businesses.name,
    slug: businesses.slug,
    timezone: businesses.timezone,
    currency: businesses.currency,
    city_id: businesses.city_id,
    is_default: businesses.is_default,
  };
  const [owned, teams] = await ctx.db.batch([
    ctx.db
      .select(cols)
      .from(businesses)
      .where(eq(businesses.user_id, userId))
      .orderBy(desc(businesses.is_default), asc(businesses.created_at)),
    ctx.db
      .select(cols)
      .from(teammates)
      .innerJoin(businesses, eq(businesses.id, teammates.business_id))
      .where(and(eq(teammates.user_id, userId), eq(teammates.status, TEAMMATE_STATUS.active)))
      .orderBy(asc(businesses.name)),
  ]);
  const ownedIds = new Set(owned.map((b) => b.id));
  return [
    ...owned.map((b) => ({ ...b, role: 'owner' as const })),
    ...teams.filter((b) => !ownedIds.has(b.id)).map((b) => ({ ...b, role: 'teammate' as const, is_default: false })),
  ];
}
