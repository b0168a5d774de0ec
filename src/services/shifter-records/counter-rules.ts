import { and, asc, desc, eq } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { counterRules, currencies, shiftRoles } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { fromMinor, toMinorExact } from '../../lib/money';
import { toIso } from '../../lib/time';
import { committedSubject, markedWrite, prepareWrite, type ServiceContext, SHIFT_STATUS, stateError } from '../kernel';
import { counterFloor, distanceKm, loadCounterContext, loadShift, suggestionFields } from '../shifts';
import { parseDays } from '../templates';
import { privateRecords } from '../access';
import {
  type CounterRuleDeleted,
  type CounterRuleList,
  type CounterRuleView,
  type CounterSuggestion,
  type CreateCounterRuleInput,
  invalid,
  type SuggestCounterQuery,
  type UpdateCounterRuleInput,
} from './schemas';
import { nextVersion, rowAsRead, rowExists, underCap, UPDATE_ATTEMPTS } from './versioned';

/**
 * Counter rules (spec 2.6): the owning shifter or an admin manages them (spec 4.5's default); the
 * suggestion for an incoming request is the shifter's own. How a rule matches and what it suggests:
 * services/shifts/counter-suggest.ts.
 *
 * Every change is one guarded write (services/kernel/guarded-write.ts) with its audit row; a retried create
 * whose first attempt committed (Idempotency-Key) answers with the rule it wrote.
 */
export const MAX_RULES_PER_SHIFTER = 50;

type RuleRow = typeof counterRules.$inferSelect;

export function counterRuleView(r: RuleRow): CounterRuleView {
  return {
    id: r.id,
    shifter_id: r.shifter_id,
    label: r.label,
    shiftrole_id: r.shiftrole_id,
    weekdays: r.weekdays ? parseDays(r.weekdays) : null,
    start_from: r.start_from,
    start_to: r.start_to,
    min_hourly_rate: fromMinor(r.min_hourly_rate_minor, r.currency),
    currency: r.currency,
    distance_threshold_km: r.distance_threshold_km,
    distance_premium: r.distance_premium_minor === null ? null : fromMinor(r.distance_premium_minor, r.currency),
    is_active: r.is_active,
    is_auto_apply: r.is_auto_apply,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
}

/** The rules a rule keeps whatever was changed: known role and currency, whole band, whole premium. */
async function checkRule(ctx: ServiceContext, r: RuleRow) {
  if ((r.start_from === null) !== (r.start_to === null))
    throw invalid(r.start_from === null ? 'start_from' : 'start_to', 'send start_from and start_to together, or neither');
  if (r.start_from !== null && r.start_from === r.start_to)
    throw invalid('start_to', 'must differ from start_from (leave both out for any start)');
  if ((r.distance_threshold_km === null) !== (r.distance_premium_minor === null)) {
    throw invalid(
      r.distance_threshold_km === null ? 'distance_threshold_km' : 'distance_premium',
      'send distance_threshold_km and distance_premium together, or neither',
    );
  }
  if (r.min_hourly_rate_minor <= 0) throw invalid('min_hourly_rate', 'must be positive in the currency’s minor unit');
  if (r.distance_premium_minor !== null && r.distance_premium_minor <= 0)
    throw invalid('distance_premium', 'must be positive in the currency’s minor unit');
  const [[role], [cur]] = await Promise.all([
    r.shiftrole_id === null
      ? Promise.resolve([{ is_active: true }])
      : ctx.db.select({ is_active: shiftRoles.is_active }).from(shiftRoles).where(eq(shiftRoles.id, r.shiftrole_id)).limit(1),
    ctx.db.select({ code: currencies.code }).from(currencies).where(eq(currencies.code, r.currency)).limit(1),
  ]);
  if (!role?.is_active) throw invalid('shiftrole_id', 'unknown role');
  if (!cur) throw invalid('currency', 'unsupported currency');
}

async function ruleOf(ctx: ServiceContext, shifterId: string, ruleId: string): Promise<RuleRow> {
  const [row] = await ctx.db
    .select()
    .from(counterRules)
    .where(and(eq(counterRules.id, ruleId), eq(counterRules.shifter_id, shifterId)))
    .limit(1);
  if (!row) throw new AppError('RULE-NOT-FND-ERR');
  return row;
}

/** GET /v1/shifter/{id}/counter_rules: every rule (at most MAX_RULES_PER_SHIFTER), active first, then by label. */
export async function listCounterRules(ctx: ServiceContext, shifterId: string): Promise<CounterRuleList> {
  const { shifter } = await privateRecords(ctx, shifterId, 'read counter rules');
  const rows = await ctx.db
    .select()
    .from(counterRules)
    .where(eq(counterRules.shifter_id, shifter.id))
    .orderBy(desc(counterRules.is_active), asc(counterRules.label), asc(counterRules.id));
  return { data: rows.map(counterRuleView), next_cursor: null };
}

/** GET /v1/shifter/{id}/counter_rules/{rule_id} */
export async function getCounterRule(ctx: ServiceContext, shifterId: string, ruleId: string): Promise<CounterRuleView> {
  const { shifter } = await privateRecords(ctx, shifterId, 'read counter rules');
  return counterRuleView(await ruleOf(ctx, shifter.id, ruleId));
}

/**
 * POST /v1/shifter/{id}/counter_rules. The insert is conditional on the shifter holding fewer than
 * MAX_RULES_PER_SHIFTER, so concurrent creates cannot pass the cap.
 */
export async function createCounterRule(ctx: ServiceContext, shifterId: string, input: CreateCounterRuleInput): Promise<CounterRuleView> {
  const { shifter } = await privateRecords(ctx, shifterId, 'add counter rules');
  const done = committedSubject(ctx, 'counter_rule');
  if (done) return counterRuleView(await ruleOf(ctx, shifter.id, done));
  const currency = input.currency ?? shifter.currency;
  const now = ctx.now();
  const row: RuleRow = {
    id: newId('counterRule'),
    shifter_id: shifter.id,
    label: input.label,
    shiftrole_id: input.shiftrole_id ?? null,
    weekdays: input.weekdays ?? null,
    start_from: input.start_from ?? null,
    start_to: input.start_to ?? null,
    min_hourly_rate_minor: toMinorExact(input.min_hourly_rate, currency, 'min_hourly_rate'),
    currency,
    distance_threshold_km: input.distance_threshold_km ?? null,
    distance_premium_minor: input.distance_premium == null ? null : toMinorExact(input.distance_premium, currency, 'distance_premium'),
    is_active: input.is_active,
    is_auto_apply: input.is_auto_apply,
    created_at: now,
    updated_at: now,
  };
  await checkRule(ctx, row);
  const w = prepareWrite(ctx, { type: 'counter_rule', id: row.id }, () => rowExists(counterRules, row.id));
  const r = await w.commit({
    guard: insertWhere(ctx.db, counterRules, row, underCap(counterRules, shifter.id, MAX_RULES_PER_SHIFTER)),
    audit: { action: 'counter_rule.create', data: { shifter_id: shifter.id } },
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', `A shifter may keep at most ${MAX_RULES_PER_SHIFTER} counter rules.`);
  return counterRuleView(row);
}

/**
 * PATCH /v1/shifter/{id}/counter_rules/{rule_id}: only the fields sent change; null clears. Guarded on
 * the version read; a concurrent change makes it read again and re-apply.
 */
export async function updateCounterRule(
  ctx: ServiceContext,
  shifterId: string,
  ruleId: string,
  input: UpdateCounterRuleInput,
): Promise<CounterRuleView> {
  const { shifter } = await privateRecords(ctx, shifterId, 'change counter rules');
  if (committedSubject(ctx, 'counter_rule') === ruleId) return counterRuleView(await ruleOf(ctx, shifter.id, ruleId));
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const old = await ruleOf(ctx, shifter.id, ruleId);
    const currency = input.currency ?? old.currency;
    // A new currency without a new amount keeps the amount, re-expressed in the new currency's minor unit.
    const amount = (sent: number | null | undefined, oldMinor: number | null, field: string) =>
      sent !== undefined
        ? sent === null
          ? null
          : toMinorExact(sent, currency, field)
        : oldMinor === null
          ? null
          : toMinorExact(fromMinor(oldMinor, old.currency), currency, field);
    const next: RuleRow = {
      ...old,
      label: input.label ?? old.label,
      shiftrole_id: input.shiftrole_id === undefined ? old.shiftrole_id : input.shiftrole_id,
      weekdays: input.weekdays === undefined ? old.weekdays : input.weekdays,
      start_from: input.start_from === undefined ? old.start_from : input.start_from,
      start_to: input.start_to === undefined ? old.start_to : input.start_to,
      min_hourly_rate_minor: amount(input.min_hourly_rate, old.min_hourly_rate_minor, 'min_hourly_rate')!,
      currency,
      distance_threshold_km: input.distance_threshold_km === undefined ? old.distance_threshold_km : input.distance_threshold_km,
      distance_premium_minor: amount(input.distance_premium, old.distance_premium_minor, 'distance_premium'),
      is_active: input.is_active ?? old.is_active,
      is_auto_apply: input.is_auto_apply ?? old.is_auto_apply,
      updated_at: nextVersion(ctx, old.updated_at),
    };
    await checkRule(ctx, next);
    const { id, shifter_id, created_at, ...changes } = next;
    const applied = await markedWrite(
      ctx,
      { type: 'counter_rule', id },
      {
        precondition: rowAsRead(counterRules, id, shifter_id, old.updated_at),
        change: (marked) =>
          ctx.db
            .update(counterRules)
            .set(changes)
            .where(and(eq(counterRules.id, id), marked)),
        audit: { action: 'counter_rule.update', data: { changed: Object.keys(input) } },
      },
    );
    if (applied) return counterRuleView(next);
  }
  throw new AppError('CONFLICT-ERR', 'The counter rule kept changing meanwhile; try again.');
}

/** DELETE /v1/shifter/{id}/counter_rules/{rule_id} */
export async function deleteCounterRule(ctx: ServiceContext, shifterId: string, ruleId: string): Promise<CounterRuleDeleted> {
  const { shifter } = await privateRecords(ctx, shifterId, 'delete counter rules');
  if (committedSubject(ctx, 'counter_rule') === ruleId) return { id: ruleId, deleted: true as const };
  const old = await ruleOf(ctx, shifter.id, ruleId);
  const applied = await markedWrite(
    ctx,
    { type: 'counter_rule', id: old.id },
    {
      precondition: rowAsRead(counterRules, old.id, shifter.id),
      change: (marked) => ctx.db.delete(counterRules).where(and(eq(counterRules.id, old.id), marked)),
      audit: { action: 'counter_rule.delete', data: { shifter_id: shifter.id, label: old.label } },
    },
  );
  if (!applied) throw new AppError('RULE-NOT-FND-ERR');
  return { id: old.id, deleted: true as const };
}

/**
 * GET /v1/shifter/{id}/counter_rules/suggest?shift_request_id: the counter-offer for one incoming
 * request (pending and targeted at this shifter). The shifter's own; an admin gets 403.
 */
export async function suggestForRequest(ctx: ServiceContext, shifterId: string, q: SuggestCounterQuery): Promise<CounterSuggestion> {
  const { shifter } = await privateRecords(ctx, shifterId, 'ask for a counter suggestion', { adminAllowed: false });
  const s = await loadShift(ctx, q.shift_request_id);
  if (s.row.shifter_id !== shifter.id) throw new AppError('SHFT-NOT-FND-ERR');
  if (s.row.request_status !== SHIFT_STATUS.pending) throw stateError(s.row, 'pending');
  if (s.row.is_broadcast) throw new AppError('SHFT-STATE-ERR', 'A broadcast is not negotiable.');
  const c = await loadCounterContext(ctx, shifter.id);
  const km = distanceKm(c.lat, c.lon, s.business.latitude, s.business.longitude);
  const floor = counterFloor(c.rules, s.row, { distanceKm: km });
  const suggestion = floor && floor.rate_minor > s.row.hourly_rate_minor ? floor : null;
  return {
    shift_request_id: s.row.id,
    shifter_id: shifter.id,
    hourly_rate: fromMinor(s.row.hourly_rate_minor, s.row.currency),
    currency: s.row.currency,
    distance_km: km === null ? null : Math.round(km * 10) / 10,
    floor_rate: floor ? fromMinor(floor.rate_minor, s.row.currency) : null,
    floor_rule_id: floor?.rule_id ?? null,
    ...suggestionFields(suggestion, s.row.currency),
  };
}
