import { asc, eq } from 'drizzle-orm';
import { currencies, shiftRoles, shiftTemplates } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { fromMinor, toMinorExact } from '../../lib/money';
import { accessBusiness, type BusinessRow, isCrew } from '../access';
import { committedSubject, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import type { CreateTemplateInput, TemplateDeleted, TemplateList, TemplateView, UpdateTemplateInput } from './schemas';
import { type TemplateRow, templateView } from './view';

const invalid = (field: string, message: string) => new AppError('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);

/** A currency we support, checked before an amount is read in it (its exponent decides what the amount may hold). */
async function assertCurrency(ctx: ServiceContext, code: string) {
  const [cur] = await ctx.db.select().from(currencies).where(eq(currencies.code, code)).limit(1);
  if (!cur) throw invalid('currency_id', 'unsupported currency');
}

/**
 * Loads a template for the business side: its owner, an active teammate or an admin. Anyone else
 * (a suspended teammate included) gets 404, as if the template did not exist.
 */
export async function templateFor(ctx: ServiceContext, id: string): Promise<{ template: TemplateRow; business: BusinessRow }> {
  const [template] = await ctx.db.select().from(shiftTemplates).where(eq(shiftTemplates.id, id)).limit(1);
  if (!template) throw new AppError('TEMPLATE-NOT-FND-ERR');
  try {
    const { business } = await accessBusiness(ctx, template.business_id);
    return { template, business };
  } catch (err) {
    if (err instanceof AppError && err.code === 'BUSINESS-NOT-FND-ERR') throw new AppError('TEMPLATE-NOT-FND-ERR');
    throw err;
  }
}

type TemplateFields = Pick<
  TemplateRow,
  'shift_in' | 'shift_out' | 'shiftrole_id' | 'currency_id' | 'hourly_rate_minor' | 'is_broadcast' | 'default_shifter_id'
>;

/**
 * The rules a template must keep whatever was changed: different start and end times (as
 * send_request requires, so generate can post every date), a known active role and currency, a
 * positive rate, a broadcast without a target or a targeted template with one. The target must be
 * connected when it is set or changed (a later disconnect is caught when generating).
 * `timeField` names the field to blame when the times are equal (the one the caller sent).
 */
async function checkTemplate(
  ctx: ServiceContext,
  business: BusinessRow,
  t: TemplateFields,
  checkTarget: boolean,
  timeField: 'shift_in' | 'shift_out' = 'shift_out',
) {
  if (t.shift_in === t.shift_out) {
    throw invalid(timeField, timeField === 'shift_in' ? 'must differ from shift_out' : 'must differ from shift_in');
  }
  const [role] = await ctx.db.select().from(shiftRoles).where(eq(shiftRoles.id, t.shiftrole_id)).limit(1);
  if (!role?.is_active) throw invalid('shiftrole_id', 'unknown role');
  await assertCurrency(ctx, t.currency_id);
  if (t.hourly_rate_minor <= 0) throw invalid('hourly_rate', 'must be positive');
  if (t.is_broadcast && t.default_shifter_id)
    throw invalid('default_shifter_id', 'must be blank for a broadcast template (send null, or is_broadcast=0)');
  if (!t.is_broadcast && !t.default_shifter_id)
    throw invalid('default_shifter_id', 'required for a targeted template (or send is_broadcast=1)');
  if (checkTarget && t.default_shifter_id && !(await isCrew(ctx, business.id, t.default_shifter_id))) {
    throw new AppError('SHFT-NOT-CONNECTED-ERR', 'The default shifter is not connected to this business.');
  }
}

/** GET /v1/shift_templates/by_business/{id} */
export async function listTemplates(ctx: ServiceContext, businessId: string): Promise<TemplateList> {
  await accessBusiness(ctx, businessId);
  const rows = await ctx.db
    .select()
    .from(shiftTemplates)
    .where(eq(shiftTemplates.business_id, businessId))
    .orderBy(asc(shiftTemplates.label), asc(shiftTemplates.created_at), asc(shiftTemplates.id));
  return { data: rows.map(templateView) };
}

/** POST /v1/shift_templates/create */
export async function createTemplate(ctx: ServiceContext, input: CreateTemplateInput): Promise<TemplateView> {
  const actor = requirePerson(ctx);
  const done = committedSubject(ctx, 'shift_template');
  if (done) return templateView((await templateFor(ctx, done)).template);
  const { business } = await accessBusiness(ctx, input.business_id);
  const currency = input.currency_id ?? business.currency;
  await assertCurrency(ctx, currency);
  const defaultShifterId = input.default_shifter_id ?? null;
  const now = ctx.now();
  const row: TemplateRow = {
    id: newId('template'),
    business_id: business.id,
    label: input.label,
    days_of_week: input.days_of_week,
    shift_in: input.shift_in,
    shift_out: input.shift_out,
    shiftrole_id: input.shiftrole_id,
    hourly_rate_minor: toMinorExact(input.hourly_rate, currency, 'hourly_rate'),
    currency_id: currency,
    is_flexible: input.is_flexible,
    is_broadcast: input.is_broadcast ?? defaultShifterId === null,
    default_shifter_id: defaultShifterId,
    note: input.note ?? null,
    is_active: input.is_active,
    frequency: input.frequency ?? null,
    created_by_user_id: actor.userId,
    created_at: now,
    updated_at: now,
  };
  await checkTemplate(ctx, business, row, true);
  await prepareWrite(ctx, { type: 'shift_template', id: row.id }).commit({
    guard: ctx.db.insert(shiftTemplates).values(row),
    audit: { action: 'template.create', data: { business_id: business.id } },
  });
  return templateView(row);
}

/** PUT /v1/shift_templates/{id}: only the fields sent change; the result must still be a valid template. */
export async function updateTemplate(ctx: ServiceContext, id: string, input: UpdateTemplateInput): Promise<TemplateView> {
  const { template: t, business } = await templateFor(ctx, id);
  const currency = input.currency_id ?? t.currency_id;
  if (currency !== t.currency_id) await assertCurrency(ctx, currency);
  // A new currency without a new rate keeps the amount, re-expressed in the new currency's minor
  // unit; an amount the new currency cannot hold (18.50 USD → JPY) is refused, not rounded.
  const rateMinor =
    input.hourly_rate !== undefined
      ? toMinorExact(input.hourly_rate, currency, 'hourly_rate')
      : currency !== t.currency_id
        ? toMinorExact(fromMinor(t.hourly_rate_minor, t.currency_id), currency, 'hourly_rate')
        : t.hourly_rate_minor;
  const next: TemplateRow = {
    ...t,
    label: input.label ?? t.label,
    days_of_week: input.days_of_week ?? t.days_of_week,
    shift_in: input.shift_in ?? t.shift_in,
    shift_out: input.shift_out ?? t.shift_out,
    shiftrole_id: input.shiftrole_id ?? t.shiftrole_id,
    hourly_rate_minor: rateMinor,
    currency_id: currency,
    is_flexible: input.is_flexible ?? t.is_flexible,
    is_broadcast: input.is_broadcast ?? t.is_broadcast,
    default_shifter_id: input.default_shifter_id === undefined ? t.default_shifter_id : input.default_shifter_id,
    note: input.note === undefined ? t.note : input.note,
    is_active: input.is_active ?? t.is_active,
    frequency: input.frequency === undefined ? t.frequency : input.frequency,
    updated_at: ctx.now(),
  };
  const targetChanged = next.default_shifter_id !== t.default_shifter_id || next.is_broadcast !== t.is_broadcast;
  // Equal times after a change to only one of them are the sent field's fault.
  const timeField = input.shift_in !== undefined && input.shift_out === undefined ? 'shift_in' : 'shift_out';
  await checkTemplate(ctx, business, next, targetChanged, timeField);
  const { id: _id, business_id: _b, created_by_user_id: _c, created_at: _ca, ...changes } = next;
  const sent = Object.keys(input).filter((k) => input[k as keyof UpdateTemplateInput] !== undefined);
  await prepareWrite(ctx, { type: 'shift_template', id }).commit({
    guard: ctx.db.update(shiftTemplates).set(changes).where(eq(shiftTemplates.id, id)),
    audit: { action: 'template.update', data: { fields: sent } },
  });
  return templateView(next);
}

/** DELETE /v1/shift_templates/{id}: a hard delete; shift requests it generated stay as they are. */
export async function deleteTemplate(ctx: ServiceContext, id: string): Promise<TemplateDeleted> {
  if (committedSubject(ctx, 'shift_template') === id) return { id, deleted: true };
  const { template } = await templateFor(ctx, id);
  await prepareWrite(ctx, { type: 'shift_template', id }).commit({
    guard: ctx.db.delete(shiftTemplates).where(eq(shiftTemplates.id, id)),
    audit: { action: 'template.delete', data: { business_id: template.business_id, label: template.label } },
  });
  return { id, deleted: true };
}
