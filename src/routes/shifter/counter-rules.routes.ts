import { z } from '@hono/zod-openapi';
import type { ErrorCode } from '../../lib/errors';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import {
  counterRuleDeletedSchema,
  counterRuleListSchema,
  counterRuleSchema,
  counterSuggestionSchema,
  createCounterRuleInput,
  suggestCounterQuery,
  updateCounterRuleInput,
} from '../../services/shifter-records';
import { shifterParam } from './mileage.routes';

const tags = ['Shifter records'];
const ruleParam = z.object({ id: pathParam('id'), rule_id: pathParam('rule_id') });

const one = (d: string) => jsonContent(counterRuleSchema, d);
const RULE_ERRORS: ErrorCode[] = ['SHIFTER-NOT-FND-ERR', 'RULE-NOT-FND-ERR'];
const MATCHING =
  'A rule matches an incoming shift when it is active, in the shift’s currency, for its role (or any), its weekday (or any) and a start band holding shift_in (or any). The suggested counter rate is the highest matching floor (min_hourly_rate, plus distance_premium when the business is farther than distance_threshold_km), offered only when it is above the shift’s hourly_rate.';

export const listCounterRules = authRoute({
  method: 'get',
  operationId: 'listCounterRules',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/counter_rules',
  tags,
  summary: "The shifter's counter rules, active first (owner or admin)",
  description: MATCHING,
  request: { params: shifterParam },
  responses: { 200: jsonContent(counterRuleListSchema, 'Every rule (at most 50).') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const createCounterRule = authRoute({
  method: 'post',
  operationId: 'createCounterRule',
  authorization: 'shifter',
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
  authorization: 'shifter',
  path: '/v1/shifter/{id}/counter_rules/suggest',
  tags,
  summary: 'The suggested counter-offer for one incoming (pending, targeted) request (owner only)',
  description: `${MATCHING} floor_rate is given even when it does not exceed the offered rate (then no counter is suggested).`,
  request: { params: shifterParam, query: suggestCounterQuery },
  responses: { 200: jsonContent(counterSuggestionSchema, 'The suggestion (null when no rule asks for more than the offer).') },
  errors: [
    'SHIFTER-NOT-FND-ERR',
    'SHFT-NOT-FND-ERR',
    'SHFT-STATE-ERR',
    'SHFT-COMPLETED-ERR',
    'SHFT-EXPIRED-ERR',
    'SHFT-DECLINED-ERR',
    'SHFT-SUPERSEDED-ERR',
    'SHFT-CANCELLED-ERR',
  ],
});

export const getCounterRule = authRoute({
  method: 'get',
  operationId: 'getCounterRule',
  authorization: 'shifter',
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
  authorization: 'shifter',
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
  authorization: 'shifter',
  path: '/v1/shifter/{id}/counter_rules/{rule_id}',
  tags,
  summary: 'Delete a counter rule (owner or admin)',
  request: { params: ruleParam },
  responses: { 200: jsonContent(counterRuleDeletedSchema, 'Deleted.') },
  errors: RULE_ERRORS,
});
