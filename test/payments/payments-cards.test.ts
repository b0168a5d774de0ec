import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { paymentCustomers, paymentMethods, paymentSimObjects } from '../../src/db/schema';
import { AppError } from '../../src/lib/errors';
import { SimulatorGateway, simulatorConfirmSetupIntent } from '../../src/local/payment-simulator';
import { call, expectError } from '../helpers/api';
import { CARD, heldCtx, heldWorker, saveCard } from '../helpers/charges';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { outboxFor } from '../helpers/shifts';

const base = (businessId: string) => `/v1/business/${businessId}/payment_methods`;

describe('saved cards', () => {
  it('setup intent → the card form confirms it → the card is recorded, first card default, the owner alone notified; the customer is made once', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser();
    await addTeammate(owner.businessId!, mate.userId);

    const [a, b] = await Promise.all([
      call('POST', `${base(owner.businessId!)}/setup_intent`, { key: owner.key, worker: heldWorker }),
      call('POST', `${base(owner.businessId!)}/setup_intent`, { key: owner.key, worker: heldWorker }),
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body).toMatchObject({ gateway: 'simulator', publishable_key: 'pk_simulator' });
    expect(a.body.setup_intent_id).toMatch(/^seti_/);
    expect(a.body.client_secret).toContain(a.body.setup_intent_id);
    // Two concurrent first setups: one processor customer, one row.
    const customers = await db().select().from(paymentCustomers).where(eq(paymentCustomers.business_id, owner.businessId!));
    expect(customers).toHaveLength(1);
    const simCustomers = (await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.type, 'customer'))).filter(
      (r) => (r.data as { metadata?: Record<string, string> }).metadata?.business_id === owner.businessId,
    );
    expect(simCustomers.map((c) => c.id)).toEqual([customers[0]!.customer_id]);

    // Not confirmed yet: nothing to record.
    expectError(
      await call('POST', base(owner.businessId!), {
        key: owner.key,
        worker: heldWorker,
        body: { setup_intent_id: a.body.setup_intent_id },
      }),
      422,
      'PAYMENT-SETUP-ERR',
    );
    await simulatorConfirmSetupIntent(heldCtx(owner), a.body.setup_intent_id, { card_number: CARD.visa });
    const saved = await call('POST', base(owner.businessId!), {
      key: owner.key,
      worker: heldWorker,
      body: { setup_intent_id: a.body.setup_intent_id },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body).toMatchObject({ brand: 'visa', last4: '4242', is_default: true, exp_month: 12 });
    expect(saved.body.payment_method_id).toMatch(/^pm_/);

    // Recording it again answers the same card and notifies no one again.
    const again = await call('POST', base(owner.businessId!), {
      key: owner.key,
      worker: heldWorker,
      body: { setup_intent_id: a.body.setup_intent_id },
    });
    expect(again.status).toBe(201);
    expect(again.body.payment_method_id).toBe(saved.body.payment_method_id);
    const notices = await outboxFor(owner.businessId!, { topic: 'notifications', kind: 'card_created' });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body.user_ids).toEqual([owner.userId]);

    const list = await call('GET', base(owner.businessId!), { key: owner.key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([saved.body]);
  });

  it("another business's SetupIntent is refused (422 PAYMENT-SETUP-ERR) and records nothing", async () => {
    const victim = await makeUser({ business: true });
    const thief = await makeUser({ business: true });
    const setup = await call('POST', `${base(victim.businessId!)}/setup_intent`, { key: victim.key, worker: heldWorker });
    await simulatorConfirmSetupIntent(heldCtx(victim), setup.body.setup_intent_id, { card_number: CARD.visa });
    // The thief has a customer of its own, and names the victim's confirmed SetupIntent.
    await call('POST', `${base(thief.businessId!)}/setup_intent`, { key: thief.key, worker: heldWorker });
    expectError(
      await call('POST', base(thief.businessId!), {
        key: thief.key,
        worker: heldWorker,
        body: { setup_intent_id: setup.body.setup_intent_id },
      }),
      422,
      'PAYMENT-SETUP-ERR',
    );
    // An unknown id is refused the same way.
    expectError(
      await call('POST', base(thief.businessId!), { key: thief.key, worker: heldWorker, body: { setup_intent_id: 'seti_doesnotexist' } }),
      422,
      'PAYMENT-SETUP-ERR',
    );
    expect(await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, thief.businessId!))).toHaveLength(0);
    expect(await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, victim.businessId!))).toHaveLength(0);
  });

  it('an active teammate gets 403 on every card operation, a stranger 404; an admin may manage them', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser();
    const stranger = await makeUser({ business: true });
    await addTeammate(owner.businessId!, mate.userId);
    const card = await saveCard(owner, owner.businessId!);
    const ops = (key: string) => [
      call('POST', `${base(owner.businessId!)}/setup_intent`, { key, worker: heldWorker }),
      call('POST', base(owner.businessId!), { key, worker: heldWorker, body: { setup_intent_id: 'seti_x' } }),
      call('GET', base(owner.businessId!), { key }),
      call('POST', `${base(owner.businessId!)}/${card.payment_method_id}/default`, { key }),
      call('DELETE', `${base(owner.businessId!)}/${card.payment_method_id}`, { key, worker: heldWorker }),
    ];
    for (const res of await Promise.all(ops(mate.key))) expectError(res, 403, 'FORBIDDEN-ERR');
    for (const res of await Promise.all(ops(stranger.key))) expectError(res, 404, 'BUSINESS-NOT-FND-ERR');
    expect(await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, owner.businessId!))).toHaveLength(1);
    const admin = await makeUser({ admin: true });
    const listed = await call('GET', base(owner.businessId!), { key: admin.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: any) => c.payment_method_id)).toEqual([card.payment_method_id]);
    expect((await call('POST', `${base(owner.businessId!)}/setup_intent`, { key: admin.key, worker: heldWorker })).status).toBe(201);
  });

  it('the default switches to another card; deleting the default detaches it and makes the newest remaining card the default', async () => {
    const owner = await makeUser({ business: true });
    const first = await saveCard(owner, owner.businessId!, CARD.visa);
    const second = await saveCard(owner, owner.businessId!, CARD.threeDs);
    expect(second.is_default).toBe(false);

    const switched = await call('POST', `${base(owner.businessId!)}/${second.payment_method_id}/default`, { key: owner.key });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    const byId = (body: any) => Object.fromEntries(body.data.map((c: any) => [c.payment_method_id, c.is_default]));
    expect(byId(switched.body)).toEqual({ [first.payment_method_id]: false, [second.payment_method_id]: true });

    // Another business's card id (or an unknown one) is 404 here.
    const other = await makeUser({ business: true });
    const theirs = await saveCard(other, other.businessId!);
    expectError(
      await call('POST', `${base(owner.businessId!)}/${theirs.payment_method_id}/default`, { key: owner.key }),
      404,
      'PAYMENT-METHOD-NOT-FND-ERR',
    );
    expectError(
      await call('DELETE', `${base(owner.businessId!)}/${theirs.payment_method_id}`, { key: owner.key }),
      404,
      'PAYMENT-METHOD-NOT-FND-ERR',
    );

    const deleted = await call('DELETE', `${base(owner.businessId!)}/${second.payment_method_id}`, { key: owner.key, worker: heldWorker });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(byId(deleted.body)).toEqual({ [first.payment_method_id]: true });
    // Detached at the processor: the simulator's card no longer belongs to the customer.
    const [pm] = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, second.payment_method_id));
    expect((pm!.data as { customer: string | null }).customer).toBeNull();

    const last = await call('DELETE', `${base(owner.businessId!)}/${first.payment_method_id}`, { key: owner.key, worker: heldWorker });
    expect(last.body.data).toEqual([]);
    const [c] = await db().select().from(paymentCustomers).where(eq(paymentCustomers.business_id, owner.businessId!));
    expect(c!.default_payment_method_id).toBeNull();
  });

  it('five concurrent records of one SetupIntent make one card and one notice; a card already gone at the processor is still deleted', async () => {
    const owner = await makeUser({ business: true });
    const setup = await call('POST', `${base(owner.businessId!)}/setup_intent`, { key: owner.key, worker: heldWorker });
    await simulatorConfirmSetupIntent(heldCtx(owner), setup.body.setup_intent_id, { card_number: CARD.visa });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', base(owner.businessId!), {
          key: owner.key,
          worker: heldWorker,
          body: { setup_intent_id: setup.body.setup_intent_id },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.payment_method_id)).size).toBe(1);
    expect(await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, owner.businessId!))).toHaveLength(1);
    expect(await outboxFor(owner.businessId!, { topic: 'notifications', kind: 'card_created' })).toHaveLength(1);

    // Removed at the processor already (injected refusal: resource_missing): our record goes too.
    const gone = vi
      .spyOn(SimulatorGateway.prototype, 'detachPaymentMethod')
      .mockRejectedValueOnce(new AppError('PAYMENT-GATEWAY-ERR', 'No such payment_method', { processor_code: 'resource_missing' }));
    const del = await call('DELETE', `${base(owner.businessId!)}/${answers[0]!.body.payment_method_id}`, {
      key: owner.key,
      worker: heldWorker,
    });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(gone).toHaveBeenCalled();
    expect(del.body.data).toEqual([]);
    gone.mockRestore();
  });
});
