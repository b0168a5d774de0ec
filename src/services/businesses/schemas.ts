import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { TEAMMATE_STATUS } from '../access';
import { emailSchema, timezoneSchema } from '../accounts';

// The businesses domain's request and response schemas (teammates, invitations, settings): the route
// contracts import them, the services take and build z.infer of them.

/** Teammates listed per business. */
export const MAX_LISTED_TEAMMATES = 500;
/** Pending invitations a business may have at once. */
export const MAX_PENDING_INVITATIONS = 100;

/** Stored statuses, plus `expired`: a pending invitation past its expiry, as every view shows it. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const teammateSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    status: z
      .number()
      .int()
      .openapi({ enum: Object.values(TEAMMATE_STATUS), description: '1 = active, 0 = suspended.' }),
    is_active: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Teammate');
export type TeammateView = z.infer<typeof teammateSchema>;

export const teammateListSchema = z.object({ data: z.array(teammateSchema).max(MAX_LISTED_TEAMMATES) });
export type TeammateList = z.infer<typeof teammateListSchema>;

export const teammateStatusInput = z.object({ status: z.union([z.literal(0), z.literal(1)]) });
export type TeammateStatusInput = z.infer<typeof teammateStatusInput>;

export const inviteTeammateInput = z.object({ email: emailSchema });
export type InviteTeammateInput = z.infer<typeof inviteTeammateInput>;

/** What the business sees of an invitation. */
export const invitationSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    email: z.string(),
    status: z.enum(INVITATION_STATUSES),
    expires_at: z.string(),
    responded_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('TeammateInvitation');
export type InvitationView = z.infer<typeof invitationSchema>;

export const invitationListSchema = z.object({ data: z.array(invitationSchema).max(MAX_PENDING_INVITATIONS) });
export type InvitationList = z.infer<typeof invitationListSchema>;

/** What the invitee sees: who invites them, to which business. */
export const receivedInvitationSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    business_name: z.string(),
    invited_by_name: z.string(),
    email: z.string(),
    status: z.enum(INVITATION_STATUSES),
    expires_at: z.string(),
    responded_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('ReceivedTeammateInvitation');
export type ReceivedInvitationView = z.infer<typeof receivedInvitationSchema>;

export const receivedInvitationListSchema = z.object({ data: z.array(receivedInvitationSchema).max(MAX_PENDING_INVITATIONS) });
export type ReceivedInvitationList = z.infer<typeof receivedInvitationListSchema>;

const weeklyLaborBudget = z.number().nonnegative().max(100_000_000).nullable();

/** PUT /v1/business/update_settings: only the fields sent change; null clears a nullable one. */
export const businessSettingsInput = z
  .object({
    business_id: z.string().max(ID_MAX_LENGTH).optional().openapi({ description: "Defaults to the caller's default business." }),
    weekly_labor_budget: weeklyLaborBudget.optional(),
    auto_fill_on_cancel: z.boolean().optional(),
    geofence_radius_m: z.number().int().min(10).max(100_000).nullable().optional().openapi({ description: 'Null: no enforcement.' }),
    require_clock_photo: z.boolean().optional(),
    timezone: timezoneSchema.optional(),
    latitude: z.number().min(-90).max(90).nullable().optional(),
    longitude: z.number().min(-180).max(180).nullable().optional(),
    name: z.string().trim().min(1).max(120).optional(),
    address: z.string().trim().max(300).nullable().optional(),
  })
  .strict()
  .openapi('BusinessSettings');
export type BusinessSettingsInput = z.infer<typeof businessSettingsInput>;

export const weeklyBudgetInput = z.object({ weekly_labor_budget: weeklyLaborBudget });
export type WeeklyBudgetInput = z.infer<typeof weeklyBudgetInput>;
