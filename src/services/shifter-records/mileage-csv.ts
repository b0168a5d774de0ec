import { csvText, guardFormula } from '../../lib/csv';
import type { ServiceContext } from '../kernel';
import { listMileage } from './mileage';
import type { MileageEntryView, MileageList } from './schemas';

export const MILEAGE_CSV_COLUMNS = ['date', 'miles', 'rate_cents_per_mile', 'amount', 'currency', 'purpose'] as const;

/**
 * A year's trips as CSV (what a tax form asks for): the header, one row a trip by date, then the
 * totals. The purpose is the shifter's own text, guarded against formulas; the figures are ours.
 */
export function mileageCsv(trips: readonly MileageEntryView[], rollup: MileageList['rollup']): string {
  const rows = [...trips]
    .sort((a, b) => a.log_date.localeCompare(b.log_date))
    .map((m) => [m.log_date, m.miles, m.rate_per_mile_cents, m.amount.toFixed(2), m.currency, guardFormula(m.purpose ?? '')]);
  return csvText([
    [...MILEAGE_CSV_COLUMNS],
    ...rows,
    ['total', rollup.total_miles, '', rollup.total_amount.toFixed(2), rollup.currency, `${rollup.entries} trips`],
  ]);
}

/** The shifter's trips of `year` (default: the current year in the shifter's zone), every page of them, as CSV. */
export async function mileageCsvOfYear(ctx: ServiceContext, shifterId: string, year?: number): Promise<{ year: number; csv: string }> {
  const first = await listMileage(ctx, shifterId, { year, limit: 100 });
  const trips = [...first.data];
  for (let cursor = first.next_cursor; cursor; ) {
    const more = await listMileage(ctx, shifterId, { year: first.rollup.year, limit: 100, cursor });
    trips.push(...more.data);
    cursor = more.next_cursor;
  }
  return { year: first.rollup.year, csv: mileageCsv(trips, first.rollup) };
}
