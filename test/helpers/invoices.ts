import type { TestUser } from './factory';
import { HOUR, insertShift, makePair } from './shifts';
import { approveShiftTime } from './timesheets';

/** A worked (accepted, clocked out) shift of the pair, 4 h at `rateMinor`/h (default $20), its time approved, and its pending invoice. */
export async function workedShiftInvoice(biz: TestUser, sh: TestUser, opts: { rateMinor?: number; hoursAgo?: number } = {}) {
  const start = Date.now() - (opts.hoursAgo ?? 6) * HOUR;
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: start,
    minutes: 240,
    ...(opts.rateMinor ? { rateMinor: opts.rateMinor } : {}),
    set: { shift_start_at: start, shift_end_at: start + 4 * HOUR },
  });
  const invoice = await approveShiftTime(biz, shift.id);
  return { shift, invoice };
}

/** The same for a new business/shifter pair: 4 h × $20 = 8000 cents unless `rateMinor` says otherwise. */
export async function workedInvoice(opts: { rateMinor?: number } = {}) {
  const { biz, sh } = await makePair();
  return { biz, sh, ...(await workedShiftInvoice(biz, sh, opts)) };
}
