import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { csvText, guardFormula } from '@/lib/csv';
import { currencyExponent } from '@/lib/money';
import { isValidDate } from '@/lib/shift-time';
import { type PeopleWeek, peopleWeek } from '@/services/insights';
import { dashboardBase } from '../dashboard/context';
import { shiftWho } from './schedule.model';

/**
 * GET /dashboard/schedule/week.csv?date=: the week's shifts (Monday to Sunday, the week of `date`,
 * default this week) as the people view lists them, one line each: date, start, end, role, person,
 * status (in words), hours and cost as the week counts them (insights `peopleWeek`; the cost column
 * only for those who see pay). A page route with the schedule's own access (owner, teammate, admin):
 * a download link sends the cookie but not the API's X-CSRF-Token, and the figures are the service's,
 * not an export of its own.
 */
export function weekCsv(week: PeopleWeek): string {
  const digits = currencyExponent(week.currency);
  const money = (amount: number, currency: string) =>
    currency === week.currency ? amount.toFixed(digits) : `${amount.toFixed(currencyExponent(currency))} ${currency}`;
  const head = ['date', 'start', 'end', 'role', 'person', 'status', 'hours'];
  if (week.sees_pay) head.push(`cost (${week.currency})`);
  const lines = [...week.people, week.open]
    .flatMap((row) => row.days.flat())
    .sort((a, b) => a.shift.starts_at.localeCompare(b.shift.starts_at) || a.shift.id.localeCompare(b.shift.id))
    .map(({ shift: s, hours, cost }) => {
      const line: (string | number)[] = [
        s.shift_date,
        s.shift_in,
        s.shift_out,
        guardFormula(s.role ?? ''),
        guardFormula(shiftWho(s)),
        guardFormula(s.state_words.label),
        hours.toFixed(2),
      ];
      if (cost !== null) line.push(money(cost, s.currency));
      return line;
    });
  return csvText([head, ...lines]);
}

export async function exportWeekCsv(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const date = c.req.query('date') ?? '';
  const week = await peopleWeek(serviceCtx(c), base.business.id, { week: isValidDate(date) ? date : undefined });
  return c.body(weekCsv(week), 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="schedule-${base.business.slug}-${week.week_start}.csv"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
}
