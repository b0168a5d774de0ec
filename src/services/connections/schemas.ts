import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';

export const CONNECTION_STATUSES = ['pending', 'accepted', 'declined', 'removed'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export type Side = 'business' | 'shifter';
export const sideSchema = z.enum(['business', 'shifter']);

export const sendConnectionInput = z
  .object({
    business_id: z.string().min(1).max(ID_MAX_LENGTH),
    shifter_id: z
      .string()
      .max(ID_MAX_LENGTH)
      .nullish()
      .transform((v) => (v ? v : null))
      .openapi({ description: 'Sent by the business side: the shifter to connect with. Blank when a shifter sends (their own profile is the other party).' }),
    as: sideSchema.optional().openapi({ description: 'Which side the caller sends from; only needed by dual-profile callers. Default: business when shifter_id is given, else shifter.' }),
  })
  .openapi('SendConnectionRequest');
export type SendConnectionInput = z.infer<typeof sendConnectionInput>;

export const listConnectionsInput = z
  .object({
    as: sideSchema.optional().openapi({ description: 'Only one side of a dual-profile account (default: every side the caller has).' }),
    business_id: z.string().min(1).max(ID_MAX_LENGTH).optional().openapi({ description: 'Only this business (the caller must own it or be an active teammate); implies as=business.' }),
    status: z.enum(CONNECTION_STATUSES).optional().openapi({ description: 'Default: pending and accepted. declined/removed rows are listed under `closed`.' }),
  })
  .openapi('ListConnections');
export type ListConnectionsInput = z.infer<typeof listConnectionsInput>;
