import { z } from '@hono/zod-openapi';
import { isValidTimeZone } from '../../lib/time';

export const timezoneSchema = z
  .string()
  .max(64)
  .refine(isValidTimeZone, { message: 'must be an IANA time zone name, e.g. America/New_York' })
  .openapi({ example: 'America/New_York' });

export const emailSchema = z
  .email()
  .max(254)
  .transform((e) => e.toLowerCase())
  .openapi({ example: 'sam@example.com' });

export const shifterProfileInput = z.object({
  display_name: z.string().trim().min(1).max(100).optional().openapi({ description: 'Defaults to the account name.' }),
  headline: z.string().trim().max(140).optional(),
  city_id: z.number().int().positive().optional(),
  timezone: timezoneSchema
    .optional()
    .openapi({ description: "Earnings months are computed in this zone. Defaults to the city's zone, else UTC." }),
  currency: z.string().length(3).toUpperCase().optional(),
});

export const businessProfileInput = z.object({
  name: z.string().trim().min(1).max(120),
  timezone: timezoneSchema,
  address: z.string().trim().max(300).optional(),
  city_id: z.number().int().positive().optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  currency: z
    .string()
    .length(3)
    .toUpperCase()
    .optional()
    .openapi({ description: 'ISO 4217; defaults to the country’s currency, else USD.' }),
});

export type ShifterProfileInput = z.infer<typeof shifterProfileInput>;
export type BusinessProfileInput = z.infer<typeof businessProfileInput>;
