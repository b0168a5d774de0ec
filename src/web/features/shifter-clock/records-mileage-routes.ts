// The records page's mileage routes: add a trip, change or delete one, and the year's CSV.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import {
  createMileage,
  createMileageInput,
  deleteMileage,
  mileageCsvOfYear,
  updateMileage,
  updateMileageInput,
} from '@/services/shifter-records';
import { dashboardBase } from '@/web/features/dashboard/context';
import { renderRecords } from './records-page';
import { numberOf, PATH, refusedBy, schemaErrors, text, yearOf } from './records-shared';

/** A trip's form as its input (adding and changing read the same fields). */
async function mileageForm(c: Context<AppEnv>) {
  const b = await c.req.parseBody();
  const typed = { log_date: text(b.log_date), miles: text(b.miles), purpose: text(b.purpose) };
  const input = { log_date: typed.log_date, miles: numberOf(typed.miles), purpose: typed.purpose || null };
  return { action: text(b.action), typed, input };
}

export async function postMileage(c: Context<AppEnv>) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const { typed, input } = await mileageForm(c);
  const parsed = createMileageInput.safeParse(input);
  if (!parsed.success)
    return renderRecords(c, { mileage: { errors: schemaErrors(parsed.error.issues), typed, target: 'new' }, status: 400 });
  try {
    await createMileage(serviceCtx(c), base.shifterId, parsed.data);
  } catch (err) {
    const r = refusedBy(err, typed, 'new');
    return renderRecords(c, { mileage: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=trip_added`, 303);
}

export async function postMileageEntry(c: Context<AppEnv, '/mileage/:entry'>) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const id = c.req.param('entry');
  const { action, typed, input } = await mileageForm(c);
  try {
    if (action === 'delete') await deleteMileage(serviceCtx(c), base.shifterId, id);
    else {
      const parsed = updateMileageInput.safeParse(input);
      if (!parsed.success)
        return renderRecords(c, { mileage: { errors: schemaErrors(parsed.error.issues), typed, target: id }, status: 400 });
      await updateMileage(serviceCtx(c), base.shifterId, id, parsed.data);
    }
  } catch (err) {
    const r = refusedBy(err, typed, id);
    return renderRecords(c, { mileage: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=${action === 'delete' ? 'trip_deleted' : 'trip_saved'}`, 303);
}
/** The year's trips as CSV: one row a trip, then the totals (services/shifter-records/mileage-csv.ts). */
export async function mileageCsv(c: Context<AppEnv>) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const { year, csv } = await mileageCsvOfYear(serviceCtx(c), base.shifterId, yearOf(c));
  return c.body(csv, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="mileage-${year}.csv"`,
    'Cache-Control': 'no-store',
  });
}
