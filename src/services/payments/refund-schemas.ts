import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { REFUND_STATUSES } from '../../db/schema/payments';

// Request and response schemas of refunds and shifters' payout accounts: the route contracts import
// them, the services take z.infer of the inputs and build z.infer of the views.

const iso = z.string().max(40).openapi({ format: 'date-time', example: '2026-12-01T14:00:00.000Z' });

export const refundInput = z
  .object({
    amount: z.number().positive().max(100_000_000).optional().openapi({
      example: 25.5,
      description: "A decimal in the invoice's charged currency (at most its minor-unit decimals). Absent: everything still refundable.",
    }),
    reason: z.string().trim().min(1).max(500).optional().openapi({ description: 'Why, for the record (not shown to the shifter).' }),
  })
  .openapi('RefundInput');
export type RefundInput = z.infer<typeof refundInput>;

export const refundResultSchema = z
  .object({
    refund_id: z.string().max(ID_MAX_LENGTH),
    invoice_id: z.string().max(ID_MAX_LENGTH),
    amount: z.number().openapi({ description: 'This refund, a decimal in `currency`.' }),
    currency: z.string().max(3).openapi({ example: 'usd' }),
    status: z.enum(REFUND_STATUSES).openapi({
      description: 'succeeded; pending while the processor has not finished it (its amount stays reserved); failed (given back).',
    }),
    refunded_total: z.number().openapi({ description: 'Refunded of the invoice so far (succeeded and pending refunds).' }),
    refundable_remaining: z.number().openapi({ description: 'What may still be refunded.' }),
    transfer_reversal: z
      .object({ id: z.string().max(255), amount: z.number() })
      .nullable()
      .openapi({ description: "The part of the shifter's transfer taken back for this refund; null when nothing was transferred." }),
    created_at: iso,
  })
  .openapi('RefundResult');
export type RefundResult = z.infer<typeof refundResultSchema>;

export const payoutAccountQuery = z.object({
  shifter_id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .optional()
    .openapi({ description: "Admins only: another shifter's account. Absent: the caller's own." }),
});
export type PayoutAccountQuery = z.infer<typeof payoutAccountQuery>;

export const payoutAccountSchema = z
  .object({
    set_up: z.boolean().openapi({ description: 'False until the shifter started onboarding (POST); the other fields are then empty.' }),
    shifter_id: z.string().max(ID_MAX_LENGTH),
    account_id: z.string().max(255).nullable().openapi({ example: 'acct_1Q2w3E4r5T6y7U8i' }),
    details_submitted: z.boolean(),
    payouts_enabled: z.boolean().openapi({ description: 'True once the processor lets the account receive transfers and pay out.' }),
  })
  .openapi('PayoutAccount');
export type PayoutAccountView = z.infer<typeof payoutAccountSchema>;

export const payoutOnboardingSchema = z
  .object({
    account_id: z.string().max(255),
    url: z.string().max(2048).openapi({ description: "The processor's one-time onboarding page; open it in a browser." }),
    expires_at: iso,
  })
  .openapi('PayoutOnboardingLink');
export type PayoutOnboardingView = z.infer<typeof payoutOnboardingSchema>;
