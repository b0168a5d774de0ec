import { getTableColumns, inArray } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { businesses, invoices, shiftRequests, timesheets } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { isWorked, type ServiceContext, SHIFT_STATUS } from '../../services/kernel';
import { invoiceFor } from '../../services/invoices';
import { autoApproveAt, paidMinutes, policyOf } from '../../services/timesheets';
import { payForMinutes } from '../../lib/money';
import type { DemoExtra, DemoWorld } from './world';

const DAY = 24 * 3600_000;
/** Worked, not yet settled shifts whose invoice the demo marks paid (the oldest few): the rest stay pending. */
const NEWLY_PAID = 3;
/** Rows per INSERT: D1 takes at most 100 bound parameters per statement, one per column of each row. */
const ROWS_PER_INSERT = Math.floor(100 / Object.keys(getTableColumns(invoices)).length);
const TIMESHEETS_PER_INSERT = Math.floor(100 / Object.keys(getTableColumns(timesheets)).length);
/** The newest worked shifts whose timesheets still await the business's approval (no invoice yet). */
const AWAITING_APPROVAL = 3;
const HOUR = 3600_000;

/**
 * A timesheet for every worked demo shift, from its punches (no breaks), and an invoice for every
 * approved one, priced as approval prices it. The newest few await approval (submitted, no invoice).
 * Shifts the history already settled (status 5) have paid invoices; of the others, the oldest few are
 * paid now (the shift moves 2 → 5 with its invoice, DECISIONS.md) and the rest are pending.
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
    const awaiting = new Set(open.slice(-AWAITING_APPROVAL).map((s) => s.id!));
    const payNow = new Set(
      open
        .filter((s) => !awaiting.has(s.id!))
        .slice(0, NEWLY_PAID)
        .map((s) => s.id!),
    );
    const ids = [...new Set(worked.map((s) => s.business_id))];
    const rowsOfBusinesses = ids.length ? await ctx.db.select().from(businesses).where(inArray(businesses.id, ids)) : [];
    const policies = new Map(rowsOfBusinesses.map((b) => [b.id, policyOf(b)]));
    const sheets = worked.map((s) => {
      const inAt = s.shift_start_at!;
      const outAt = s.shift_end_at!;
      const minutes = paidMinutes({ in_at: inAt, out_at: outAt, unpaid_break_minutes: 0 }, 0);
      const approved = !awaiting.has(s.id!);
      const approvedAt = Math.min(outAt + 2 * HOUR, world.now);
      return {
        id: `ts_${s.id!.slice(3)}`,
        shift_request_id: s.id!,
        business_id: s.business_id,
        shifter_id: s.shifter_id!,
        status: approved ? ('approved' as const) : ('submitted' as const),
        in_at: inAt,
        out_at: outAt,
        left_early: outAt < s.ends_at,
        submitted_at: outAt,
        dispute_until: outAt + 12 * HOUR,
        auto_approve_at: autoApproveAt(policies.get(s.business_id)!, s.shift_date, outAt),
        approved_at: approved ? approvedAt : null,
        approved_how: approved ? ('business' as const) : null,
        paid_minutes: approved ? minutes : null,
        pay_minor: approved ? payForMinutes(minutes, s.hourly_rate_minor) : null,
        created_at: inAt,
        updated_at: approved ? approvedAt : outAt,
      };
    });
    const rows = sheets
      .filter((t) => t.status === 'approved')
      .map((t) => {
        const s = worked.find((w) => w.id === t.shift_request_id)!;
        const inv = invoiceFor({ ...s, id: s.id!, shifter_id: s.shifter_id ?? null }, t.approved_at!, t.pay_minor!);
        const settledAt =
          s.request_status === SHIFT_STATUS.completed
            ? (s.updated_at ?? s.shift_end_at!)
            : payNow.has(s.id!)
              ? Math.min(s.shift_end_at! + DAY, world.now)
              : null;
        if (settledAt !== null) Object.assign(inv, { status: 'paid', paid_at: settledAt, updated_at: settledAt });
        return inv;
      });
    const statements: BatchItem[] = [
      ...chunk(sheets, TIMESHEETS_PER_INSERT).map((part) => ctx.db.insert(timesheets).values(part)),
      ...chunk(rows, ROWS_PER_INSERT).map((part) => ctx.db.insert(invoices).values(part)),
    ];
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
