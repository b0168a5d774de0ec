import { eq, type SQL } from 'drizzle-orm';
import { currencies, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toMinorExact } from '../../lib/money';
import { shiftInstants } from '../../lib/shift-time';
import { assertAgentPayWithinCap, type BusinessRow, crewOf, isCrew, postingBusiness } from '../access';
import {
  committedSubject,
  draftEvent,
  type Notice,
  prepareWrite,
  purgeWidgetCache,
  requirePerson,
  type ServiceContext,
  SHIFT_STATUS,
  shiftPayMinor,
  type WriteParts,
} from '../kernel';
import { shiftEvent } from '../webhooks';
import { SHIFT_INPUT_BOUNDS } from './input-bounds';
import { loadView } from './load';
import type { SendRequestInput, ShiftRequestView } from './schemas';

export const MAX_SHIFT_MINUTES = SHIFT_INPUT_BOUNDS.maxMinutes;

const invalid = (field: string, message: string) => new AppError('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);

/** A shift's own fields: send_request's input without the business (change_request and templates fill them in). */
export type ShiftFields = Omit<SendRequestInput, 'business_id'>;

/**
 * What buildShiftRow reads to check a shift (its role, its currency, the targeted shifter and whether
 * they are crew), kept for one request that builds many rows (copy week), so a week of shifts reads
 * each role, currency and shifter once. Made fresh per request: it holds what was read then.
 */
export interface ShiftRowLookups {
  role: Map<number, Promise<typeof shiftRoles.$inferSelect | undefined>>;
  currency: Map<string, Promise<typeof currencies.$inferSelect | undefined>>;
  shifter: Map<string, Promise<{ row: typeof shifters.$inferSelect | undefined; crew: boolean }>>;
}
export const shiftRowLookups = (): ShiftRowLookups => ({ role: new Map(), currency: new Map(), shifter: new Map() });

function once<K, V>(map: Map<K, Promise<V>> | undefined, key: K, read: () => Promise<V>): Promise<V> {
  if (!map) return read();
  let p = map.get(key);
  if (!p) {
    p = read();
    map.set(key, p);
  }
  return p;
}

/**
 * Validates a shift for a business and returns the row to insert: formats, role, rate, currency,
 * the window (positive, at most 24 h, starting in the future), the agent pay cap when an agent posts
 * it, and, for a targeted shift, that the shifter is connected and accepting requests. Shared by
 * send_request, change_request, templates and copy week (which passes `lookups`).
 */
export async function buildShiftRow(
  ctx: ServiceContext,
  business: BusinessRow,
  f: ShiftFields,
  extra: Partial<typeof shiftRequests.$inferInsert> = {},
  lookups?: ShiftRowLookups,
) {
  if (f.is_broadcast && f.shifter_id) throw invalid('shifter_id', 'must be blank for a broadcast');
  if (!f.is_broadcast && !f.shifter_id) throw invalid('shifter_id', 'required for a targeted request (or send is_broadcast=1)');
  const role = await once(lookups?.role, f.shiftrole_id, async () => {
    const [r] = await ctx.db.select().from(shiftRoles).where(eq(shiftRoles.id, f.shiftrole_id)).limit(1);
    return r;
  });
  if (!role?.is_active) throw invalid('shiftrole_id', 'unknown role');
  const currency = f.currency ?? business.currency;
  const cur = await once(lookups?.currency, currency, async () => {
    const [c] = await ctx.db.select().from(currencies).where(eq(currencies.code, currency)).limit(1);
    return c;
  });
  if (!cur) throw invalid('currency', 'unsupported currency');
  const rateMinor = toMinorExact(f.hourly_rate, currency, 'hourly_rate');
  if (rateMinor <= 0) throw invalid('hourly_rate', 'must be positive');

  if (f.shift_in === f.shift_out) throw invalid('shift_out', 'must differ from shift_in');
  const { startsAt, endsAt, minutes } = shiftInstants(f.shift_date, f.shift_in, f.shift_out, business.timezone);
  if (minutes < SHIFT_INPUT_BOUNDS.minMinutes || minutes > MAX_SHIFT_MINUTES)
    throw invalid('shift_out', 'the shift must last between 1 minute and 24 hours');
  if (startsAt <= ctx.now()) throw invalid('shift_date', 'the shift must start in the future');
  // An agent posts no shift it could not then ask the owner to pay (the same cap as the payment tool).
  if (ctx.actor.kind === 'agent')
    assertAgentPayWithinCap(ctx, shiftPayMinor({ starts_at: startsAt, ends_at: endsAt, hourly_rate_minor: rateMinor }), currency);

  const shifterId = f.shifter_id;
  if (shifterId) {
    const { row: s, crew } = await once(lookups?.shifter, shifterId, async () => {
      const [row] = await ctx.db.select().from(shifters).where(eq(shifters.id, shifterId)).limit(1);
      return { row, crew: !!row && (await isCrew(ctx, business.id, row.id)) };
    });
    if (!s || !crew) {
      throw new AppError('SHFT-NOT-CONNECTED-ERR', 'The shifter is not connected to this business.');
    }
    if (!s.accept_shift_req) throw new AppError('SHIFTER-PAUSED-ERR');
  }
  const now = ctx.now();
  // A partner client posts as no person: the write's audit row names the client (docs/decisions/partner-api.md).
  const createdBy = ctx.actor.kind === 'partner' ? null : requirePerson(ctx).userId;
  return {
    id: newId('shiftRequest'),
    business_id: business.id,
    shifter_id: f.shifter_id,
    created_by_user_id: createdBy,
    shift_date: f.shift_date,
    shift_in: f.shift_in,
    shift_out: f.shift_out,
    starts_at: startsAt,
    ends_at: endsAt,
    shiftrole_id: f.shiftrole_id,
    hourly_rate_minor: rateMinor,
    currency,
    is_broadcast: f.is_broadcast,
    is_flexible: f.is_flexible,
    request_status: SHIFT_STATUS.pending,
    note: f.note ?? null,
    created_at: now,
    updated_at: now,
    ...extra,
  } satisfies typeof shiftRequests.$inferInsert;
}

export type NewShiftRow = Awaited<ReturnType<typeof buildShiftRow>>;

/** Who hears about a new request: the targeted shifter, or the crew members accepting requests. */
export async function newShiftRecipients(ctx: ServiceContext, businessId: string, shifterId: string | null): Promise<string[]> {
  const rows = shifterId
    ? await ctx.db.select({ userId: shifters.user_id }).from(shifters).where(eq(shifters.id, shifterId))
    : (await crewOf(ctx, businessId)).filter((c) => c.acceptShiftReq);
  return [...new Set(rows.map((r) => r.userId))];
}

/** The notification and partner event of a new request, as parts of its guarded write. */
export function newShiftEvents(
  row: NewShiftRow,
  business: BusinessRow,
  userIds: string[],
  now: number,
): { notify: Notice[]; events: WriteParts['events'] & {} } {
  const kind = row.is_broadcast ? 'open_shift' : 'shift_request';
  return {
    notify: [
      {
        kind,
        userIds,
        title: row.is_broadcast ? `Open shift at ${business.name}` : `New shift request from ${business.name}`,
        body: `${row.shift_date} ${row.shift_in}–${row.shift_out}`,
        data: { shift_request_id: row.id, business_id: business.id },
      },
    ],
    events: [shiftEvent(row.is_broadcast ? 'broadcast.created' : 'shift_request.created', row, now)],
  };
}

/**
 * The same events as outbox drafts for a batch of several new rows (template generate), each
 * written only when `onlyIf` holds in the batch (the row's conditional insert happened).
 */
export function newShiftEventDrafts(ctx: ServiceContext, row: NewShiftRow, business: BusinessRow, userIds: string[], onlyIf?: SQL) {
  const parts = newShiftEvents(row, business, userIds, ctx.now());
  return [
    ...parts.notify
      .filter((n) => n.userIds.length > 0)
      .map((n) =>
        draftEvent(
          ctx,
          'notifications',
          {
            type: 'notify',
            dedupe_key: `${n.kind}:${row.id}`,
            user_ids: n.userIds,
            kind: n.kind,
            title: n.title,
            body: n.body,
            ...(n.data ? { data: n.data } : {}),
          },
          onlyIf,
        ),
      ),
    ...parts.events.map((e) => draftEvent(ctx, e.topic, e.body, onlyIf)),
  ];
}

/** POST /v1/shift_request/send_request: one shift per call, targeted or broadcast; answers the created request. */
export async function sendRequest(ctx: ServiceContext, input: SendRequestInput): Promise<ShiftRequestView> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadView(ctx, done);
  const business = await postingBusiness(ctx, input.business_id);
  const row = await buildShiftRow(ctx, business, input);
  const r = await prepareWrite(ctx, { type: 'shift_request', id: row.id }).commit({
    guard: ctx.db.insert(shiftRequests).values(row),
    audit: { action: row.is_broadcast ? 'broadcast.create' : 'shift_request.create' },
    ...newShiftEvents(row, business, await newShiftRecipients(ctx, business.id, row.shifter_id), ctx.now()),
  });
  if (row.is_broadcast) await purgeWidgetCache(ctx, 'business', business.id);
  return loadView(ctx, r.subject.id);
}
