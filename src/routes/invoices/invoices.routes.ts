import { z } from '@hono/zod-openapi';
import { authRoute, jsonContent } from '../../http/openapi';
import { invoiceListSchema, listInvoicesQuery } from '../../services/invoices';

const tags = ['Invoices'];

export const listInvoices = authRoute({
  method: 'get',
  path: '/v1/invoices/list',
  operationId: 'listInvoices',
  authorization: 'business-owner',
  tags,
  summary: "A business's invoices, newest first, filtered by status (up to 5,000 rows a page)",
  description:
    'One invoice per worked shift (hours × rate in the shift’s currency). Only the business owner or an admin; an active teammate gets 403, anyone else 404. ' +
    'A row’s status is pending or paid: a failed charge leaves it pending with failed_at set (the failed filter lists those), and a refund leaves it paid ' +
    'with refunded_amount and refund_status (none, partial, full) telling how much went back.',
  request: { query: listInvoicesQuery },
  responses: { 200: jsonContent(invoiceListSchema, 'A page of invoice rows (spec 2.10 columns).') },
  errors: ['BUSINESS-NOT-FND-ERR', 'FORBIDDEN-ERR'],
});

export const exportInvoicesCsv = authRoute({
  method: 'get',
  path: '/v1/invoices/export.csv',
  operationId: 'exportInvoicesCsv',
  authorization: 'business-owner',
  tags,
  summary: 'The same invoice rows as CSV (header row, RFC 4180 quoting, formula cells guarded)',
  description:
    'Same filters and access as listInvoices; next_cursor, when more rows follow, is in the X-Next-Cursor header. Text cells starting with =, +, -, @, tab or CR get a leading apostrophe.',
  request: { query: listInvoicesQuery },
  responses: {
    200: {
      description:
        'CSV, columns: invoice_id, shift_request_id, shift_date, shift_in, shift_out, shifter_id, shifter_name, amount, currency, conversion_amount, conversion_currency, status, paid_at.',
      content: { 'text/csv': { schema: z.string().max(10_000_000) } },
    },
  },
  errors: ['BUSINESS-NOT-FND-ERR', 'FORBIDDEN-ERR'],
});
