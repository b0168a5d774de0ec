import { z } from '@hono/zod-openapi';
import { authRoute, idParam, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { businessSchema } from '../../services/accounts';
import { businessSettingsInput, weeklyBudgetInput } from '../../services/businesses';
import { crewAnalyticsSchema, laborCostsQuery, laborCostsSchema } from '../../services/insights';

const businessIdParam = z.object({ business_id: pathParam('business_id') });

export const updateSettings = authRoute({
  method: 'put',
  operationId: 'updateBusinessSettings',
  authorization: 'business-owner',
  path: '/v1/business/update_settings',
  tags: ['Businesses'],
  summary: 'Change business settings; only the fields sent change, null clears',
  request: { body: jsonBody(businessSettingsInput) },
  responses: { 200: jsonContent(businessSchema, 'The business after the change.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const laborCosts = authRoute({
  method: 'get',
  operationId: 'getLaborCosts',
  authorization: 'business-owner',
  path: '/v1/business/{id}/labor_costs',
  tags: ['Businesses'],
  summary: 'Labor costs of a week, with last week, budget, breakdowns and 8 weeks of history (owner or admin)',
  description:
    "Totals, hours, shift counts, pct_change_vs_last_week and the budget figures cover shifts paid in the business's currency; shifts paid in another currency are totalled apart per currency in `other_currencies`. Amounts and percentages are rounded half-up, away from zero, at their last digit.",
  request: { params: idParam, query: laborCostsQuery },
  responses: { 200: jsonContent(laborCostsSchema, 'Labor costs.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const weeklyBudget = authRoute({
  method: 'put',
  operationId: 'setWeeklyLaborBudget',
  authorization: 'business-owner',
  path: '/v1/business/{id}/weekly_labor_budget',
  tags: ['Businesses'],
  summary: 'Set or clear the weekly labor budget (owner or admin)',
  request: { params: idParam, body: jsonBody(weeklyBudgetInput) },
  responses: { 200: jsonContent(businessSchema, 'The business after the change.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const crewAnalytics = authRoute({
  method: 'get',
  operationId: 'getCrewAnalytics',
  authorization: 'business-member',
  path: '/v1/business/{business_id}/crew/analytics',
  tags: ['Businesses'],
  summary: 'Crew analytics over 90 days (owner, active teammate or admin)',
  description:
    'reliability_score = worked ÷ (worked + no-shows + own cancellations) × 100 per shifter (null when none); repeat_rate = % of crew with more than one worked shift; accept_rate = % of crew with accept_shift_req on.',
  request: { params: businessIdParam },
  responses: { 200: jsonContent(crewAnalyticsSchema, 'Crew analytics.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});
