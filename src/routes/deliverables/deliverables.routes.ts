import { z } from '@hono/zod-openapi';
import { authRoute, idParam, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { uploadGuard } from '../../lib/uploads';
import {
  DELIVERABLE_FILE_MAX_BYTES,
  deliverableDeletedSchema,
  deliverableFileForm,
  deliverableFileSchema,
  deliverableListSchema,
  deliverableSchema,
  MAX_DELIVERABLES_PER_SIDE,
  MAX_FILES_PER_DELIVERABLE,
  recordDeliverableInput,
} from '../../services/deliverables';

const tags = ['Shift deliverables'];

export const recordShiftDeliverable = authRoute({
  method: 'post',
  operationId: 'recordShiftDeliverable',
  authorization: 'party',
  path: '/v1/shift_request/{id}/deliverables',
  tags,
  summary:
    "Record what was delivered for a shift: a note and links (the shifter once it is worked, or the business's owner or active teammates)",
  request: { params: idParam, body: jsonBody(recordDeliverableInput) },
  description: `At most ${MAX_DELIVERABLES_PER_SIDE} per shift from each side (its shifter; its business's people together); beyond that 422 DELIVERABLE-LIMIT-ERR until one is deleted.`,
  responses: { 201: jsonContent(deliverableSchema, 'The deliverable.') },
  errors: ['SHFT-NOT-FND-ERR', 'SHFT-STATE-ERR', 'DELIVERABLE-LIMIT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const listShiftDeliverables = authRoute({
  method: 'get',
  operationId: 'listShiftDeliverables',
  authorization: 'party',
  path: '/v1/shift_request/{id}/deliverables',
  tags,
  summary: "A shift's deliverables, oldest first (its parties and admins)",
  request: { params: idParam },
  responses: { 200: jsonContent(deliverableListSchema, 'The deliverables.') },
  errors: ['SHFT-NOT-FND-ERR'],
});

const deliverableParam = z.object({ id: pathParam('id'), deliverable_id: pathParam('deliverable_id') });

export const deleteShiftDeliverable = authRoute({
  method: 'delete',
  operationId: 'deleteShiftDeliverable',
  authorization: 'party',
  path: '/v1/shift_request/{id}/deliverables/{deliverable_id}',
  tags,
  summary: 'Delete a deliverable and its files (its author only, while a party of the shift)',
  description:
    'The deliverable, its files and their stored objects are removed, and its place under the per-side cap is free again. ' +
    'The other party, teammates and admins, who may read it, get 403; anyone else, and a deliverable already deleted, 404.',
  request: { params: deliverableParam },
  responses: { 200: jsonContent(deliverableDeletedSchema, 'Deleted.') },
  errors: ['SHFT-NOT-FND-ERR'],
});
const fileParam = deliverableParam.extend({ file_id: pathParam('file_id') });
const binary = { schema: z.any().openapi({ type: 'string', format: 'binary' }) };

export const uploadShiftDeliverableFile = authRoute({
  method: 'post',
  operationId: 'uploadShiftDeliverableFile',
  authorization: 'party',
  path: '/v1/shift_request/{id}/deliverables/{deliverable_id}/files',
  tags,
  summary: `Attach a file to a deliverable (multipart field "file"; PDF, image, zip or UTF-8 text/CSV by content; at most 8 MB; at most ${MAX_FILES_PER_DELIVERABLE} per deliverable; whoever may record deliverables on the shift)`,
  request: {
    params: deliverableParam,
    body: { required: true, content: { 'multipart/form-data': { schema: deliverableFileForm } } },
  },
  middleware: [uploadGuard(DELIVERABLE_FILE_MAX_BYTES, 'deliverable file')],
  responses: { 201: jsonContent(deliverableFileSchema, 'The stored file.') },
  errors: [
    'SHFT-NOT-FND-ERR',
    'SHFT-STATE-ERR',
    'CONFLICT-ERR',
    'PAYLOAD-TOO-LARGE-ERR',
    'UNSUPPORTED-MEDIA-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});

export const getShiftDeliverableFile = authRoute({
  method: 'get',
  operationId: 'getShiftDeliverableFile',
  authorization: 'party',
  path: '/v1/shift_request/{id}/deliverables/{deliverable_id}/files/{file_id}',
  tags,
  summary: "Download a deliverable's file, as an attachment with its sniffed type (the shift's parties and admins)",
  request: { params: fileParam },
  responses: {
    200: {
      description: 'The file (Content-Disposition: attachment; X-Content-Type-Options: nosniff).',
      content: {
        'application/pdf': binary,
        'image/*': binary,
        'application/zip': binary,
        'text/plain': binary,
        'text/csv': binary,
      },
    },
  },
  errors: ['SHFT-NOT-FND-ERR', 'UPLOAD-NOT-FND-ERR'],
});
