import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import {
  createTemplateInput,
  generatePreviewSchema,
  generateQuery,
  generateResultSchema,
  templateDeletedSchema,
  templateListSchema,
  templateSchema,
  updateTemplateInput,
} from '../../services/templates';

const tags = ['Shift templates'];

const one = (d: string) => jsonContent(templateSchema, d);

export const byBusiness = authRoute({
  method: 'get',
  operationId: 'listShiftTemplates',
  authorization: 'business-member',
  path: '/v1/shift_templates/by_business/{id}',
  tags,
  summary: "The business's shift templates (owner or active teammate)",
  request: { params: idParam },
  responses: { 200: jsonContent(templateListSchema, 'Templates, by label.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const create = authRoute({
  method: 'post',
  operationId: 'createShiftTemplate',
  authorization: 'business-member',
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
  authorization: 'business-member',
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
  authorization: 'business-member',
  path: '/v1/shift_templates/{id}',
  tags,
  summary: 'Delete a shift template (the shift requests it generated stay)',
  request: { params: idParam },
  responses: { 200: jsonContent(templateDeletedSchema, 'Deleted.') },
  errors: ['TEMPLATE-NOT-FND-ERR'],
});

export const generate = authRoute({
  method: 'post',
  operationId: 'generateShiftsFromTemplate',
  authorization: 'business-member',
  path: '/v1/shift_templates/{id}/generate',
  tags,
  summary: "Create the pending shift requests for the template's weekdays",
  description: `Over \`weeks\` calendar weeks (Monday to Sunday in the business's time zone) from next week, or from the week of \`week_of\`. A date where a live shift request is already there (one made from this template, or one identical in time, role and person; never a declined, cancelled, expired or superseded one) is skipped with its reason, and so are starts already past, so repeating is safe. 201 when something was created, else 200.`,
  request: { params: idParam, query: generateQuery },
  responses: {
    201: jsonContent(generateResultSchema, 'Shift requests were created.'),
    200: jsonContent(generateResultSchema, 'Nothing new to create.'),
  },
  errors: [
    'VALIDATION-ERR',
    'TEMPLATE-NOT-FND-ERR',
    'TEMPLATE-INACTIVE-ERR',
    'SHFT-NOT-CONNECTED-ERR',
    'SHIFTER-PAUSED-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});

export const preview = authRoute({
  method: 'get',
  operationId: 'previewShiftsFromTemplate',
  authorization: 'business-member',
  path: '/v1/shift_templates/{id}/generate/preview',
  tags,
  summary: 'What generate would create and skip now, writing nothing',
  description: `The same plan as generate (same weeks, same checks of the template and its shifter), read now: the shift requests it would create and the dates it would skip as already there, each with its reason. A row posted between the preview and generate is skipped by generate.`,
  request: { params: idParam, query: generateQuery },
  responses: { 200: jsonContent(generatePreviewSchema, 'What generate would do.') },
  errors: ['VALIDATION-ERR', 'TEMPLATE-NOT-FND-ERR', 'TEMPLATE-INACTIVE-ERR', 'SHFT-NOT-CONNECTED-ERR', 'SHIFTER-PAUSED-ERR'],
});
