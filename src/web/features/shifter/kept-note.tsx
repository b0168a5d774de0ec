import type { Child } from 'hono/jsx';
import { WEB_ENTRIES } from '@generated/web/assets';
import { formatDate, timeIn } from '@/web/format';

/**
 * The note a shifter page kept for offline use carries, hidden (kept-page.model.ts): the service
 * worker shows it when it answers from the saved copy ("Saved list from 12:46 — you're offline"), the
 * time of the render on the worker's own clock. `what` names the page's saved thing, `then` says what
 * waits for the network. The island shows it too when a page open on the phone loses the network.
 */
export function KeptNote({ now, timeZone, what, then }: { now: number; timeZone: string; what: string; then: string }) {
  const at = new Date(now).toISOString();
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now));
  return (
    <p class="sf-kept-note" data-kept-note="saved" hidden>
      <strong>
        {`${what} from `}
        <time datetime={at}>{timeIn(at, timeZone)}</time>
        {' — you’re offline.'}
      </strong>{' '}
      {`Saved on ${formatDate(day)}. ${then}`}
    </p>
  );
}

/** The shifter side's island (shifter-page.island.ts): its script, for the page's AppShell. */
export const keptPageScripts = (): string[] => {
  const island = WEB_ENTRIES.islands['shifter-page'];
  return island ? [island.js] : [];
};

/** A page kept for offline use: the island's element around it, the saved-copy note first. */
export function KeptPage(p: { now: number; timeZone: string; what: string; then: string; class?: string; children?: Child }) {
  return (
    <div class={p.class} data-island="shifter-page" data-props="{}">
      <KeptNote now={p.now} timeZone={p.timeZone} what={p.what} then={p.then} />
      {p.children}
    </div>
  );
}
