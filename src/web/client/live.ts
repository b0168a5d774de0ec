/**
 * The live updates of a business's pages (docs/decisions/live-updates.md), as the browser sees them.
 *
 * One WebSocket a page, to /dashboard/live?business_id= (the business's Durable Object), opened by the
 * shell's `live` island (`followBusiness`). It hears only that something changed,
 * `{type: 'changed', kind, seq}` with kind `shifts`, `connections` or `counts`, never what: whoever
 * shows that part fetches it again through its own page or API call. Any island subscribes with
 * `onLive` (the schedule refetches its calendar's events); the bundles are separate scripts, so the
 * socket hands its signals to the others as a DOM event on `document`.
 *
 * A `ping` every 30 s keeps the connection (answered `pong` without waking the object). A lost
 * connection is retried with growing pauses (1 s, doubling, at most 30 s; at once when the browser is
 * back online or the page visible again), except after 4401 (the session ended) or 4403 (access to
 * the business ended): the page then stops following. After every reconnection each subscriber runs
 * once, so a page is brought up to date with whatever changed while it was away.
 */

export type LiveKind = 'shifts' | 'connections' | 'counts';
export const LIVE_KINDS: readonly LiveKind[] = ['shifts', 'connections', 'counts'];

/** The socket's state, as `followBusiness` reports it (and the browser tests read it on the island). */
export type LiveState = 'connecting' | 'open' | 'closed' | 'ended';

const CHANGED = 'shiftmarket:live';
const ANNOUNCE = 'shiftmarket:live-announce';
const PING_MS = 30_000;
const RETRY_MAX_MS = 30_000;
/** Signals within this long are handed on together (a claim is both a shift event and a notification). */
const GATHER_MS = 250;
/** Close codes after which reconnecting cannot help: the session ended, access to the business ended. */
const ENDED = new Set([4401, 4403]);

interface Changed {
  kinds: LiveKind[];
  /** After a reconnection: every part fetches again, whatever the signals said. */
  resync: boolean;
}

/** Opens the page's one socket for the business's changes. Call it once a page. */
export function followBusiness(businessId: string, onState: (state: LiveState) => void = () => undefined): void {
  let socket: WebSocket | null = null;
  let ping: number | undefined;
  let retry: number | undefined;
  let pause = 1000;
  let opened = false;
  let lastSeq = 0;
  const gathered = new Set<LiveKind>();
  let gatherTimer: number | undefined;

  const hand = (kinds: Iterable<LiveKind>, resync: boolean) =>
    document.dispatchEvent(new CustomEvent<Changed>(CHANGED, { detail: { kinds: [...kinds], resync } }));

  const gather = (kind: LiveKind) => {
    gathered.add(kind);
    if (gatherTimer !== undefined) return;
    gatherTimer = window.setTimeout(() => {
      gatherTimer = undefined;
      const kinds = [...gathered];
      gathered.clear();
      hand(kinds, false);
    }, GATHER_MS);
  };

  const connect = () => {
    window.clearTimeout(retry);
    retry = undefined;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/dashboard/live?business_id=${encodeURIComponent(businessId)}`;
    const ws = new WebSocket(url);
    socket = ws;
    onState('connecting');
    ws.addEventListener('open', () => {
      pause = 1000;
      onState('open');
      ping = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('ping'), PING_MS);
      // The first connection follows the page's own render; a later one may have missed signals.
      if (opened) hand(LIVE_KINDS, true);
      opened = true;
    });
    ws.addEventListener('message', (e) => {
      if (typeof e.data !== 'string' || e.data === 'pong') return;
      let event: { type?: unknown; kind?: unknown; seq?: unknown };
      try {
        event = JSON.parse(e.data);
      } catch {
        return;
      }
      if (event.type !== 'changed' || !LIVE_KINDS.includes(event.kind as LiveKind)) return;
      // The object numbers its signals in order: one not after the last heard is a repeat.
      if (typeof event.seq === 'number') {
        if (event.seq <= lastSeq) return;
        lastSeq = event.seq;
      }
      gather(event.kind as LiveKind);
    });
    ws.addEventListener('close', (e) => {
      window.clearInterval(ping);
      if (socket !== ws) return;
      if (ENDED.has(e.code)) {
        socket = null;
        onState('ended');
        return;
      }
      onState('closed');
      retry = window.setTimeout(connect, pause);
      pause = Math.min(RETRY_MAX_MS, pause * 2);
    });
  };

  /** Back online, or the page shown again: reconnect now rather than after the pause. */
  const now = () => {
    if (!socket || retry === undefined) return;
    pause = 1000;
    connect();
  };
  window.addEventListener('online', now);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && now());
  connect();
}

/**
 * Runs `run` when one of `kinds` of the business changed, and once after every reconnection. While a
 * dialog in `root` is open (someone is in the middle of a change there) it waits for the dialog to
 * close; while it runs, further signals make it run once more afterwards, never twice at once. With
 * `label`, a polite announcement says that part was brought up to date.
 */
export function onLive(
  kinds: readonly LiveKind[],
  run: () => unknown,
  opts: { root?: HTMLElement | undefined; label?: string | undefined } = {},
): void {
  let running = false;
  let again = false;
  const go = async () => {
    const open = opts.root?.querySelector<HTMLDialogElement>('dialog[open]');
    if (open) {
      open.addEventListener('close', () => void go(), { once: true });
      return;
    }
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await run();
      if (opts.label) announceLive(opts.label);
    } catch {
      // A failed refresh leaves the part as it was; the next signal or reconnection tries again.
    } finally {
      running = false;
      if (again) {
        again = false;
        void go();
      }
    }
  };
  document.addEventListener(CHANGED, (e) => {
    const { kinds: changed } = (e as CustomEvent<Changed>).detail;
    if (changed.some((k) => kinds.includes(k))) void go();
  });
}

/** Asks the shell's `live` island to announce that `label` was brought up to date (politely, gathered). */
export function announceLive(label: string): void {
  document.dispatchEvent(new CustomEvent<string>(ANNOUNCE, { detail: label }));
}

/** Hears the announcements asked for with `announceLive` (the shell's `live` island says them). */
export function onAnnounce(say: (label: string) => void): void {
  document.addEventListener(ANNOUNCE, (e) => say((e as CustomEvent<string>).detail));
}
