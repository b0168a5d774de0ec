import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import {
  createMileageInput,
  listMileageQuery,
  mileageDeletedSchema,
  mileageEntrySchema,
  mileageListSchema,
  updateMileageInput,
} from '../../services/shifter-records';

const tags = ['Shifter records'];
export const shifterParam = z.object({ id: pathParam('id') });
const entryParam = z.object({ id: pathParam('id'), entry_id: pathParam('entry_id') });

const one = (d: string) => jsonContent(mileageEntrySchema, d);
const deleted = jsonContent(mileageDeletedSchema, 'Deleted.');

export const listMileage = authRoute({
  method: 'get',
  operationId: 'listMileageEntries',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/mileage',
  tags,
  summary: "A year's mileage entries, newest first, with the year's totals (owner or admin)",
  request: { params: shifterParam, query: listMileageQuery },
  responses: { 200: jsonContent(mileageListSchema, 'Entries and the year rollup.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const createMileage = authRoute({
  method: 'post',
  operationId: 'createMileageEntry',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/mileage',
  tags,
  summary: 'Log a trip; the rate per mile is captured from the operator setting now (owner only)',
  request: { params: shifterParam, body: jsonBody(createMileageInput) },
  responses: { 201: one('The entry.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const getMileage = authRoute({
  method: 'get',
  operationId: 'getMileageEntry',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/mileage/{entry_id}',
  tags,
  summary: 'One mileage entry (owner or admin)',
  request: { params: entryParam },
  responses: { 200: one('The entry.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'MILEAGE-NOT-FND-ERR'],
});

const update = (method: 'patch' | 'put') =>
  authRoute({
    method,
    operationId: method === 'patch' ? 'updateMileageEntry' : 'replaceMileageEntry',
    authorization: 'shifter',
    path: '/v1/shifter/{id}/mileage/{entry_id}',
    tags,
    summary:
      method === 'patch'
        ? 'Change a mileage entry; the captured rate stays (owner only)'
        : 'Same as PATCH: change a mileage entry (owner only)',
    request: { params: entryParam, body: jsonBody(updateMileageInput) },
    responses: { 200: one('The entry after the change.') },
    errors: ['SHIFTER-NOT-FND-ERR', 'MILEAGE-NOT-FND-ERR'],
  });
export const patchMileage = update('patch');
export const putMileage = update('put');

export const deleteMileage = authRoute({
  method: 'delete',
  operationId: 'deleteMileageEntry',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/mileage/{entry_id}',
  tags,
  summary: 'Delete a mileage entry (owner, or an admin)',
  request: { params: entryParam },
  responses: { 200: deleted },
  errors: ['SHIFTER-NOT-FND-ERR', 'MILEAGE-NOT-FND-ERR'],
});
