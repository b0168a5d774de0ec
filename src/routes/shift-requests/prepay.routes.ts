import { authRoute, idParam, jsonContent } from '../../http/openapi';
import { chargeResultSchema } from '../../services/payments';

export const prepayShiftRoute = authRoute({
  method: 'post',
  path: '/v1/shift_request/{id}/prepay',
  operationId: 'prepayShift',
  authorization: 'business-owner',
  tags: ['Shift requests'],
  summary: 'Pre-pay a claimed or accepted shift before it is worked',
  description:
    "The business owner only (an active teammate gets 403, anyone else 404). Creates the shift's invoice (scheduled hours × rate) and charges it " +
    'off-session on the default card, as chargeInvoice does (requires_action and declines are results). The shift stays accepted (2) until it is ' +
    'clocked out, which then completes it (5). Any other state is 409 SHFT-STATE-ERR; a shift already pre-paid answers succeeded again.',
  request: { params: idParam },
  responses: { 200: jsonContent(chargeResultSchema, 'What the charge came to.') },
  errors: [
    'SHFT-NOT-FND-ERR',
    'SHFT-STATE-ERR',
    'INVOICE-PAID-ERR',
    'PAYMENT-IN-PROGRESS-ERR',
    'PAYMENT-CARD-REQ-ERR',
    'PAYMENT-CAP-ERR',
    'PAYMENT-GATEWAY-ERR',
  ],
});
