import { eq } from 'drizzle-orm';
import type { ServiceContext } from './context';
import { businesses, type PARTY_KINDS, shifters } from '../../db/schema';

/**
 * The edge cache of the public widgets' data (Cache API, `caches.default`): one entry per widget,
 * party kind, slug (and role for rate), kept WIDGET_CACHE_TTL_SECONDS (default 60), so a popular
 * profile costs D1 one read a minute per data center instead of one per view. The theme, the host
 * origin and the frame id are left out of the key: they change the page, not the data, and the page
 * is rendered from the cached data on every view (cheap, no I/O).
 *
 * Changes purge the entries at once (`purgeWidgetCache`, called by the services that change public
 * data: profile updates, reviews and their disputes, broadcasts posted, claimed, cancelled). The Cache
 * API is per data center, so a purge reaches the data center that ran the change; elsewhere the TTL
 * bounds how stale an entry can be. The rate widget is not purged (the going rate moves with every
 * worked shift in the city); its TTL alone refreshes it.
 */

/** A shifter or a business: the two kinds of party public pages and widgets show. */
export type PartyKind = (typeof PARTY_KINDS)[number];
/** The public widgets (services/widgets). */
export type PublicWidget = 'profile' | 'shifts' | 'reviews' | 'rate';

const CACHE_ORIGIN = 'https://widget-cache.shiftmarket.internal';
/** The widgets whose entries a change to a party purges (rate: TTL only, see above). */
const PURGED: readonly PublicWidget[] = ['profile', 'shifts', 'reviews'];

export function widgetCacheKey(widget: PublicWidget, kind: PartyKind, slug: string, role = ''): string {
  const key = `${CACHE_ORIGIN}/v1/${widget}/${kind}/${encodeURIComponent(slug)}`;
  return role ? `${key}?role=${encodeURIComponent(role)}` : key;
}

/** `caches.default` where the runtime has it (workerd); null elsewhere, so the widgets still work. */
export function edgeCache(): Cache | null {
  const c = (globalThis as { caches?: CacheStorage & { default?: Cache } }).caches;
  return c?.default ?? null;
}

/**
 * Drops the cached widget data of a party (by id) after a change to what its widgets show. Call it
 * once the change has committed. Never throws: a failed purge leaves the entries to their TTL.
 */
export async function purgeWidgetCache(ctx: ServiceContext, kind: PartyKind, id: string): Promise<void> {
  const cache = edgeCache();
  if (!cache) return;
  try {
    const [row] =
      kind === 'business'
        ? await ctx.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, id)).limit(1)
        : await ctx.db.select({ slug: shifters.slug }).from(shifters).where(eq(shifters.id, id)).limit(1);
    if (!row) return;
    await Promise.all(PURGED.map((w) => cache.delete(widgetCacheKey(w, kind, row.slug))));
  } catch (err) {
    ctx.log.warn('widget cache purge failed', { error: String(err) });
  }
}
