import { and, eq, isNull, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { type CounterOfferStatus, counterOffers, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { fromMinor, toMinorExact } from '../../lib/money';
import { toIso } from '../../lib/time';
import { shiftForParty, shiftParty } from '../access';
import { prepareWrite, type ServiceContext, SHIFT_STATUS, shiftWhen, stateError } from '../kernel';
import { loadShift } from './load';
import { businessRecipients } from '../notifications';

export interface CounterOfferView {
  id: string;
  shift_request_id: string;
  shifter_id: string;
  business_id: string;
  hourly_rate: number;
  original_hourly_rate: number;
  currency: string;
  note: string | null;
  status: CounterOfferStatus;
  created_at: string;
}

/**
 * create_counter_offer (spec 4.9 rule 4): the shifter a pending request is targeted to proposes
 * another rate. Broadcasts are NOT-NEGOTIABLE (first claim wins at the posted rate); any other state
 * is refused with the shift's state code, a started shift with SHFT-STATE-ERR. The offer is one row
 * per shift (a new one replaces the last), written only while the request is still pending, targeted
 * to this shifter and in the future, in one batch with its audit row and the business's notification.
 */
export async function proposeCounterOffer(
  ctx: ServiceContext,
  shiftRequestId: string,
  args: { hourly_rate: number; note?: string | undefined },
): Promise<{ counter_offer: CounterOfferView }> {
  const loaded = await loadShift(ctx, shiftRequestId);
  if (loaded.row.is_broadcast) {
    // Whoever may see the broadcast (its crew, the business side) learns it is not negotiable; to
    // anyone else it does not exist.
    await shiftParty(ctx, loaded);
    throw new AppError('NOT-NEGOTIABLE', 'Broadcasts are not negotiable: claim it at its posted rate, or leave it.');
  }
  const { s, sides } = await shiftForParty(ctx, shiftRequestId);
  const row = s.row;
  if (!sides.includes('shifter')) throw new AppError('FORBIDDEN-ERR', 'Only the shifter a request is sent to can make a counter-offer.');
  if (row.request_status !== SHIFT_STATUS.pending) throw stateError(row, 'pending (a scheduled request not yet accepted)');
  const now = ctx.now();
  if (row.starts_at <= now) throw new AppError('SHFT-STATE-ERR', 'The shift has already started.');
  const rateMinor = toMinorExact(args.hourly_rate, row.currency, 'hourly_rate');
  if (rateMinor === row.hourly_rate_minor) {
    throw new AppError('VALIDATION-ERR', 'hourly_rate: the same as the offered rate; accept the request instead.', [
      { field: 'hourly_rate', message: 'same as the offered rate' },
    ]);
  }
  const id = newId('counterOffer');
  const stillOpen = sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${and(
    eq(shiftRequests.id, row.id),
    eq(shiftRequests.request_status, SHIFT_STATUS.pending),
    eq(shiftRequests.is_broadcast, false),
    eq(shiftRequests.shifter_id, row.shifter_id ?? ''),
    isNull(shiftRequests.shift_start_at),
  )})`;
  // The audit row and notification follow only if the offer was written now (no op column: its
  // stamp and rate, while the request is still open).
  const written = sql`EXISTS (SELECT 1 FROM ${counterOffers} WHERE ${and(
    eq(counterOffers.shift_request_id, row.id),
    eq(counterOffers.updated_at, now),
    eq(counterOffers.hourly_rate_minor, rateMinor),
  )}) AND ${stillOpen}`;
  const w = prepareWrite(ctx, { type: 'shift_request', id: row.id }, () => written);
  const r = await w.commit({
    guard: insertWhere(
      ctx.db,
      counterOffers,
      {
        id,
        shift_request_id: row.id,
        shifter_id: row.shifter_id,
        business_id: s.business.id,
        hourly_rate_minor: rateMinor,
        currency: row.currency,
        note: args.note ?? null,
        status: 'pending',
        created_at: now,
        updated_at: now,
      },
      stillOpen,
    ).onConflictDoUpdate({
      target: counterOffers.shift_request_id,
      set: { hourly_rate_minor: rateMinor, note: args.note ?? null, updated_at: now },
    }),
    audit: { action: 'shift_request.counter_offer', data: { hourly_rate_minor: rateMinor, currency: row.currency } },
    notify: [
      {
        kind: 'counter_offer',
        userIds: await businessRecipients(ctx, s.business.id, 'counter_offer'),
        title: `${s.shifter?.display_name ?? 'A shifter'} proposes ${args.hourly_rate} ${row.currency}/h`,
        body: `${shiftWhen(row)} (offered at ${fromMinor(row.hourly_rate_minor, row.currency)} ${row.currency}/h)${args.note ? `: ${args.note}` : ''}`,
      },
    ],
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', 'The request changed while sending the counter-offer; look at it again.');
  const [offer] = await ctx.db.select().from(counterOffers).where(eq(counterOffers.shift_request_id, row.id)).limit(1);
  if (!offer) throw new Error(`counter offer of ${row.id} not found after writing it`);
  return {
    counter_offer: {
      id: offer.id,
      shift_request_id: offer.shift_request_id,
      shifter_id: offer.shifter_id,
      business_id: offer.business_id,
      hourly_rate: fromMinor(offer.hourly_rate_minor, offer.currency),
      original_hourly_rate: fromMinor(row.hourly_rate_minor, row.currency),
      currency: offer.currency,
      note: offer.note,
      status: offer.status,
      created_at: toIso(offer.created_at),
    },
  };
}
