import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';

// The connections domain's request and response schemas: the route contracts import them, the
// services take z.infer of the request schemas and build z.infer of the response schemas.

export const CONNECTION_STATUSES = ['pending', 'accepted', 'declined', 'removed'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export const sideSchema = z.enum(['business', 'shifter']);
export type Side = z.infer<typeof sideSchema>;

export const sendConnectionInput = z
  .object({
    business_id: z.string().min(1).max(ID_MAX_LENGTH),
    shifter_id: z
      .string()
      .max(ID_MAX_LENGTH)
      .nullish()
      .transform((v) => (v ? v : null))
      .openapi({
        description:
          'Sent by the business side: the shifter to connect with. Blank when a shifter sends (their own profile is the other party).',
      }),
    as: sideSchema.optional().openapi({
      description:
        'Which side the caller sends from; only needed by dual-profile callers. Default: business when shifter_id is given, else shifter.',
    }),
  })
  .openapi('SendConnectionRequest');
export type SendConnectionInput = z.infer<typeof sendConnectionInput>;

export const listConnectionsInput = z
  .object({
    as: sideSchema.optional().openapi({ description: 'Only one side of a dual-profile account (default: every side the caller has).' }),
    business_id: z
      .string()
      .min(1)
      .max(ID_MAX_LENGTH)
      .optional()
      .openapi({ description: 'Only this business (the caller must own it or be an active teammate); implies as=business.' }),
    status: z
      .enum(CONNECTION_STATUSES)
      .optional()
      .openapi({ description: 'Default: pending and accepted. declined/removed rows are listed under `closed`.' }),
  })
  .openapi('ListConnections');
export type ListConnectionsInput = z.infer<typeof listConnectionsInput>;

// ---- Responses ----

export const connectionSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    business_name: z.string(),
    business_slug: z.string(),
    shifter_id: z.string(),
    shifter_name: z.string(),
    shifter_slug: z.string(),
    initiated_by: sideSchema,
    status: z.enum(CONNECTION_STATUSES),
    created_at: z.string(),
    updated_at: z.string(),
    responded_at: z.string().nullable(),
  })
  .openapi('Connection');
/** The API shape of a connection (request authorization). */
export type ConnectionView = z.infer<typeof connectionSchema>;

export const listedConnectionSchema = connectionSchema
  .extend({ side: sideSchema.openapi({ description: 'The side the caller stands on in this connection.' }) })
  .openapi('ListedConnection');
export type ListedConnection = z.infer<typeof listedConnectionSchema>;

export const connectionListsSchema = z
  .object({
    incoming: z
      .array(listedConnectionSchema)
      .openapi({ description: 'Pending, sent by the other side: the caller may accept or decline.' }),
    outgoing: z.array(listedConnectionSchema).openapi({ description: "Pending, sent by the caller's side." }),
    accepted: z.array(listedConnectionSchema).openapi({ description: 'Connected pairs (the crew).' }),
    closed: z.array(listedConnectionSchema).openapi({ description: 'Declined or removed; filled only when status asks for them.' }),
  })
  .openapi('ConnectionLists');
export type ConnectionLists = z.infer<typeof connectionListsSchema>;
