import { z } from '@hono/zod-openapi';
import type { ErrorCode } from '../../lib/errors';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { uploadGuard } from '../../lib/uploads';
import {
  createCredentialInput,
  CREDENTIAL_DOC_MAX_BYTES,
  credentialDeletedSchema,
  credentialDocumentForm,
  credentialListSchema,
  credentialSchema,
  updateCredentialInput,
} from '../../services/shifter-records';
import { shifterParam } from './mileage.routes';

const tags = ['Shifter records'];
const credentialParam = z.object({ id: pathParam('id'), credential_id: pathParam('credential_id') });

const one = (d: string) => jsonContent(credentialSchema, d);
const CRED_ERRORS: ErrorCode[] = ['SHIFTER-NOT-FND-ERR', 'CREDENTIAL-NOT-FND-ERR'];

export const listCredentials = authRoute({
  method: 'get',
  operationId: 'listCredentials',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials',
  tags,
  summary: "A shifter's credentials: every row for the owner or an admin, visible rows for anyone else",
  request: { params: shifterParam },
  responses: { 200: jsonContent(credentialListSchema, 'Soonest expiry first (no expiry last), at most 100.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const createCredential = authRoute({
  method: 'post',
  operationId: 'createCredential',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials',
  tags,
  summary: 'Add a credential (the owning shifter only)',
  request: { params: shifterParam, body: jsonBody(createCredentialInput) },
  responses: { 201: one('The credential.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'CONFLICT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const getCredential = authRoute({
  method: 'get',
  operationId: 'getCredential',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials/{credential_id}',
  tags,
  summary: 'One credential (hidden rows: owner and admins only)',
  request: { params: credentialParam },
  responses: { 200: one('The credential.') },
  errors: CRED_ERRORS,
});

export const updateCredential = authRoute({
  method: 'patch',
  operationId: 'updateCredential',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials/{credential_id}',
  tags,
  summary: 'Change a credential; only the fields sent change (the owning shifter only)',
  request: { params: credentialParam, body: jsonBody(updateCredentialInput) },
  responses: { 200: one('The credential after the change.') },
  errors: CRED_ERRORS,
});

export const deleteCredential = authRoute({
  method: 'delete',
  operationId: 'deleteCredential',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials/{credential_id}',
  tags,
  summary: 'Delete a credential and its document (the owning shifter only)',
  request: { params: credentialParam },
  responses: { 200: jsonContent(credentialDeletedSchema, 'Deleted.') },
  errors: CRED_ERRORS,
});

export const uploadDocument = authRoute({
  method: 'post',
  operationId: 'uploadCredentialDocument',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials/{credential_id}/document',
  tags,
  summary: 'Attach or replace the document (multipart field "file"; PDF or image by content; at most 8 MB; owner only)',
  request: {
    params: credentialParam,
    body: { required: true, content: { 'multipart/form-data': { schema: credentialDocumentForm } } },
  },
  middleware: [uploadGuard(CREDENTIAL_DOC_MAX_BYTES, 'credential document')],
  responses: { 201: one('The credential with its new document reference.') },
  errors: [
    'SHIFTER-NOT-FND-ERR',
    'CREDENTIAL-NOT-FND-ERR',
    'CONFLICT-ERR',
    'PAYLOAD-TOO-LARGE-ERR',
    'UNSUPPORTED-MEDIA-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});

export const readDocument = authRoute({
  method: 'get',
  operationId: 'getCredentialDocument',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials/{credential_id}/document',
  tags,
  summary: 'Download the document, as an attachment with its sniffed type (to those who may see the credential)',
  request: { params: credentialParam },
  responses: {
    200: {
      description:
        "The file (Content-Disposition: attachment; X-Content-Type-Options: nosniff; Content-Security-Policy: default-src 'none'; sandbox; Cache-Control: private, no-store), as deliverable files are served.",
      content: {
        'application/pdf': { schema: z.any().openapi({ type: 'string', format: 'binary' }) },
        'image/*': { schema: z.any().openapi({ type: 'string', format: 'binary' }) },
      },
    },
  },
  errors: ['SHIFTER-NOT-FND-ERR', 'CREDENTIAL-NOT-FND-ERR', 'UPLOAD-NOT-FND-ERR'],
});

export const deleteDocument = authRoute({
  method: 'delete',
  operationId: 'deleteCredentialDocument',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/credentials/{credential_id}/document',
  tags,
  summary: 'Remove the document, keep the credential (owner only)',
  request: { params: credentialParam },
  responses: { 200: one('The credential without a document.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'CREDENTIAL-NOT-FND-ERR', 'UPLOAD-NOT-FND-ERR', 'CONFLICT-ERR'],
});
