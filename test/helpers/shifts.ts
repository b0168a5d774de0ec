import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog, businesses, outboxEvents, shiftRequests } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import worker from '../../src';
import { newId } from '../../src/lib/ids';
import { addDays, dateInZone, shiftInstants, timeInZone } from '../../src/lib/shift-time';
import { QUEUES } from '../../src/queues/consumer';
import { type ApiResult, call, type CallOptions, expectError, workerWith } from './api';
import { connect, db, makeUser, type MakeUserOptions, type TestUser } from './factory';
import { expectDenied } from './security';

export const NY = 'America/New_York';
export const NYC = { lat: 40.7128, lon: -74.006 } as const;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export type ShiftRow = typeof shiftRequests.$inferSelect;

/** The calendar date `days` from today in `tz`. */
export function dateAhead(days: number, tz: string = NY): string {
  return addDays(dateInZone(Date.now(), tz), days);
}

/**
 * Wall-clock fields of a window that starts `minutesAhead` from now (rounded up to the next whole
 * minute, so it is always in the future) and lasts `minutes`, read in `tz`.
 */
export function windowFromNow(minutesAhead: number, minutes = 4 * 60, tz: string = NY) {
  const start = Math.ceil((Date.now() + minutesAhead * MINUTE) / MINUTE) * MINUTE;
  const end = start + minutes * MINUTE;
  return { shift_date: dateInZone(start, tz), shift_in: timeInZone(start, tz), shift_out: timeInZone(end, tz) };
}

/** A valid send_request body: a day shift two days ahead in the business zone, role 1, $20/h. */
export function shiftBody(overrides: Record<string, unknown> = {}) {
  return { shift_date: dateAhead(2), shift_in: '09:00', shift_out: '17:00', shiftrole_id: 1, hourly_rate: 20, ...overrides };
}

/** Posts one shift through the API and returns the created request (fails the test unless 201). */
export async function postShift(key: string, body: Record<string, unknown>, opts: Omit<CallOptions, 'key' | 'body'> = {}) {
  const res = await call('POST', '/v1/shift_request/send_request', { key, body: shiftBody(body), ...opts });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

/** A business owner and a shifter with an accepted connection. */
export async function makePair(opts: { business?: MakeUserOptions['business']; shifter?: MakeUserOptions['shifter'] } = {}) {
  const biz = await makeUser({ business: opts.business ?? true });
  const sh = await makeUser({ shifter: opts.shifter ?? true });
  await connect(biz.businessId!, sh.shifterId!);
  return { biz, sh };
}

/** A shifter connected to the given business. */
export async function makeCrewMember(businessId: string, shifter: MakeUserOptions['shifter'] = true): Promise<TestUser> {
  const sh = await makeUser({ shifter });
  await connect(businessId, sh.shifterId!);
  return sh;
}

export interface InsertSpec {
  businessId: string;
  shifterId?: string | null;
  tz?: string;
  /** The start instant (rounded down to the minute); or give date/in/out. */
  startsAt?: number;
  minutes?: number;
  date?: string;
  in?: string;
  out?: string;
  status?: number;
  broadcast?: boolean;
  role?: number;
  rateMinor?: number;
  currency?: string;
  set?: Partial<typeof shiftRequests.$inferInsert>;
}

/**
 * Inserts a shift row straight into D1, with starts_at/ends_at computed from the wall-clock fields in
 * the business zone, for rows the API refuses to create (started, past, worked, final states).
 * Defaults: an accepted (2) targeted shift of role 1 at $20/h.
 */
export async function insertShift(spec: InsertSpec): Promise<ShiftRow> {
  const row = shiftRow(spec);
  await db().insert(shiftRequests).values(row);
  return (await readShift(row.id))!;
}

/**
 * Many rows as insertShift makes them, sent in a few D1 batches rather than two round trips each
 * (the relevance tests insert hundreds); returns the rows as inserted, in order.
 */
export async function insertShifts(specs: InsertSpec[]): Promise<Array<typeof shiftRequests.$inferInsert>> {
  const rows = specs.map(shiftRow);
  const d = db();
  for (let i = 0; i < rows.length; i += 100) {
    const statements = rows.slice(i, i + 100).map((row) => d.insert(shiftRequests).values(row));
    await d.batch(statements as [(typeof statements)[number], ...typeof statements]);
  }
  return rows;
}

function shiftRow(spec: InsertSpec) {
  const tz = spec.tz ?? NY;
  let date = spec.date;
  let shiftIn = spec.in;
  let shiftOut = spec.out;
  if (spec.startsAt !== undefined) {
    const start = Math.floor(spec.startsAt / MINUTE) * MINUTE;
    const end = start + (spec.minutes ?? 4 * 60) * MINUTE;
    date = dateInZone(start, tz);
    shiftIn = timeInZone(start, tz);
    shiftOut = timeInZone(end, tz);
  }
  if (!date || !shiftIn || !shiftOut) throw new Error('insertShift needs startsAt or date/in/out');
  const { startsAt, endsAt } = shiftInstants(date, shiftIn, shiftOut, tz);
  const now = Date.now();
  const status = spec.status ?? 2;
  return {
    id: newId('shiftRequest'),
    business_id: spec.businessId,
    shifter_id: spec.shifterId ?? null,
    shift_date: date,
    shift_in: shiftIn,
    shift_out: shiftOut,
    starts_at: startsAt,
    ends_at: endsAt,
    shiftrole_id: spec.role ?? 1,
    hourly_rate_minor: spec.rateMinor ?? 2000,
    currency: spec.currency ?? 'USD',
    is_broadcast: spec.broadcast ?? false,
    request_status: status,
    accepted_at: status === 2 || status === 5 ? Math.min(now, startsAt) - HOUR : null,
    created_at: Math.min(now, startsAt) - 2 * HOUR,
    updated_at: now,
    ...spec.set,
  } satisfies typeof shiftRequests.$inferInsert;
}

export async function readShift(id: string): Promise<ShiftRow | undefined> {
  const [row] = await db().select().from(shiftRequests).where(eq(shiftRequests.id, id));
  return row;
}

export async function childrenOf(parentId: string): Promise<ShiftRow[]> {
  return db().select().from(shiftRequests).where(eq(shiftRequests.parent_id, parentId));
}

export async function setBusiness(businessId: string, values: Partial<typeof businesses.$inferInsert>) {
  await db().update(businesses).set(values).where(eq(businesses.id, businessId));
}

export interface OutboxRow {
  id: string;
  topic: string;
  sent_at: number | null;
  body: any;
}

/** Outbox events mentioning a shift request id, optionally of one topic and notification kind. */
export async function outboxFor(shiftId: string, opts: { topic?: 'notifications' | 'webhooks'; kind?: string } = {}): Promise<OutboxRow[]> {
  const rows = await db()
    .select()
    .from(outboxEvents)
    .where(and(like(outboxEvents.body, `%${shiftId}%`), opts.topic ? eq(outboxEvents.topic, opts.topic) : undefined));
  return rows
    .map((r) => ({ id: r.id, topic: r.topic, sent_at: r.sent_at, body: JSON.parse(r.body) }))
    .filter((r) => opts.kind === undefined || r.body.kind === opts.kind);
}

export async function auditFor(shiftId: string, action: string) {
  return db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subject_id, shiftId), eq(auditLog.action, action)));
}

/** Runs the Worker's notifications consumer on the given message bodies, as the platform would. */
export async function consumeNotifications(bodies: unknown[]) {
  const batch = createMessageBatch(
    QUEUES.notifications,
    bodies.map((body, i) => ({ id: `msg-${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch, env, ctx);
  return getQueueResult(batch, ctx);
}

/** Runs the Worker's scheduled handler for one cron expression. */
export async function runCron(cron: string, bindings: AppBindings = env) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron, scheduledTime: Date.now() }), bindings, ctx);
  await waitOnExecutionContext(ctx);
}

/**
 * Calls the Worker's fetch handler with modified Worker vars (settings are parsed per env object),
 * e.g. { SHIFT_CLOCK_GEOFENCE_HARD_FAIL: 'true' }.
 */
export function callWithEnv(method: string, path: string, opts: CallOptions, vars: Record<string, string>): Promise<ApiResult> {
  return call(method, path, { ...opts, worker: workerWith(vars) });
}

/** A tiny but real PNG (1×1, the 8-byte signature, IHDR, IDAT, IEND). */
export function pngBytes(): Uint8Array {
  const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** A multipart body with one `file` field. */
export function photoForm(bytes: Uint8Array, name = 'photo.png', type = 'image/png'): FormData {
  const form = new FormData();
  form.append('file', new File([bytes], name, { type }));
  return form;
}

/** A cross-party denial: the shared expectDenied check plus the exact status and code. */
export async function expectDeniedWith(res: ApiResult, status: 403 | 404, code: string) {
  await expectDenied(res, [status]);
  expectError(res, status, code);
}

/** A 400 VALIDATION-ERR whose details name the field (zod paths are prefixed, e.g. json.shift_date). */
export function expectValidation(res: ApiResult, field: string) {
  const err = expectError(res, 400, 'VALIDATION-ERR');
  const fields = (err.details as Array<{ field: string }>).map((d) => d.field);
  expect(
    fields.some((f) => f === field || f.endsWith(`.${field}`)),
    `details ${JSON.stringify(err.details)}`,
  ).toBe(true);
}
