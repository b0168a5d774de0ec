import type { Db } from '../db/client';
import type { AppBindings, Settings } from '../env';
import type { Actor, IdempotencyScope } from '../services/kernel';
import type { Logger } from '../lib/log';

/** Who a page is for: the account behind the cookie session. */
export interface WebUser {
  userId: string;
  sessionId: string;
  email: string;
  displayName: string;
}

export interface AppEnv {
  Bindings: AppBindings;
  Variables: {
    requestId: string;
    log: Logger;
    settings: Settings;
    db: Db;
    actor: Actor;
    idempotency: IdempotencyScope | undefined;
    /** Pages only: the CSRF token every form of the page carries (web/csrf.ts). */
    csrfToken: string;
    /** Pages only: the signed-in person of the cookie session (web/session.ts), when there is one. */
    webUser: WebUser | undefined;
    /**
     * Pages only: which cookie session the page was made for, once web/session.ts has read it: a short
     * digest of the session's id, or `none`. Sent as `X-Page-Session`, so the service worker keeps
     * offline copies of one session's pages only (src/web/service-worker/offline.ts).
     */
    pageSession: string | undefined;
  };
}
