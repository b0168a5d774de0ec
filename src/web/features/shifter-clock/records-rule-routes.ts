// The records page's counter rule routes: add a rule, and change or delete one.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import {
  createCounterRule,
  createCounterRuleInput,
  deleteCounterRule,
  updateCounterRule,
  updateCounterRuleInput,
} from '@/services/shifter-records';
import { dashboardBase } from '@/web/features/dashboard/context';
import { renderRecords } from './records-page';
import { numberOf, PATH, refusedBy, schemaErrors, type Typed, text } from './records-shared';

/** A counter rule's form as its input: empty times and no day checked mean any time, any day. */
async function ruleForm(c: Context<AppEnv>) {
  const b = await c.req.parseBody({ all: true });
  const one = (k: string) => text(Array.isArray(b[k]) ? b[k][0] : b[k]);
  const days = ([] as unknown[])
    .concat(b.weekdays ?? [])
    .map(text)
    .filter(Boolean);
  const typed: Typed = {
    label: one('label'),
    min_hourly_rate: one('min_hourly_rate'),
    start_from: one('start_from'),
    start_to: one('start_to'),
    weekdays: days.join(','),
    is_active: one('is_active') === '1' ? '1' : '0',
  };
  const input = {
    label: typed.label,
    min_hourly_rate: numberOf(typed.min_hourly_rate!),
    start_from: typed.start_from || null,
    start_to: typed.start_to || null,
    weekdays: days.length ? days.join(',') : null,
    is_active: typed.is_active === '1',
  };
  return { action: one('action'), typed, input };
}

export async function postRule(c: Context<AppEnv>) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const { typed, input } = await ruleForm(c);
  const parsed = createCounterRuleInput.safeParse(input);
  if (!parsed.success) return renderRecords(c, { rule: { errors: schemaErrors(parsed.error.issues), typed, target: 'new' }, status: 400 });
  try {
    await createCounterRule(serviceCtx(c), base.shifterId, parsed.data);
  } catch (err) {
    const r = refusedBy(err, typed, 'new');
    return renderRecords(c, { rule: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=rule_added`, 303);
}

export async function postRuleEntry(c: Context<AppEnv, '/rules/:rule'>) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const id = c.req.param('rule');
  const { action, typed, input } = await ruleForm(c);
  try {
    if (action === 'delete') await deleteCounterRule(serviceCtx(c), base.shifterId, id);
    else {
      const parsed = updateCounterRuleInput.safeParse(input);
      if (!parsed.success) return renderRecords(c, { rule: { errors: schemaErrors(parsed.error.issues), typed, target: id }, status: 400 });
      await updateCounterRule(serviceCtx(c), base.shifterId, id, parsed.data);
    }
  } catch (err) {
    const r = refusedBy(err, typed, id);
    return renderRecords(c, { rule: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=${action === 'delete' ? 'rule_deleted' : 'rule_saved'}`, 303);
}
