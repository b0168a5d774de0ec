import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { connectionSchema } from './schemas';

// The request and response schemas of crew invitations (by email or phone), the crew join link and
// joining with either: the route contracts import them, the services take and return their types.

/** A token of an invitation or a join link: 22 base62 characters (about 131 random bits). */
export const INVITE_TOKEN_PATTERN = /^[0-9A-Za-z]{22}$/;
export const INVITE_NAME_MAX = 100;
export const PHONE_INPUT_MAX = 32;

export const CREW_INVITE_CHANNELS = ['email', 'sms'] as const;
export type CrewInviteChannel = (typeof CREW_INVITE_CHANNELS)[number];
export const CREW_INVITE_STATUSES = ['pending', 'expired', 'accepted', 'revoked', 'replaced'] as const;
export type CrewInviteStatus = (typeof CREW_INVITE_STATUSES)[number];

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => v?.trim() || null);

export const inviteToCrewInput = z
  .object({
    business_id: z.string().min(1).max(ID_MAX_LENGTH),
    email: optionalText(254).openapi({
      description: 'The person’s email address. Give this or `phone`, not both.',
      example: 'sam@example.com',
    }),
    phone: optionalText(PHONE_INPUT_MAX).openapi({
      description: 'The person’s mobile number with its country code (spaces, dots, dashes and brackets are ignored).',
      example: '+1 212 555 0100',
    }),
    name: optionalText(INVITE_NAME_MAX).openapi({
      description: 'Their name as the business knows it: shown to the business beside the invitation and used in the message.',
    }),
  })
  .openapi('InviteToCrewRequest');
export type InviteToCrewInput = z.infer<typeof inviteToCrewInput>;

export const crewInviteSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    channel: z.enum(CREW_INVITE_CHANNELS).openapi({ description: 'How it was sent: email, or sms (a text message).' }),
    address: z.string().openapi({ description: 'The address it went to, masked (s•••@example.com, •••• 42): never shown in full.' }),
    name: z.string().nullable(),
    status: z.enum(CREW_INVITE_STATUSES).openapi({
      description:
        'pending (the link works), expired, accepted (someone joined with it), revoked (withdrawn by the business) or replaced (sent again: only the newest link works).',
    }),
    created_at: z.string().openapi({ description: 'When it was sent.' }),
    expires_at: z.string(),
    responded_at: z.string().nullable(),
  })
  .openapi('CrewInvite');
export type CrewInviteView = z.infer<typeof crewInviteSchema>;

export const crewInviteListSchema = z.object({ data: z.array(crewInviteSchema) }).openapi('CrewInviteList');
export type CrewInviteList = z.infer<typeof crewInviteListSchema>;

export const crewInviteOutcomeSchema = z
  .object({
    sent_as: z.enum(['connection_request', 'invitation']).openapi({
      description:
        'connection_request: a shifter account has this verified email, so it was sent a connection request (`connection`); invitation: a message with a join link went to the address (`invite`).',
    }),
    connection: connectionSchema.nullable(),
    invite: crewInviteSchema.nullable(),
  })
  .openapi('CrewInviteOutcome');
export type CrewInviteOutcome = z.infer<typeof crewInviteOutcomeSchema>;

export const listCrewInvitesQuery = z.object({ business_id: z.string().min(1).max(ID_MAX_LENGTH) });
export const businessIdInput = z.object({ business_id: z.string().min(1).max(ID_MAX_LENGTH) }).openapi('CrewJoinLinkRequest');

export const joinLinkSchema = z
  .object({
    business_id: z.string(),
    url: z.string().openapi({ description: 'The link to share or print (its QR code on the crew page and the poster).' }),
    uses: z.number().int().openapi({ description: 'People who joined with it.' }),
    created_at: z.string(),
  })
  .openapi('CrewJoinLink');
export type JoinLinkView = z.infer<typeof joinLinkSchema>;

export const joinLinkAnswerSchema = z
  .object({ link: joinLinkSchema.nullable().openapi({ description: 'Null until the business makes one.' }) })
  .openapi('CrewJoinLinkAnswer');
export type JoinLinkAnswer = z.infer<typeof joinLinkAnswerSchema>;

export const joinCrewInput = z
  .object({
    token: z.string().max(64).openapi({ description: 'The token at the end of the invitation’s or join link’s address (/join/{token}).' }),
  })
  .openapi('JoinCrewRequest');
export type JoinCrewInput = z.infer<typeof joinCrewInput>;

export const joinedCrewSchema = z
  .object({
    connection: connectionSchema,
    already_connected: z.boolean().openapi({ description: 'True when the caller was in the crew already (nothing changed).' }),
  })
  .openapi('JoinedCrew');
export type JoinedCrew = z.infer<typeof joinedCrewSchema>;

/** What opening an invitation or join link shows (the landing page): never the address it went to. */
export interface CrewInvitationPreview {
  kind: 'invite' | 'link';
  business: { id: string; name: string; slug: string; city: string | null };
  /** open: it can be used; the rest say why not. */
  state: 'open' | 'used' | 'withdrawn' | 'expired' | 'replaced';
  /** The name the business typed for the invitee (an invitation only). */
  name: string | null;
  expires_at: string | null;
  /**
   * The signed-in viewer's standing: in the crew already, acting for the business (its owner or a
   * teammate), without a shifter profile yet, or free to join; null for a visitor.
   */
  viewer: 'in_crew' | 'acts_for' | 'no_shifter' | 'can_join' | null;
}
