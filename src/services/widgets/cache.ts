import { edgeCache, type ServiceContext } from '../kernel';
import type { WidgetData } from './data';

/** The edge cache of the public widgets' data: keys and purging are in the kernel (kernel/widget-cache.ts). */
export interface CachedData {
  data: WidgetData | null;
  hit: boolean;
}

/**
 * The cached data under `key`, else `load()`'s result, stored for the TTL (unknown slugs too, as
 * `null`, so probing slugs does not reach D1 either). A failing cache is skipped, never an error.
 */
export async function cachedWidgetData(ctx: ServiceContext, key: string, load: () => Promise<WidgetData | null>): Promise<CachedData> {
  const cache = edgeCache();
  if (cache) {
    try {
      const found = await cache.match(key);
      if (found) return { data: (await found.json()) as WidgetData | null, hit: true };
    } catch (err) {
      ctx.log.warn('widget cache read failed', { error: String(err) });
    }
  }
  const data = await load();
  if (cache) {
    const body = new Response(JSON.stringify(data), {
      headers: { 'Content-Type': 'application/json', 'Cache-Control': `public, max-age=${ctx.settings.WIDGET_CACHE_TTL_SECONDS}` },
    });
    // Awaited (a local write): the next view, even one right after, finds the entry.
    await cache.put(key, body).catch((err: unknown) => ctx.log.warn('widget cache write failed', { error: String(err) }));
  }
  return { data, hit: false };
}
