import type { Db } from '../../db/client';
import type { PartnerScope, PartnerTier } from '../../db/schema/partners';
import type { AppBindings, Settings } from '../../env';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/log';

/**
 * Who is acting. Every service takes one, so a REST handler, an MCP tool, a queue consumer and a
 * cron job run the same rules.
 */
export type Actor =
  // via 'kiosk': the venue tablet an owner started (services/kiosk), acting for them in clock-in/out only.
  | ({ kind: 'user'; userId: string; via: 'api_key' | 'session' | 'kiosk'; credentialId: string } & PersonRights)
  | ({ kind: 'agent'; userId: string; tokenId: string; scopes: string[] } & PersonRights)
  | PartnerActor
  | { kind: 'system'; job: string }
  | { kind: 'anonymous' };

export type PersonActor = Extract<Actor, { kind: 'user' | 'agent' }>;

/** A partner credential's scopes and a partner client's tier (the stored columns' values). */
export type { PartnerScope, PartnerTier };

/**
 * A partner client acting through its `x-api-key` or an OAuth access token (http/middleware/
 * partner-auth.ts). `partnerId` is the client's id (`pc_…`); `scopes` are the credential's (a key
 * carries the client's, a token the subset it was issued for). What it may reach is decided in
 * services/access/partner.ts: only the businesses linked to it, within the scopes each link grants.
 */
export interface PartnerActor {
  kind: 'partner';
  partnerId: string;
  scopes: readonly PartnerScope[];
  tier: PartnerTier;
  via: 'api_key' | 'oauth';
  credentialId: string;
}

/**
 * What a person may do beyond their own things. `isAdmin` is admin over everything, and a demo
 * account never has it: the demo cast's admin (published password) has `demoAdmin` instead, which the
 * access layer (services/access) honours only toward demo subjects.
 */
export interface PersonRights {
  isAdmin: boolean;
  /** A demo account (absent: not one). */
  isDemo?: boolean;
  /** The demo cast's admin: admin toward demo subjects only. */
  demoAdmin?: boolean;
}

export interface ServiceContext {
  env: AppBindings;
  db: Db;
  settings: Settings;
  actor: Actor;
  requestId: string;
  log: Logger;
  now(): number;
  /** Keeps background work (queue sends that must not block the answer) alive after responding. */
  waitUntil(p: Promise<unknown>): void;
  /**
   * The request's Idempotency-Key record, when the caller sent one. The guarded-write primitive marks
   * it committed in the same batch as the change; `committed` is set when a retry arrives after the
   * change committed but before an answer was stored, so the write is not run a second time.
   */
  idempotency?: IdempotencyScope | undefined;
}

export interface IdempotencyScope {
  recordId: string;
  committed: { type: string; id: string } | null;
}

export function requirePerson(ctx: ServiceContext): PersonActor {
  const a = ctx.actor;
  if (a.kind === 'user' || a.kind === 'agent') return a;
  throw new AppError('AUTH-REQ-ERR');
}

/** Fields for an audit row describing the actor. */
export function actorAudit(actor: Actor): { actor_kind: string; actor_user_id: string | null; actor_ref: string | null } {
  switch (actor.kind) {
    case 'user':
      return { actor_kind: `user:${actor.via}`, actor_user_id: actor.userId, actor_ref: actor.credentialId };
    case 'agent':
      return { actor_kind: 'agent', actor_user_id: actor.userId, actor_ref: actor.tokenId };
    case 'partner':
      return { actor_kind: 'partner', actor_user_id: null, actor_ref: actor.partnerId };
    case 'system':
      return { actor_kind: 'system', actor_user_id: null, actor_ref: actor.job };
    case 'anonymous':
      return { actor_kind: 'anonymous', actor_user_id: null, actor_ref: null };
  }
}
