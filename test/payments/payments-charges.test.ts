// inside: services/payments
import { eq } from 'drizzle-orm';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { invoices, paymentSimObjects, shiftRequests } from '../../src/db/schema';
import { chargeInvoice, sweepAutomaticCharges } from '../../src/services/payments';
import { CHARGE_LEASE_MS } from '../../src/services/payments/charge';
import { SimulatorGateway } from '../../src/local/payment-simulator';
import type { AppBindings } from '../../src/env';
import { AppError } from '../../src/lib/errors';
import worker from '../../src';
import { call, expectError, type WorkerFetch, workerWith } from '../helpers/api';
import {
  CARD,
  chargeCall,
  deliverEvents,
  heldCtx,
  heldWorker,
  intentsOf,
  invoiceRow,
  saveCard,
  shiftStatus,
  workedInvoice,
} from '../helpers/charges';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { approveShiftTime } from '../helpers/timesheets';
import { auditFor, HOUR, insertShift, MINUTE, makePair, outboxFor } from '../helpers/shifts';

const paidNotices = (invoiceId: string) => outboxFor(invoiceId, { topic: 'notifications', kind: 'invoice_paid' });
const failedNotices = (invoiceId: string) => outboxFor(invoiceId, { topic: 'notifications', kind: 'payment_failed' });

describe('charging an invoice on demand', () => {
  it('succeeds on the default card: paid with its charge recorded, the shift 2 → 5, once; the later webhook event finds it unchanged', async () => {
    const { biz, shift, invoice } = await workedInvoice();
    const res = await chargeCall(biz, invoice.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'succeeded', invoice_id: invoice.id, client_secret: null, decline_code: null });
    expect(res.body.payment_intent_id).toMatch(/^pi_/);

    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({ status: 'paid', payment_intent_id: res.body.payment_intent_id, charge_attempts: 1, charging_since: null });
    expect(row.charge_id).toMatch(/^ch_/);
    expect(row.charge_attempted_at).not.toBeNull();
    expect(await shiftStatus(shift.id)).toBe(5);
    const [pi] = await intentsOf(invoice.id);
    expect(pi!.data).toMatchObject({
      amount: 8000,
      currency: 'usd',
      off_session: true,
      metadata: { invoice_id: invoice.id, business_id: biz.businessId },
    });
    expect(pi!.idempotency_key).toContain(`charge:${invoice.id}:1`);

    // The processor's payment_intent.succeeded arrives afterwards: nothing changes, no second notice.
    const delivered = await deliverEvents();
    expect(delivered.delivered).toBeGreaterThan(0);
    const after = await invoiceRow(invoice.id);
    expect(after).toMatchObject({ status: 'paid', paid_at: row.paid_at, charge_id: row.charge_id });
    expect(await paidNotices(invoice.id)).toHaveLength(1);
    expect(await auditFor(invoice.id, 'invoice.paid')).toHaveLength(1);

    // Paid is final: charging again is refused and makes no new intent.
    expectError(await chargeCall(biz, invoice.id), 409, 'INVOICE-PAID-ERR');
    expect(await intentsOf(invoice.id)).toHaveLength(1);
  });

  it('a decline is a result: the invoice stays pending with failed_at, the owner is told once; a new card then pays it with a new attempt', async () => {
    const { biz, shift, invoice } = await workedInvoice({ card: CARD.insufficientFunds });
    const res = await chargeCall(biz, invoice.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', decline_code: 'insufficient_funds', client_secret: null });
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({
      status: 'pending',
      requires_action: false,
      paid_at: null,
      payment_intent_id: res.body.payment_intent_id,
      charging_since: null,
    });
    expect(row.failed_at).not.toBeNull();
    await deliverEvents(); // payment_intent.payment_failed: already recorded
    expect(await failedNotices(invoice.id)).toHaveLength(1);
    expect(await shiftStatus(shift.id)).toBe(2);

    const card = await saveCard(biz, biz.businessId!, CARD.visa);
    await call('POST', `/v1/business/${biz.businessId}/payment_methods/${card.payment_method_id}/default`, { key: biz.key });
    const retry = await chargeCall(biz, invoice.id);
    expect(retry.body.status).toBe('succeeded');
    expect(retry.body.payment_intent_id).not.toBe(res.body.payment_intent_id);
    const intents = await intentsOf(invoice.id);
    expect(intents.map((i) => i.idempotency_key?.split(':').slice(-2).join(':')).sort()).toEqual([`${invoice.id}:1`, `${invoice.id}:2`]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', charge_attempts: 2 });
  });

  it('refuses above the operator cap (422 PAYMENT-CAP-ERR) and without a card (422 PAYMENT-CARD-REQ-ERR), making no intent', async () => {
    const capped = await workedInvoice();
    const low = workerWith({ PAYMENT_MAX_CHARGE_MINOR: '7999', PAYMENT_SIMULATOR_DELIVERY: 'held' });
    const err = expectError(
      await call('POST', `/v1/invoices/${capped.invoice.id}/charge`, { key: capped.biz.key, worker: low }),
      422,
      'PAYMENT-CAP-ERR',
    );
    expect(err.details).toEqual({ amount_minor: 8000, max_minor: 7999 });
    const atCap = workerWith({ PAYMENT_MAX_CHARGE_MINOR: '8000', PAYMENT_SIMULATOR_DELIVERY: 'held' });
    expect((await call('POST', `/v1/invoices/${capped.invoice.id}/charge`, { key: capped.biz.key, worker: atCap })).body.status).toBe(
      'succeeded',
    );

    const bare = await workedInvoice({ card: null });
    expectError(await chargeCall(bare.biz, bare.invoice.id), 422, 'PAYMENT-CARD-REQ-ERR');
    expect(await intentsOf(bare.invoice.id)).toHaveLength(0);
    expect(await invoiceRow(bare.invoice.id)).toMatchObject({ status: 'pending', charge_attempts: 0, charge_attempted_at: null });
  });

  it('only the owner or an admin: an active teammate 403, a stranger and the shifter 404 INVOICE-NOT-FND-ERR', async () => {
    const { biz, sh, invoice } = await workedInvoice();
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    const stranger = await makeUser({ business: true });
    expectError(await chargeCall(mate, invoice.id), 403, 'FORBIDDEN-ERR');
    expectError(await chargeCall(stranger, invoice.id), 404, 'INVOICE-NOT-FND-ERR');
    expectError(await chargeCall(sh, invoice.id), 404, 'INVOICE-NOT-FND-ERR');
    expectError(await chargeCall(biz, 'in_doesnotexist'), 404, 'INVOICE-NOT-FND-ERR');
    expect(await intentsOf(invoice.id)).toHaveLength(0);
    const admin = await makeUser({ admin: true });
    expect((await chargeCall(admin, invoice.id)).body.status).toBe('succeeded');
  });

  it('10 concurrent charges of one invoice make one PaymentIntent and one paid transition; the others are told 409', async () => {
    const { biz, shift, invoice } = await workedInvoice();
    const answers = await Promise.all(Array.from({ length: 10 }, () => chargeCall(biz, invoice.id)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok, JSON.stringify(answers.map((a) => [a.status, a.body]))).toHaveLength(1);
    expect(ok[0]!.body.status).toBe('succeeded');
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(['PAYMENT-IN-PROGRESS-ERR', 'INVOICE-PAID-ERR']).toContain(a.body.error.code);
    }
    expect(await intentsOf(invoice.id)).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', charge_attempts: 1 });
    expect(await paidNotices(invoice.id)).toHaveLength(1);
    expect(await auditFor(invoice.id, 'invoice.paid')).toHaveLength(1);
    expect(await shiftStatus(shift.id)).toBe(5);
  });

  it('a refusal by the processor (the card detached behind our back) ends the attempt: no claim is left, the next attempt takes a new key', async () => {
    const { biz, invoice } = await workedInvoice();
    const cards = await call('GET', `/v1/business/${biz.businessId}/payment_methods`, { key: biz.key });
    const cardId = cards.body.data[0].payment_method_id as string;
    const [simCard] = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, cardId));
    await db()
      .update(paymentSimObjects)
      .set({ data: { ...(simCard!.data as Record<string, unknown>), customer: null } })
      .where(eq(paymentSimObjects.id, cardId));

    const refused = expectError(await chargeCall(biz, invoice.id), 502, 'PAYMENT-GATEWAY-ERR');
    expect(refused.details).toEqual({ processor_code: 'payment_method_not_attached' });
    const after = await invoiceRow(invoice.id);
    expect(after).toMatchObject({ status: 'pending', charge_attempts: 1, charging_since: null });
    expect(after.charge_attempted_at).not.toBeNull();

    await db().update(paymentSimObjects).set({ data: simCard!.data }).where(eq(paymentSimObjects.id, cardId));
    const retry = await chargeCall(biz, invoice.id);
    expect(retry.body.status).toBe('succeeded');
    expect((await intentsOf(invoice.id)).map((i) => i.idempotency_key?.endsWith(`charge:${invoice.id}:2`))).toEqual([true]);
  });

  it('an outage (injected at the processor) gives the attempt back: the automatic sweep retries it with the same key', async () => {
    const { invoice } = await workedInvoice();
    const real = SimulatorGateway.prototype.chargeOffSession;
    let failed = 0;
    const outage = vi.spyOn(SimulatorGateway.prototype, 'chargeOffSession').mockImplementation(async function (
      this: SimulatorGateway,
      input,
    ) {
      if (input.metadata.invoice_id === invoice.id && failed++ === 0) {
        throw new AppError('PAYMENT-GATEWAY-ERR', 'The payment processor could not be reached; try again shortly.');
      }
      return real.call(this, input);
    });
    const first = await sweepAutomaticCharges(heldCtx(null));
    expect(first.errors).toBeGreaterThanOrEqual(1);
    expect(outage).toHaveBeenCalled();
    expect(await invoiceRow(invoice.id)).toMatchObject({
      status: 'pending',
      charge_attempts: 0,
      charging_since: null,
      charge_attempted_at: null,
    });
    outage.mockRestore();

    await sweepAutomaticCharges(heldCtx(null));
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', charge_attempts: 1 });
    expect((await intentsOf(invoice.id)).map((i) => i.idempotency_key?.endsWith(`charge:${invoice.id}:1`))).toEqual([true]);
  });
});

/**
 * The Worker (events held) on a D1 binding whose next batch commits and then loses its answer (the
 * call throws): a failure after the commit, injected on this Worker's requests only, so background
 * work of other tests (queue consumers) cannot take the injection.
 */
function losingNextBatchAnswer(): WorkerFetch {
  let armed = true;
  const d1 = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'batch' && armed) {
        return async (statements: D1PreparedStatement[]) => {
          armed = false;
          await target.batch(statements);
          throw new Error('injected: connection lost after the commit');
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const bindings = { ...env, DB: d1, PAYMENT_SIMULATOR_DELIVERY: 'held' } as AppBindings;
  return async (req) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(req, bindings, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}

describe('charging on demand: retries', () => {
  it('the same Idempotency-Key replays the first answer and makes no second intent', async () => {
    const { biz, invoice } = await workedInvoice();
    const key = { 'Idempotency-Key': `charge-${crypto.randomUUID()}` };
    const first = await chargeCall(biz, invoice.id, key);
    expect(first.body.status).toBe('succeeded');
    const again = await chargeCall(biz, invoice.id, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await intentsOf(invoice.id)).toHaveLength(1);
  });

  it('a claim whose answer was lost (injected) holds the invoice; the retry answers from it, and after the lease the attempt resumes with the same key', async () => {
    const { biz, invoice } = await workedInvoice();
    const key = { 'Idempotency-Key': `charge-${crypto.randomUUID()}` };
    const lost = await call('POST', `/v1/invoices/${invoice.id}/charge`, { key: biz.key, worker: losingNextBatchAnswer(), headers: key });
    expect(lost.status).toBe(500);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'pending', charge_attempts: 1 });
    expect((await invoiceRow(invoice.id)).charging_since).not.toBeNull();
    expect(await intentsOf(invoice.id)).toHaveLength(0);

    // The retry of the same request: the claim committed, so it answers from the invoice (no second claim).
    const retry = await chargeCall(biz, invoice.id, key);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ status: 'processing', payment_intent_id: null });
    // Another request meanwhile is told the attempt is in flight.
    expectError(await chargeCall(biz, invoice.id), 409, 'PAYMENT-IN-PROGRESS-ERR');

    // Past the lease the attempt is taken over with the same number: the same processor key.
    const later = { ...heldCtx(biz), now: () => Date.now() + CHARGE_LEASE_MS + 60_000 };
    expect((await chargeInvoice(later, invoice.id, { trigger: 'on_demand' })).status).toBe('succeeded');
    const intents = await intentsOf(invoice.id);
    expect(intents.map((i) => i.idempotency_key?.endsWith(`charge:${invoice.id}:1`))).toEqual([true]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', charge_attempts: 1, charging_since: null });
  });
});

/** A shift of a new pair clocked in 4 hours ago and ending in 5 minutes: the shifter may clock out now. */
async function shiftToClockOut(opts: { broadcastClaimed?: boolean } = {}) {
  const { biz, sh } = await makePair();
  const start = Date.now() - 4 * HOUR + 5 * MINUTE;
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: start,
    minutes: 240,
    broadcast: opts.broadcastClaimed ?? false,
    set: { shift_start_at: start },
  });
  return { biz, sh, shift };
}

const clockOut = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/clock_out`, { key, body: {}, worker: heldWorker });

describe('the automatic charge', () => {
  it('an invoice created at the approval of the time is charged by the sweep without anyone asking, once; without a card it waits until one is saved', async () => {
    const { biz, sh, shift } = await shiftToClockOut();
    await saveCard(biz, biz.businessId!);
    expect((await clockOut(shift.id, sh.key)).status).toBe(200);
    // Nothing is invoiced before the time is approved.
    expect(await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id))).toEqual([]);
    const inv = await approveShiftTime(biz, shift.id);
    expect(inv).toMatchObject({ status: 'pending', charge_attempted_at: null });

    const first = await sweepAutomaticCharges(heldCtx(null));
    expect(first.succeeded).toBeGreaterThanOrEqual(1);
    expect(await invoiceRow(inv!.id)).toMatchObject({ status: 'paid', charge_attempts: 1 });
    expect(await shiftStatus(shift.id)).toBe(5);
    await sweepAutomaticCharges(heldCtx(null));
    expect(await intentsOf(inv!.id)).toHaveLength(1);

    // No card: the invoice waits, untouched, until the business saves one.
    const waiting = await shiftToClockOut();
    await clockOut(waiting.shift.id, waiting.sh.key);
    const w = await approveShiftTime(waiting.biz, waiting.shift.id);
    await sweepAutomaticCharges(heldCtx(null));
    expect(await invoiceRow(w!.id)).toMatchObject({ status: 'pending', charge_attempted_at: null, charge_attempts: 0 });
    await saveCard(waiting.biz, waiting.biz.businessId!);
    await sweepAutomaticCharges(heldCtx(null));
    expect((await invoiceRow(w!.id)).status).toBe('paid');
  });

  it('an automatic attempt whose process died (claimed, no answer recorded) is resumed by the sweep after the lease, with the same key', async () => {
    const { invoice } = await workedInvoice();
    const died = Date.now() - CHARGE_LEASE_MS - 60_000;
    await db()
      .update(invoices)
      .set({ charge_attempts: 1, charging_since: died, charge_attempted_at: died })
      .where(eq(invoices.id, invoice.id));
    await sweepAutomaticCharges(heldCtx(null));
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', charge_attempts: 1, charging_since: null });
    expect((await intentsOf(invoice.id)).map((i) => i.idempotency_key?.endsWith(`charge:${invoice.id}:1`))).toEqual([true]);

    // Within the lease the claim is left alone.
    const fresh = await workedInvoice();
    const now = Date.now();
    await db()
      .update(invoices)
      .set({ charge_attempts: 1, charging_since: now, charge_attempted_at: now })
      .where(eq(invoices.id, fresh.invoice.id));
    await sweepAutomaticCharges(heldCtx(null));
    expect(await intentsOf(fresh.invoice.id)).toHaveLength(0);
  });

  it('two concurrent sweeps charge each invoice once; a declined automatic charge is not tried again by the sweep', async () => {
    const owner = await makeUser({ business: true });
    await saveCard(owner, owner.businessId!);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sh = await makeUser({ shifter: true });
      const start = Date.now() - (8 + i) * HOUR;
      const shift = await insertShift({
        businessId: owner.businessId!,
        shifterId: sh.shifterId,
        startsAt: start,
        minutes: 120,
        set: { shift_start_at: start, shift_end_at: start + 2 * HOUR },
      });
      ids.push((await approveShiftTime(owner, shift.id)).id);
    }
    await Promise.all([sweepAutomaticCharges(heldCtx(null)), sweepAutomaticCharges(heldCtx(null))]);
    for (const id of ids) {
      expect(await intentsOf(id), id).toHaveLength(1);
      expect(await invoiceRow(id)).toMatchObject({ status: 'paid', charge_attempts: 1 });
      expect(await paidNotices(id)).toHaveLength(1);
    }

    const declined = await workedInvoice({ card: CARD.declined });
    await Promise.all([sweepAutomaticCharges(heldCtx(null)), sweepAutomaticCharges(heldCtx(null))]);
    expect(await invoiceRow(declined.invoice.id)).toMatchObject({ status: 'pending', charge_attempts: 1 });
    expect((await invoiceRow(declined.invoice.id)).failed_at).not.toBeNull();
    await sweepAutomaticCharges(heldCtx(null));
    expect(await intentsOf(declined.invoice.id)).toHaveLength(1);
  });
});

describe('pre-paying a claimed shift', () => {
  it('a claimed broadcast is pre-paid (invoice paid, shift still 2); its approved time keeps that invoice and completes the shift (5)', async () => {
    const { biz, sh, shift } = await shiftToClockOut({ broadcastClaimed: true });
    await saveCard(biz, biz.businessId!);
    const res = await call('POST', `/v1/shift_request/${shift.id}/prepay`, { key: biz.key, worker: heldWorker });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('succeeded');
    const inv = await invoiceRow(res.body.invoice_id);
    expect(inv).toMatchObject({ status: 'paid', shift_request_id: shift.id, amount_minor: 8000 });
    expect(await shiftStatus(shift.id)).toBe(2);

    // Asked again: answered as paid, nothing new.
    const again = await call('POST', `/v1/shift_request/${shift.id}/prepay`, { key: biz.key, worker: heldWorker });
    expect(again.body).toMatchObject({ status: 'succeeded', invoice_id: inv.id });
    expect(await intentsOf(inv.id)).toHaveLength(1);

    const out = await clockOut(shift.id, sh.key);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    // Worked, its time not yet approved: still 2; the approval completes it.
    expect(await shiftStatus(shift.id)).toBe(2);
    await approveShiftTime(biz, shift.id);
    expect(await shiftStatus(shift.id)).toBe(5);
    const all = await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id));
    expect(all.map((i) => i.id)).toEqual([inv.id]);
  });

  it('a pending request, an open broadcast and a worked shift are refused (409 SHFT-STATE-ERR); a teammate 403, the shifter 404', async () => {
    const { biz, sh } = await makePair();
    await saveCard(biz, biz.businessId!);
    const later = Date.now() + 3 * 24 * HOUR;
    const pending = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: later, status: 1 });
    const open = await insertShift({ businessId: biz.businessId!, shifterId: null, startsAt: later, status: 1, broadcast: true });
    const worked = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - 6 * HOUR,
      set: { shift_start_at: Date.now() - 6 * HOUR, shift_end_at: Date.now() - 2 * HOUR },
    });
    for (const s of [pending, open, worked]) {
      expectError(await call('POST', `/v1/shift_request/${s.id}/prepay`, { key: biz.key, worker: heldWorker }), 409, 'SHFT-STATE-ERR');
    }
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: later });
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    expectError(await call('POST', `/v1/shift_request/${accepted.id}/prepay`, { key: mate.key, worker: heldWorker }), 403, 'FORBIDDEN-ERR');
    expectError(
      await call('POST', `/v1/shift_request/${accepted.id}/prepay`, { key: sh.key, worker: heldWorker }),
      404,
      'SHFT-NOT-FND-ERR',
    );
    const rows = await db().select().from(invoices).where(eq(invoices.business_id, biz.businessId!));
    expect(rows).toHaveLength(0);
    expect((await db().select().from(shiftRequests).where(eq(shiftRequests.id, accepted.id)))[0]!.request_status).toBe(2);
  });
});
