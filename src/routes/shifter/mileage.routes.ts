import { z } from '@hono/zod-openapi';
import { MAX_LIMIT, DEFAULT_LIMIT } from '../../lib/pagination';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { createMileageInput, updateMileageInput } from '../../services/shifter-records/schemas';

const tags = ['Shifter records'];
export const shifterParam = z.object({ id: pathParam('id') });
const entryParam = z.object({ id: pathParam('id'), entry_id: pathParam('entry_id') });

export const mileageEntrySchema = z
  .object({
    id: z.string(),
    shifter_id: z.string(),
    log_date: z.string(),
    miles: z.number(),
    rate_per_mile_cents: z.number().int().openapi({ description: 'Captured from the operator setting when the entry was written; later setting changes never alter it.' }),
    amount_cents: z.number().int().openapi({ description: 'miles × rate, rounded half-up to the cent.' }),
    amount: z.number(),
    currency: z.string().openapi({ description: 'USD: the operator rate is in US cents per mile.' }),
    purpose: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('MileageEntry');

const one = (d: string) => jsonContent(mileageEntrySchema, d);
const deleted = jsonContent(z.object({ id: z.string(), deleted: z.literal(true) }).openapi('MileageEntryDeleted'), 'Deleted.');

export const listMileage = authRoute({
  method: 'get',
  operationId: 'listMileageEntries',
  path: '/v1/shifter/{id}/mileage',
  tags,
  summary: "A year's mileage entries, newest first, with the year's totals (owner or admin)",
  request: {
    params: shifterParam,
    query: z.object({
      year: z.coerce.number().int().min(2000).max(2100).optional().openapi({ description: "Default: the current year in the shifter's zone." }),
      limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
      cursor: z.string().max(300).optional(),
    }),
  },
  responses: {
    200: jsonContent(
      z
        .object({
          shifter_id: z.string(),
          data: z.array(mileageEntrySchema),
          next_cursor: z.string().nullable(),
          rollup: z.object({
            year: z.number().int(),
            entries: z.number().int(),
            total_miles: z.number(),
            total_amount_cents: z.number().int().openapi({ description: 'Sum of the entries’ amount_cents (each at its captured rate).' }),
            total_amount: z.number(),
            currency: z.string(),
          }),
        })
        .openapi('MileageList'),
      'Entries and the year rollup.',
    ),
  },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const createMileage = authRoute({
  method: 'post',
  operationId: 'createMileageEntry',
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
    path: '/v1/shifter/{id}/mileage/{entry_id}',
    tags,
    summary: method === 'patch' ? 'Change a mileage entry; the captured rate stays (owner only)' : 'Same as PATCH: change a mileage entry (owner only)',
    request: { params: entryParam, body: jsonBody(updateMileageInput) },
    responses: { 200: one('The entry after the change.') },
    errors: ['SHIFTER-NOT-FND-ERR', 'MILEAGE-NOT-FND-ERR'],
  });
export const patchMileage = update('patch');
export const putMileage = update('put');

export const deleteMileage = authRoute({
  method: 'delete',
  operationId: 'deleteMileageEntry',
  path: '/v1/shifter/{id}/mileage/{entry_id}',
  tags,
  summary: 'Delete a mileage entry (owner, or an admin)',
  request: { params: entryParam },
  responses: { 200: deleted },
  errors: ['SHIFTER-NOT-FND-ERR', 'MILEAGE-NOT-FND-ERR'],
});
