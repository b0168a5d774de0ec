import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { refundInput, refundResultSchema } from '../../services/payments';

const tags = ['Finance'];

export const refundInvoice = authRoute({
  method: 'post',
  path: '/v1/finance/refund/{invoiceId}',
  operationId: 'refundInvoice',
  authorization: 'business-owner',
  tags,
  summary: "Refund a paid invoice, fully or in part; the shifter's transfer is reversed in proportion",
  description:
    'Only the business owner or an admin; an active teammate and the invoice’s shifter get 403, anyone else 404. ' +
    '`amount` is a decimal in the charged currency; absent, everything still refundable. Refunds never exceed the charge, also when ' +
    'several are asked at once: the loser gets 422 `REFUND-AMOUNT-ERR` with `details.refundable_remaining`. A refusal by the processor ' +
    'is 502 `PAYMENT-GATEWAY-ERR` and refunds nothing (the amount stays refundable). The transfer to the shifter is reversed by ' +
    'round(transfer × refund ÷ charged); the refund that leaves nothing refundable reverses all that is left of it. ' +
    'The business and the shifter are notified (refund_issued). Send an Idempotency-Key to retry safely.',
  request: { params: z.object({ invoiceId: pathParam('invoiceId') }), body: jsonBody(refundInput) },
  responses: { 201: jsonContent(refundResultSchema, 'The refund made.') },
  errors: ['INVOICE-NOT-FND-ERR', 'INVOICE-NOT-PAID-ERR', 'REFUND-AMOUNT-ERR', 'PAYMENT-GATEWAY-ERR'],
});
