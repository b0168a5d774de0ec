import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import type { ErrorCode } from '../../lib/errors';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { createCounterRuleInput, updateCounterRuleInput } from '../../services/shifter-records/schemas';
import { shifterParam } from './mileage.routes';

const tags = ['Shifter records'];
const ruleParam = z.object({ id: pathParam('id'), rule_id: pathParam('rule_id') });

export const counterRuleSchema = z
  .object({
    id: z.string(),
    shifter_id: z.string(),
    label: z.string(),
    shiftrole_id: z.number().int().nullable().openapi({ description: 'Null: any role.' }),
    weekdays: z.array(z.number().int().min(1).max(7)).max(7).nullable().openapi({ description: 'ISO weekdays (1 = Monday) of shift_date; null: any day.' }),
    start_from: z.string().nullable(),
    start_to: z.string().nullable().openapi({ description: 'Exclusive; earlier than start_from means the band wraps midnight.' }),
    min_hourly_rate: z.number(),
    currency: z.string(),
    distance_threshold_km: z.number().nullable(),
    distance_premium: z.number().nullable().openapi({ description: 'Per hour, added beyond distance_threshold_km.' }),
    is_active: z.boolean(),
    is_auto_apply: z.boolean().openapi({ description: 'Reserved: stored, no behaviour yet.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('CounterRule');

const one = (d: string) => jsonContent(counterRuleSchema, d);
const RULE_ERRORS: ErrorCode[] = ['SHIFTER-NOT-FND-ERR', 'RULE-NOT-FND-ERR'];
const MATCHING =
  'A rule matches an incoming shift when it is active, in the shift’s currency, for its role (or any), its weekday (or any) and a start band holding shift_in (or any). The suggested counter rate is the highest matching floor (min_hourly_rate, plus distance_premium when the business is farther than distance_threshold_km), offered only when it is above the shift’s hourly_rate.';

export const listCounterRules = authRoute({
  method: 'get',
  operationId: 'listCounterRules',
  path: '/v1/shifter/{id}/counter_rules',
  tags,
  summary: "The shifter's counter rules, active first (owner or admin)",
  description: MATCHING,
  request: { params: shifterParam },
  responses: { 200: jsonContent(z.object({ data: z.array(counterRuleSchema), next_cursor: z.string().nullable() }).openapi('CounterRuleList'), 'Every rule (at most 50).') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const createCounterRule = authRoute({
  method: 'post',
  operationId: 'createCounterRule',
  path: '/v1/shifter/{id}/counter_rules',
  tags,
  summary: 'Add a counter rule (owner or admin)',
  description: MATCHING,
  request: { params: shifterParam, body: jsonBody(createCounterRuleInput) },
  responses: { 201: one('The rule.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'CONFLICT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const suggestCounter = authRoute({
  method: 'get',
  operationId: 'suggestCounterRate',
  path: '/v1/shifter/{id}/counter_rules/suggest',
  tags,
  summary: 'The suggested counter-offer for one incoming (pending, targeted) request (owner only)',
  description: `${MATCHING} floor_rate is given even when it does not exceed the offered rate (then no counter is suggested).`,
  request: { params: shifterParam, query: z.object({ shift_request_id: z.string().min(1).max(ID_MAX_LENGTH) }) },
  responses: {
    200: jsonContent(
      z
        .object({
          shift_request_id: z.string(),
          shifter_id: z.string(),
          hourly_rate: z.number(),
          currency: z.string(),
          distance_km: z.number().nullable().openapi({ description: 'Shifter to business; null when either position is unknown (no premium then).' }),
          floor_rate: z.number().nullable(),
          floor_rule_id: z.string().nullable(),
          suggested_counter_rate: z.number().nullable(),
          counter_rule_id: z.string().nullable(),
        })
        .openapi('CounterSuggestion'),
      'The suggestion (null when no rule asks for more than the offer).',
    ),
  },
  errors: ['SHIFTER-NOT-FND-ERR', 'SHFT-NOT-FND-ERR', 'SHFT-STATE-ERR', 'SHFT-COMPLETED-ERR', 'SHFT-EXPIRED-ERR', 'SHFT-DECLINED-ERR', 'SHFT-SUPERSEDED-ERR', 'SHFT-CANCELLED-ERR'],
});

export const getCounterRule = authRoute({
  method: 'get',
  operationId: 'getCounterRule',
  path: '/v1/shifter/{id}/counter_rules/{rule_id}',
  tags,
  summary: 'One counter rule (owner or admin)',
  request: { params: ruleParam },
  responses: { 200: one('The rule.') },
  errors: RULE_ERRORS,
});

export const updateCounterRule = authRoute({
  method: 'patch',
  operationId: 'updateCounterRule',
  path: '/v1/shifter/{id}/counter_rules/{rule_id}',
  tags,
  summary: 'Change a counter rule; only the fields sent change (owner or admin)',
  request: { params: ruleParam, body: jsonBody(updateCounterRuleInput) },
  responses: { 200: one('The rule after the change.') },
  errors: RULE_ERRORS,
});

export const deleteCounterRule = authRoute({
  method: 'delete',
  operationId: 'deleteCounterRule',
  path: '/v1/shifter/{id}/counter_rules/{rule_id}',
  tags,
  summary: 'Delete a counter rule (owner or admin)',
  request: { params: ruleParam },
  responses: { 200: jsonContent(z.object({ id: z.string(), deleted: z.literal(true) }).openapi('CounterRuleDeleted'), 'Deleted.') },
  errors: RULE_ERRORS,
});
