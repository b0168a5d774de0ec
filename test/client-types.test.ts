import { exports } from 'cloudflare:workers';
import { hc, type InferRequestType, type InferResponseType } from 'hono/client';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AppType } from '../src/app';
import type { ShiftStatus, ShiftStatusName } from '../src/services/kernel';
import { BASE } from './helpers/api';
import { makeUser } from './helpers/factory';
import { dateAhead } from './helpers/shifts';

// Structure 3: the app's type carries every route, so `hc<AppType>` is a typed client. The type
// assertions below are checked by `npm run typecheck`; the calls also run against the Worker.

const client = hc<AppType>(BASE, {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => exports.default.fetch(new Request(input, init)),
});

type SendShift = typeof client.v1.shift_request.send_request.$post;

describe('the typed client (hono/client)', () => {
  it('types request bodies, path parameters and responses from the route contracts', () => {
    expectTypeOf<InferRequestType<SendShift>['json']>().toHaveProperty('shift_date').toEqualTypeOf<string>();
    expectTypeOf<InferRequestType<SendShift>['json']>().toHaveProperty('hourly_rate').toEqualTypeOf<number>();
    // The view is typed by its response schema, so the status is the closed set, not any number.
    expectTypeOf<InferResponseType<SendShift, 201>>().toHaveProperty('request_status').toEqualTypeOf<ShiftStatus>();
    expectTypeOf<InferResponseType<SendShift, 201>>().toHaveProperty('status').toEqualTypeOf<ShiftStatusName>();
    expectTypeOf<InferResponseType<SendShift, 201>>()
      .toHaveProperty('cancelled_by')
      .toEqualTypeOf<'business' | 'shifter' | 'system' | null>();
    expectTypeOf<InferRequestType<(typeof client.v1.shift_request)[':id']['claim']['$post']>['param']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<InferResponseType<(typeof client.v1.business)[':id']['labor_costs']['$get'], 200>>()
      .toHaveProperty('this_week_total')
      .toEqualTypeOf<number>();
    expectTypeOf(client.v1.going_rate.$get).toBeFunction();
    // A route that does not exist is a type error, not a runtime 404.
    // @ts-expect-error: no such route
    expect(client.v1.shift_request.no_such_route).toBeDefined();
  });

  it('posts a broadcast and reads it back through the typed client', async () => {
    const owner = await makeUser({ business: true });
    const headers = { Authorization: `Bearer ${owner.key}` };
    const res = await client.v1.shift_request.send_request.$post(
      { json: { shift_date: dateAhead(3), shift_in: '09:00', shift_out: '17:00', shiftrole_id: 1, hourly_rate: 21.5, is_broadcast: 1 } },
      { headers },
    );
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    const created = await res.json();
    expect(created).toMatchObject({
      business_id: owner.businessId,
      request_status: 1,
      status: 'pending',
      is_broadcast: 1,
      hourly_rate: 21.5,
    });

    const again = await client.v1.shift_request[':id'].$get({ param: { id: created.id } }, { headers });
    expect(again.status).toBe(200);
    if (again.status === 200) expect((await again.json()).id).toBe(created.id);
  });
});
