/*
 * The live updates of a business's pages (docs/decisions/live-updates.md): one Durable Object per
 * business (durable-objects/business-live.ts) keeps a hibernating WebSocket per open page and tells
 * them that something changed, never what: the page fetches what it shows again through its own
 * server-rendered or API path, with its own session, so every rule stays in the domains.
 */

/** What changed: the business's shifts, its connections (crew requests, the crew), or a person's unread counts. */
export const LIVE_KINDS = ['shifts', 'connections', 'counts'] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];

/** One signal for the business's object: a kind, for every socket, or only for the sockets of `userIds`. */
export interface LiveSignal {
  kind: LiveKind;
  userIds?: string[] | null;
}

/** What a socket hears: the kind and the object's sequence number (one more for every signal it sends). */
export interface LiveChanged {
  type: 'changed';
  kind: LiveKind;
  seq: number;
}

/** How far live updates go (docs/decisions/live-updates.md "Bounds"). */
export const BUSINESS_LIVE_LIMITS = {
  /** Open sockets of one session on one business (one a page: Today, the schedule, the crew, other tabs). */
  socketsPerSession: 10,
  /** Open sockets on one business, whoever opened them. */
  socketsPerBusiness: 100,
  /** A socket's session and standing are asked again at the first signal after this long. */
  recheckAfterMs: 60_000,
} as const;

/** How the object closes a socket whose standing ended (WebSocket close codes of the application range). */
export const BUSINESS_LIVE_CLOSE = {
  sessionEnded: { code: 4401, reason: 'The session ended; sign in again to see updates.' },
  accessLost: { code: 4403, reason: 'You no longer have access to this business.' },
} as const;

/** Headers on the upgrade the Worker hands the object: the business, and the session and person the socket belongs to. */
export const BUSINESS_LIVE_HEADERS = { business: 'X-Live-Business', session: 'X-Live-Session', user: 'X-Live-User' } as const;
