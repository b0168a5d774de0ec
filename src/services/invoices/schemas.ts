import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { INVOICE_STATUSES } from '../../db/schema/invoices';
import { pagingQuery } from '../kernel';

/** How much of a paid invoice has been refunded (succeeded and pending refunds). */
export const INVOICE_REFUND_STATUSES = ['none', 'partial', 'full'] as const;

/** The export bound of spec 8: one page (and one CSV) holds at most this many rows. */
export const INVOICE_LIST_MAX = 5000;
export const INVOICE_LIST_DEFAULT = 100;

const iso = z.string().openapi({ description: 'ISO 8601 UTC.', example: '2026-11-20T14:00:00.000Z' });

/**
 * The statuses a row shows (spec 3.4: none but pending and paid). A failed charge leaves the invoice
 * pending; the `failed` filter finds those (see INVOICE_FILTERS), and refunds show in their own fields.
 */
export const INVOICE_ROW_STATUSES = ['pending', 'paid'] as const;

export const INVOICE_FILTERS = ['all', ...INVOICE_STATUSES] as const;

export const listInvoicesQuery = z.object({
  business_id: z.string().min(1).max(ID_MAX_LENGTH).openapi({ description: 'The business whose invoices to list (owner or admin only).' }),
  status: z
    .enum(INVOICE_FILTERS)
    .default('all')
    .openapi({
      description:
        'all (default); pending: not paid yet, including those whose last charge failed or that wait for authentication; ' +
        'paid: paid, refunded or not (see refunded_amount); failed: pending invoices whose last charge attempt failed ' +
        '(failed_at set) with no attempt or authentication pending since. A failed invoice is listed under pending too.',
    }),
  ...pagingQuery({ max: INVOICE_LIST_MAX, default: INVOICE_LIST_DEFAULT }),
});
export type ListInvoicesQuery = z.infer<typeof listInvoicesQuery>;

/** The columns of spec 2.10, in its order, then the strong-authentication fields of a payment. */
export const INVOICE_COLUMNS = [
  'invoice_id',
  'shift_request_id',
  'shift_date',
  'shift_in',
  'shift_out',
  'shifter_id',
  'shifter_name',
  'amount',
  'currency',
  'conversion_amount',
  'conversion_currency',
  'status',
  'paid_at',
] as const;

export const invoiceRowSchema = z
  .object({
    invoice_id: z.string(),
    shift_request_id: z.string(),
    shift_date: z.string().openapi({ description: "YYYY-MM-DD, wall clock in the business's time zone." }),
    shift_in: z.string().openapi({ description: 'HH:MM, wall clock.' }),
    shift_out: z.string().openapi({ description: 'HH:MM, wall clock; before shift_in means the next day.' }),
    shifter_id: z.string().nullable(),
    shifter_name: z.string().nullable(),
    amount: z.number().openapi({ description: 'Decimal, in currency.' }),
    currency: z.string(),
    conversion_amount: z.number().nullable().openapi({ description: 'Decimal, when the charge settles in another currency.' }),
    conversion_currency: z.string().nullable(),
    status: z.enum(INVOICE_ROW_STATUSES).openapi({
      description:
        'pending or paid (an invoice is paid if and only if its status is paid). A failed charge leaves it pending (see failed_at); ' +
        'a refund leaves it paid (see refunded_amount, refund_status).',
    }),
    paid_at: iso.nullable(),
    requires_action: z.boolean().openapi({ description: 'The issuer asks the customer to authenticate the charge (spec 3.4).' }),
    requires_action_at: iso.nullable(),
    failed_at: iso.nullable().openapi({
      description: 'When the last charge attempt failed; cleared when a new attempt makes a new payment. Kept once paid, as history.',
    }),
    refunded_amount: z.number().openapi({
      description:
        'Refunded so far (succeeded and pending refunds), a decimal in the charged currency: conversion_currency when set, else currency. 0 when none.',
    }),
    refundable_remaining: z.number().openapi({
      description:
        'What may still be refunded, a decimal in the charged currency (the charge less refunded_amount); 0 unless the invoice is paid. A refund of more is refused (REFUND-AMOUNT-ERR).',
    }),
    refund_status: z.enum(INVOICE_REFUND_STATUSES).openapi({
      description: 'none; partial: part of the charge refunded; full: all of it. The status stays paid either way.',
    }),
  })
  .openapi('InvoiceRow');
export type InvoiceRowView = z.infer<typeof invoiceRowSchema>;

export const invoiceListSchema = z
  .object({
    data: z.array(invoiceRowSchema),
    next_cursor: z.string().nullable(),
  })
  .openapi('InvoiceList');
export type InvoiceList = z.infer<typeof invoiceListSchema>;
