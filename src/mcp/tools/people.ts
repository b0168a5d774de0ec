import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { listCounterparties } from '../../services/connections';
import { requirePerson } from '../../services/kernel';
import { findPublicBusiness, findPublicShifter } from '../../services/profiles';
import { defineTool } from '../tool';
import { businessProfileSpec, listConnectionsSpec, shifterProfileSpec } from '@shiftmarket/tool-specs';
import { assertRole } from '../../services/access';

/** A business's public profile by slug: what its public page shows, never its settings or position. */
export const businessProfile = defineTool({
  ...businessProfileSpec,
  async run(ctx, args) {
    requirePerson(ctx);
    const b = await findPublicBusiness(ctx, args.slug);
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
        ratings: b.ratings,
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
    const s = await findPublicShifter(ctx, args.slug);
    if (!s) throw new AppError('SHIFTER-NOT-FND-ERR');
    return {
      shifter: {
        id: s.id,
        slug: s.slug,
        display_name: s.display_name,
        headline: s.headline,
        bio: s.bio,
        photo_url: s.photo_url,
        city: s.city,
        accept_shift_req: s.accept_shift_req,
        is_paused: !s.accept_shift_req,
        created_at: toIso(s.created_at),
        ratings: s.ratings,
      },
    };
  },
  summarize: (r) => `${r.shifter.display_name}${r.shifter.is_paused ? ' (paused)' : ''}: rated ${r.shifter.ratings.average ?? 'n/a'}.`,
});

/**
 * The distinct counterparties of the caller's shift request history (services/connections/
 * counterparties.ts).
 */
export const listConnections = defineTool({
  ...listConnectionsSpec,
  async run(ctx, args) {
    const actor = requirePerson(ctx);
    await assertRole(ctx, args.role);
    return { counterparties: await listCounterparties(ctx, actor.userId, args.role, args.limit) };
  },
  summarize: (r) => `${r.counterparties.length} counterpart${r.counterparties.length === 1 ? 'y' : 'ies'}.`,
});
