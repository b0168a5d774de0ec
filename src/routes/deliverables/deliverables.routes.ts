import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import { deliverableListSchema, deliverableSchema, recordDeliverableInput } from '../../services/deliverables/schemas';

const tags = ['Shift deliverables'];

export const recordShiftDeliverable = authRoute({
  method: 'post',
  operationId: 'recordShiftDeliverable',
  path: '/v1/shift_request/{id}/deliverables',
  tags,
  summary:
    "Record what was delivered for a shift: a note and links (the shifter once it is worked, or the business's owner or active teammates)",
  request: { params: idParam, body: jsonBody(recordDeliverableInput) },
  responses: { 201: jsonContent(deliverableSchema, 'The deliverable.') },
  errors: ['SHFT-NOT-FND-ERR', 'SHFT-STATE-ERR'],
});

export const listShiftDeliverables = authRoute({
  method: 'get',
  operationId: 'listShiftDeliverables',
  path: '/v1/shift_request/{id}/deliverables',
  tags,
  summary: "A shift's deliverables, oldest first (its parties and admins)",
  request: { params: idParam },
  responses: { 200: jsonContent(deliverableListSchema, 'The deliverables.') },
  errors: ['SHFT-NOT-FND-ERR'],
});
