import type { Child } from 'hono/jsx';
import type { LiveKind } from '@/services/live';

/** The header counts' fragment (features/dashboard/live.tsx), what their live region is fetched from. */
export const LIVE_COUNTS_PATH = '/dashboard/live/counts';

/**
 * A part of a business's page that the `live` island brings up to date without a reload: on a signal
 * of one of `on` (and after every reconnection) it fetches `src`, a page that renders the same region,
 * and puts the region's new content in place (keeping focus and anything typed). `label` names the
 * part in the polite announcement ("Updated: …"). `id` is unique on the page.
 */
export function LiveRegion({ id, on, src, label, children }: { id: string; on: LiveKind[]; src: string; label: string; children?: Child }) {
  return (
    <div class="live-region" data-live-region={id} data-live-on={on.join(' ')} data-live-src={src} data-live-label={label}>
      {children}
    </div>
  );
}
