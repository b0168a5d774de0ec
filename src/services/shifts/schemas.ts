import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { isValidDate, TIME_RE } from '../../lib/shift-time';

export const dateSchema = z
  .string()
  .max(10)
  .refine(isValidDate, { message: 'must be a calendar date YYYY-MM-DD' })
  .openapi({ example: '2026-12-01' });
export const timeSchema = z.string().max(5).regex(TIME_RE, 'must be HH:MM (24-hour)').openapi({ example: '09:00' });
/** 1/0 as the spec writes flags, or a JSON boolean. */
export const flagSchema = z
  .union([z.boolean(), z.literal(0), z.literal(1)])
  .transform((v) => v === true || v === 1)
  .openapi({ type: 'integer', enum: [0, 1], description: '1 or 0 (true/false also accepted)' });
export const rateSchema = z.number().positive().max(10_000).openapi({ example: 18.5, description: 'Per hour, in `currency`.' });
export const currencySchema = z.string().length(3).toUpperCase().openapi({ example: 'USD' });

export const sendRequestInput = z
  .object({
    business_id: z.string().min(1).max(ID_MAX_LENGTH).optional().openapi({ description: "Defaults to the caller's default business." }),
    shift_date: dateSchema,
    shift_in: timeSchema,
    shift_out: timeSchema.openapi({ description: 'Earlier than shift_in: the shift ends the next day.' }),
    shiftrole_id: z.number().int().positive(),
    hourly_rate: rateSchema,
    currency: currencySchema.optional().openapi({ description: "Defaults to the business's currency." }),
    shifter_id: z
      .string()
      .max(ID_MAX_LENGTH)
      .nullish()
      .transform((v) => (v ? v : null))
      .openapi({ description: 'The targeted shifter; blank for a broadcast.' }),
    is_broadcast: flagSchema.default(false),
    is_flexible: flagSchema.default(false),
    note: z.string().trim().max(1000).nullish(),
  })
  .openapi('SendShiftRequest');
export type SendRequestInput = z.infer<typeof sendRequestInput>;
