import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { businesses } from './profiles';
import { users } from './users';

/** Partner client tiers (spec 5.2); each has its own rate limit (operator settings). */
export const PARTNER_TIERS = ['self_serve', 'trusted', 'internal'] as const;
export type PartnerTier = (typeof PARTNER_TIERS)[number];

/** What a partner credential may do; a route names the one it needs. */
export const PARTNER_SCOPES = ['shifts:read', 'shifts:write', 'shifters:read', 'webhooks:manage'] as const;
export type PartnerScope = (typeof PARTNER_SCOPES)[number];

export const PARTNER_CLIENT_STATUSES = ['active', 'disabled'] as const;

/**
 * A third party's integration (spec 4.10, 5.2): registered by a signed-in user (its owner, a person at
 * the partner company), with a tier and the scopes its credentials may carry. A business reaches it
 * only by linking it (partner_business_links).
 */
export const partnerClients = sqliteTable(
  'partner_clients',
  {
    id: text('id').primaryKey(), // pc_…
    name: text('name').notNull(),
    owner_user_id: text('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    client_tier: text('client_tier', { enum: PARTNER_TIERS }).notNull().default('self_serve'),
    /** A JSON array of PartnerScope. */
    scopes: text('scopes', { mode: 'json' }).$type<PartnerScope[]>().notNull(),
    status: text('status', { enum: PARTNER_CLIENT_STATUSES }).notNull().default('active'),
    /** Stamped by each guarded change (creation, rotation): statements of the same batch test it. */
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [index('partner_clients_owner_idx').on(t.owner_user_id)],
);

/**
 * A client's secrets: `x-api-key` keys (`smp_…`) and OAuth client secrets (`smcs_…`). Only a SHA-256
 * is kept. The current one of each kind has `expires_at` NULL (one per client and kind, a partial
 * unique index); a rotation with an overlap leaves the old one live until its `expires_at`.
 */
export const partnerCredentials = sqliteTable(
  'partner_credentials',
  {
    id: text('id').primaryKey(), // pcr_…
    client_id: text('client_id')
      .notNull()
      .references(() => partnerClients.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['api_key', 'client_secret'] }).notNull(),
    prefix: text('prefix').notNull(),
    secret_hash: text('secret_hash').notNull().unique(),
    created_at: integer('created_at').notNull(),
    /** Set when a rotation keeps the old credential for an overlap; it stops working then. */
    expires_at: integer('expires_at'),
    revoked_at: integer('revoked_at'),
    /** Last request made with it (keys only), written at most once a minute. */
    last_used_at: integer('last_used_at'),
  },
  (t) => [
    index('partner_credentials_client_idx').on(t.client_id, t.kind),
    uniqueIndex('partner_credentials_one_current').on(t.client_id, t.kind).where(sql`revoked_at IS NULL AND expires_at IS NULL`),
  ],
);

/** OAuth client-credentials access tokens (`smpt_…`): short-lived, opaque, only a SHA-256 kept. */
export const partnerTokens = sqliteTable(
  'partner_tokens',
  {
    id: text('id').primaryKey(), // pat_…
    client_id: text('client_id')
      .notNull()
      .references(() => partnerClients.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    /** The granted scopes (a subset of the client's): a JSON array of PartnerScope. */
    scopes: text('scopes', { mode: 'json' }).$type<PartnerScope[]>().notNull(),
    created_at: integer('created_at').notNull(),
    expires_at: integer('expires_at').notNull(),
    revoked_at: integer('revoked_at'),
  },
  (t) => [index('partner_tokens_client_idx').on(t.client_id, t.expires_at)],
);

/**
 * A business's consent: the partner client may act for it, within `scopes` (a subset of the
 * client's, chosen when linking). Unlinking deletes the row, which cuts access at once.
 */
export const partnerBusinessLinks = sqliteTable(
  'partner_business_links',
  {
    id: text('id').primaryKey(), // pbl_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    client_id: text('client_id')
      .notNull()
      .references(() => partnerClients.id, { onDelete: 'cascade' }),
    /** The scopes the business granted: a JSON array of PartnerScope. */
    scopes: text('scopes', { mode: 'json' }).$type<PartnerScope[]>().notNull(),
    linked_by_user_id: text('linked_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    created_at: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('partner_business_links_pair').on(t.business_id, t.client_id),
    index('partner_business_links_client_idx').on(t.client_id),
  ],
);
