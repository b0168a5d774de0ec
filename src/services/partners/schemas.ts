import { z } from '@hono/zod-openapi';
import { PARTNER_CLIENT_STATUSES, PARTNER_SCOPES, PARTNER_TIERS } from '../../db/schema/partners';
import { flag01 } from '../../lib/flags';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { dateSchema, sendRequestInput } from '../shifts';
import { pagingQuery } from '../kernel';

// The partner domain's request and response schemas: client registration and credentials, business
// links (consent), the OAuth token exchange and the partner-facing reads and writes.

export const partnerScopeSchema = z.enum(PARTNER_SCOPES).openapi({
  description:
    'shifts:read: a linked business’s shift requests and open broadcasts; shifts:write: post shifts for it; shifters:read: its crew; webhooks:manage: the client’s webhook endpoints.',
});
export const partnerTierSchema = z.enum(PARTNER_TIERS).openapi({
  description: 'self_serve (default), trusted or internal; each tier has its own rate limit. Only an admin sets trusted or internal.',
});
const scopeList = z
  .array(partnerScopeSchema)
  .min(1)
  .max(PARTNER_SCOPES.length)
  .transform((s) => [...new Set(s)]);

// ---- Clients (managed by their owner with a personal key or session) ----

export const createClientBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: scopeList.openapi({ description: 'What the client’s credentials may do; each business link grants a subset.' }),
    client_tier: partnerTierSchema.optional(),
  })
  .openapi('CreatePartnerClient');
export type CreateClientInput = z.infer<typeof createClientBody>;

export const updateClientBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    scopes: scopeList.optional().openapi({
      description:
        'A removed scope stops working at once, tokens already issued included; an added one reaches no business until it grants it.',
    }),
    client_tier: partnerTierSchema.optional(),
    status: z
      .enum(PARTNER_CLIENT_STATUSES)
      .optional()
      .openapi({ description: 'disabled: every key and token of the client stops working at once (active turns them back on).' }),
  })
  .openapi('UpdatePartnerClient');
export type UpdateClientInput = z.infer<typeof updateClientBody>;

/** The longest overlap a rotation may keep the old secret for. */
export const MAX_OVERLAP_SECONDS = 24 * 3600;
export const rotateBody = z
  .object({
    overlap_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_OVERLAP_SECONDS)
      .optional()
      .openapi({ description: 'Keep the old secret working this long (at most 24 hours); 0 or absent: revoked at once.' }),
  })
  .openapi('RotatePartnerSecret');
export type RotateInput = z.infer<typeof rotateBody>;

export const partnerClientSchema = z
  .object({
    id: z.string().openapi({ description: 'The client id (`pc_…`), also the OAuth client_id.' }),
    name: z.string(),
    owner_user_id: z.string(),
    client_tier: partnerTierSchema,
    scopes: z.array(partnerScopeSchema),
    status: z.enum(PARTNER_CLIENT_STATUSES),
    rate_limit: z.object({ limit: z.number().int(), window_seconds: z.number().int() }).openapi({
      description: 'Requests per window for all of the client’s credentials together (its tier’s budget).',
    }),
    api_key_prefix: z.string().nullable().openapi({ description: 'The first 12 characters of the current x-api-key.' }),
    client_secret_prefix: z.string().nullable().openapi({ description: 'The first 12 characters of the current client secret.' }),
    linked_business_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('PartnerClient');
export type PartnerClientView = z.infer<typeof partnerClientSchema>;

export const issuedClientSchema = partnerClientSchema
  .extend({
    api_key: z.string().openapi({ description: 'The x-api-key (`smp_…`), shown in this answer only.' }),
    client_secret: z.string().openapi({ description: 'The OAuth client secret (`smcs_…`), shown in this answer only.' }),
  })
  .openapi('PartnerClientIssued');
export type IssuedClientView = z.infer<typeof issuedClientSchema>;

export const clientListSchema = z.object({ data: z.array(partnerClientSchema), next_cursor: z.string().nullable() });
export type ClientList = z.infer<typeof clientListSchema>;

export const rotatedSchema = z
  .object({
    client_id: z.string(),
    kind: z.enum(['api_key', 'client_secret']),
    secret: z.string().openapi({ description: 'The new x-api-key or client secret, shown in this answer only.' }),
    prefix: z.string(),
    created_at: z.string(),
    previous_expires_at: z
      .string()
      .nullable()
      .openapi({ description: 'Until when the previous one keeps working (null: it was revoked at once).' }),
  })
  .openapi('RotatedPartnerSecret');
export type RotatedView = z.infer<typeof rotatedSchema>;

// ---- Links (a business's consent, managed by its owner or an admin) ----

export const linkBody = z
  .object({
    client_id: z.string().min(1).max(ID_MAX_LENGTH),
    scopes: scopeList
      .optional()
      .openapi({ description: 'The scopes granted to this client for this business; default: all the client’s.' }),
  })
  .openapi('LinkPartnerClient');
export type LinkInput = z.infer<typeof linkBody>;

export const updateLinkBody = z
  .object({
    scopes: scopeList.openapi({
      description:
        'The scopes granted to this client for this business from now on, replacing the granted ones; each must be one of the client’s. A removed scope stops working with the partner’s next request.',
    }),
  })
  .openapi('UpdatePartnerLink');
export type UpdateLinkInput = z.infer<typeof updateLinkBody>;

export const partnerLinkSchema = z
  .object({
    business_id: z.string(),
    client_id: z.string(),
    client_name: z.string(),
    client_tier: partnerTierSchema,
    client_status: z.enum(PARTNER_CLIENT_STATUSES),
    scopes: z.array(partnerScopeSchema).openapi({ description: 'What the business granted.' }),
    linked_by_user_id: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('PartnerLink');
export type PartnerLinkView = z.infer<typeof partnerLinkSchema>;
export const linkListSchema = z.object({ data: z.array(partnerLinkSchema), next_cursor: z.string().nullable() });
export type LinkList = z.infer<typeof linkListSchema>;

// ---- OAuth 2.0 client credentials (RFC 6749 §4.4) ----

export const tokenRequestBody = z
  .object({
    grant_type: z.string().max(100).openapi({ example: 'client_credentials' }),
    client_id: z.string().max(ID_MAX_LENGTH).optional().openapi({ description: 'With client_secret, when not sent as HTTP Basic.' }),
    client_secret: z.string().max(200).optional(),
    scope: z
      .string()
      .max(500)
      .optional()
      .openapi({ description: 'Space-separated; a subset of the client’s scopes (default: all of them).' }),
  })
  .openapi('PartnerTokenRequest');
export type TokenRequest = z.infer<typeof tokenRequestBody>;

export const tokenResponseSchema = z
  .object({
    access_token: z.string().openapi({ description: 'An opaque bearer token (`smpt_…`).' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Seconds until it expires.' }),
    scope: z.string().openapi({ description: 'The granted scopes, space-separated.' }),
  })
  .openapi('PartnerToken');
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const OAUTH_ERRORS = ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope'] as const;
export type OAuthErrorCode = (typeof OAUTH_ERRORS)[number];
export const oauthErrorSchema = z
  .object({ error: z.enum(OAUTH_ERRORS), error_description: z.string() })
  .openapi('OAuthError', { description: 'RFC 6749 §5.2: the token route answers its own errors in this shape.' });
export type OAuthErrorBody = z.infer<typeof oauthErrorSchema>;

// ---- The partner-facing surface (partner credentials) ----

const pageParams = pagingQuery();
export const pageQuery = z.object(pageParams);
export type PageQuery = z.infer<typeof pageQuery>;

const flagQuery = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true')
  .openapi({ description: '1 or 0 (true/false also accepted).' });

export const partnerBusinessSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    timezone: z.string(),
    currency: z.string(),
    scopes: z.array(partnerScopeSchema).openapi({ description: 'What the business granted this client.' }),
    linked_at: z.string(),
  })
  .openapi('PartnerBusiness');
export type PartnerBusinessView = z.infer<typeof partnerBusinessSchema>;
export const partnerBusinessListSchema = z.object({ data: z.array(partnerBusinessSchema), next_cursor: z.string().nullable() });
export type PartnerBusinessList = z.infer<typeof partnerBusinessListSchema>;

export const partnerShiftsQuery = z.object({
  status: z.coerce.number().int().min(1).max(7).optional().openapi({ description: 'One request_status (1–7).' }),
  shifter_id: z.string().max(ID_MAX_LENGTH).optional(),
  shiftrole_id: z.coerce.number().int().positive().optional(),
  date_from: dateSchema.optional(),
  date_to: dateSchema.optional(),
  is_broadcast: flagQuery.optional(),
  ...pageParams,
});
export type PartnerShiftsQuery = z.infer<typeof partnerShiftsQuery>;

export const partnerBroadcastsQuery = z.object({
  shift_date: dateSchema.optional(),
  date_from: dateSchema.optional(),
  date_to: dateSchema.optional(),
  shiftrole_id: z.coerce.number().int().positive().optional(),
  ...pageParams,
});
export type PartnerBroadcastsQuery = z.infer<typeof partnerBroadcastsQuery>;

export const partnerShiftBody = sendRequestInput.omit({ business_id: true }).openapi('PartnerShiftRequest');
export type PartnerShiftInput = z.infer<typeof partnerShiftBody>;

export const partnerShifterSchema = z
  .object({
    shifter_id: z.string(),
    display_name: z.string(),
    slug: z.string(),
    headline: z.string().nullable(),
    accepts_requests: flag01.openapi({ description: '1: the shifter takes targeted requests; 0: paused.' }),
    connected_at: z.string().nullable(),
  })
  .openapi('PartnerShifter');
export type PartnerShifterView = z.infer<typeof partnerShifterSchema>;
export const partnerShifterListSchema = z.object({ data: z.array(partnerShifterSchema), next_cursor: z.string().nullable() });
export type PartnerShifterList = z.infer<typeof partnerShifterListSchema>;

export const businessParams = z.object({
  business_id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .openapi({ param: { name: 'business_id', in: 'path' } }),
});
export const clientParams = z.object({
  client_id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .openapi({ param: { name: 'client_id', in: 'path' } }),
});
export const linkParams = businessParams.extend(clientParams.shape);
