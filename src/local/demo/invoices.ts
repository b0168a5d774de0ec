import { getTableColumns, inArray } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { invoices, shiftRequests } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { isWorked, type ServiceContext, SHIFT_STATUS } from '../../services/kernel';
import { invoiceFor } from '../../services/invoices';
import type { DemoExtra, DemoWorld } from './world';

const DAY = 24 * 3600_000;
/** Worked, not yet settled shifts whose invoice the demo marks paid (the oldest few): the rest stay pending. */
const NEWLY_PAID = 3;
/** Rows per INSERT: D1 takes at most 100 bound parameters per statement, one per column of each row. */
const ROWS_PER_INSERT = Math.floor(100 / Object.keys(getTableColumns(invoices)).length);

/**
 * An invoice for every worked demo shift, priced as a clock-out would price it. Shifts the history
 * already settled (status 5) have paid invoices; of the others, the oldest few are paid now (the
 * shift moves 2 → 5 with its invoice, DECISIONS.md) and the rest are pending.
 */
export const demoInvoices: DemoExtra = {
  name: 'invoices',
  async seed(ctx: ServiceContext, world: DemoWorld) {
    const worked = world.shifts
      .filter(
        (s) =>
          s.id &&
          s.shift_end_at != null &&
          isWorked({ request_status: s.request_status ?? 1, shift_end_at: s.shift_end_at, is_noshow: s.is_noshow ?? false }),
      )
      .sort((a, b) => a.ends_at - b.ends_at);
    const open = worked.filter((s) => s.request_status === SHIFT_STATUS.accepted);
    const payNow = new Set(open.slice(0, NEWLY_PAID).map((s) => s.id!));
    const rows = worked.map((s) => {
      const inv = invoiceFor({ ...s, id: s.id!, shifter_id: s.shifter_id ?? null }, s.shift_end_at!);
      const settledAt =
        s.request_status === SHIFT_STATUS.completed
          ? (s.updated_at ?? s.shift_end_at!)
          : payNow.has(s.id!)
            ? Math.min(s.shift_end_at! + DAY, world.now)
            : null;
      if (settledAt !== null) Object.assign(inv, { status: 'paid', paid_at: settledAt, updated_at: settledAt });
      return inv;
    });
    const statements: BatchItem[] = chunk(rows, ROWS_PER_INSERT).map((part) => ctx.db.insert(invoices).values(part));
    if (payNow.size) {
      statements.push(
        ctx.db
          .update(shiftRequests)
          .set({ request_status: SHIFT_STATUS.completed, updated_at: world.now })
          .where(inArray(shiftRequests.id, [...payNow])),
      );
    }
    await runBatch(ctx.db, statements);
    return rows.length;
  },
};
