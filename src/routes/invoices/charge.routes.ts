import { z } from '@hono/zod-openapi';
import { authRoute, jsonContent, pathParam } from '../../http/openapi';
import { chargeResultSchema } from '../../services/payments';

export const chargeInvoiceRoute = authRoute({
  method: 'post',
  path: '/v1/invoices/{invoiceId}/charge',
  operationId: 'chargeInvoice',
  authorization: 'business-owner',
  tags: ['Invoices'],
  summary: "Charge a pending invoice now, off-session on the business's default card",
  description:
    'The business owner or an admin (an active teammate gets 403, anyone else 404). One charge attempt at a time: concurrent calls make one PaymentIntent ' +
    '(the others get 409 PAYMENT-IN-PROGRESS-ERR). A decline is a result (status failed, decline_code), not an error; the invoice stays pending. ' +
    'When the issuer demands authentication the result is requires_action with payment_intent_id and a fresh client_secret, the invoice stays pending ' +
    'with requires_action set, and the owner is emailed the link to /finance/web/authenticate/{invoice_id}; charging it again then starts no new ' +
    'payment and answers requires_action again. Honours Idempotency-Key.',
  request: { params: z.object({ invoiceId: pathParam('invoiceId') }) },
  responses: { 200: jsonContent(chargeResultSchema, 'What the charge came to.') },
  errors: [
    'INVOICE-NOT-FND-ERR',
    'INVOICE-PAID-ERR',
    'PAYMENT-IN-PROGRESS-ERR',
    'PAYMENT-CARD-REQ-ERR',
    'PAYMENT-CAP-ERR',
    'PAYMENT-GATEWAY-ERR',
  ],
});
