import { z } from '@hono/zod-openapi';
import { authRoute, flag01, idParam, jsonBody, jsonContent } from '../../http/openapi';
import { createTemplateInput, GENERATE_WEEKS, updateTemplateInput } from '../../services/templates/schemas';
import { shiftRequestSchema } from '../../services/shifts/schemas';

const tags = ['Shift templates'];

export const templateSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    label: z.string(),
    days_of_week: z.string().openapi({ description: 'ISO weekdays, 1 = Monday … 7 = Sunday, sorted, comma-separated.', example: '1,3,5' }),
    shift_in: z.string(),
    shift_out: z.string(),
    shiftrole_id: z.number(),
    hourly_rate: z.number(),
    currency_id: z.string(),
    is_flexible: flag01,
    is_broadcast: flag01.openapi({ description: '1: generated shifts are broadcast to the crew; 0: targeted to default_shifter_id.' }),
    default_shifter_id: z.string().nullable(),
    note: z.string().nullable(),
    is_active: flag01.openapi({ description: '1: generate creates shifts; 0: paused.' }),
    frequency: z.string().nullable().openapi({ description: 'Reserved; no behaviour yet.' }),
    created_by_user_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ShiftTemplate');

const one = (d: string) => jsonContent(templateSchema, d);

export const byBusiness = authRoute({
  method: 'get',
  operationId: 'listShiftTemplates',
  path: '/v1/shift_templates/by_business/{id}',
  tags,
  summary: "The business's shift templates (owner or active teammate)",
  request: { params: idParam },
  responses: { 200: jsonContent(z.object({ data: z.array(templateSchema) }), 'Templates, by label.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const create = authRoute({
  method: 'post',
  operationId: 'createShiftTemplate',
  path: '/v1/shift_templates/create',
  tags,
  summary: 'Create a weekly shift template',
  request: { body: jsonBody(createTemplateInput) },
  responses: { 201: one('The template.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'SHFT-NOT-CONNECTED-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const update = authRoute({
  method: 'put',
  operationId: 'updateShiftTemplate',
  path: '/v1/shift_templates/{id}',
  tags,
  summary: 'Change a shift template (only the fields sent change)',
  request: { params: idParam, body: jsonBody(updateTemplateInput) },
  responses: { 200: one('The updated template.') },
  errors: ['TEMPLATE-NOT-FND-ERR', 'SHFT-NOT-CONNECTED-ERR'],
});

export const remove = authRoute({
  method: 'delete',
  operationId: 'deleteShiftTemplate',
  path: '/v1/shift_templates/{id}',
  tags,
  summary: 'Delete a shift template (the shift requests it generated stay)',
  request: { params: idParam },
  responses: { 200: jsonContent(z.object({ id: z.string(), deleted: z.literal(true) }).openapi('TemplateDeleted'), 'Deleted.') },
  errors: ['TEMPLATE-NOT-FND-ERR'],
});

const generateResultSchema = z
  .object({
    created: z.array(shiftRequestSchema),
    skipped: z.array(z.string()).openapi({ description: 'Dates left out because a shift request for the same business, date and start (and shifter, when targeted) already exists, in any status.' }),
    weeks: z.number().int().openapi({ description: 'The number of weeks used, after clamping.' }),
  })
  .openapi('TemplateGenerateResult');

export const generate = authRoute({
  method: 'post',
  operationId: 'generateShiftsFromTemplate',
  path: '/v1/shift_templates/{id}/generate',
  tags,
  summary: "Create the pending shift requests for the template's weekdays",
  description: `From today in the business's time zone over the next \`weeks\` weeks. Dates that already have a matching row, and starts already past, are skipped, so repeating is safe. 201 when something was created, else 200.`,
  request: {
    params: idParam,
    query: z.object({
      weeks: z
        .string()
        .max(4)
        .regex(/^-?\d+$/, 'must be an integer')
        .transform(Number)
        .optional()
        .openapi({
          param: { name: 'weeks', in: 'query' },
          type: 'integer',
          example: GENERATE_WEEKS.default,
          description: `Default ${GENERATE_WEEKS.default}; clamped to ${GENERATE_WEEKS.min}–${GENERATE_WEEKS.max}.`,
        }),
    }),
  },
  responses: {
    201: jsonContent(generateResultSchema, 'Shift requests were created.'),
    200: jsonContent(generateResultSchema, 'Nothing new to create.'),
  },
  errors: [
    'TEMPLATE-NOT-FND-ERR',
    'TEMPLATE-INACTIVE-ERR',
    'SHFT-NOT-CONNECTED-ERR',
    'SHIFTER-PAUSED-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});
