import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, businesses, counterOffers, shiftRequests, shifters, users } from '../../src/db/schema';
import { TOOL_PREFIX, type ToolDefinition, type ToolRunExtras } from '../../src/mcp/tool';
import { TOOL_SPECS } from '@shiftmarket/tool-specs';
import { ALL_TOOLS } from '../../src/mcp/tools';
import { AppError } from '../../src/lib/errors';
import { call } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { connectLegacy, connectModern, oauthTokens, toolErrorOf } from '../helpers/mcp';
import { addTeammate, connect, db, makeUser, type TestUser } from '../helpers/factory';
import { DAY, dateAhead, HOUR, insertShift, MINUTE, makeCrewMember, makePair, outboxFor, readShift, shiftBody } from '../helpers/shifts';
import { submittedTimesheet } from '../helpers/timesheets';
import type { ServiceContext } from '../../src/services/kernel';

// Every tool's run, called as the MCP server's wrapper calls it: the arguments parsed by the tool's
// input schema (defaults applied), an agent actor, and the result checked against its output schema.

const tool = (name: string): ToolDefinition => {
  const t = ALL_TOOLS.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};

function agentCtx(user: Pick<TestUser, 'userId' | 'keyId'>, at: number = Date.now()): ServiceContext {
  const base = contextAt(at, user);
  return {
    ...base,
    actor: { kind: 'agent', userId: user.userId, tokenId: `tok_${user.keyId}`, scopes: ['read', 'write', 'payment'], isAdmin: false },
  };
}

const extras: ToolRunExtras = {
  tokenId: 'tok_test',
  requestOrigin: 'https://mcp.test',
  clientSupportsUrlElicitation: false,
  elicitUrl: async () => false,
};

async function run<T = any>(name: string, user: TestUser, args: Record<string, unknown> = {}, at?: number): Promise<T> {
  const t = tool(name);
  const out = await t.run(agentCtx(user, at), t.input.parse(args), extras);
  // The structuredContent the server sends must satisfy the declared output schema.
  t.output.parse(out);
  expect(typeof t.summarize(out)).toBe('string');
  return out as T;
}

async function refused(name: string, user: TestUser, args: Record<string, unknown>, code: string, at?: number): Promise<AppError> {
  try {
    await run(name, user, args, at);
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(AppError);
    expect((err as AppError).code, (err as AppError).message).toBe(code);
    return err as AppError;
  }
  throw new Error(`${name} was expected to fail with ${code}`);
}

/** An owner, a connected shifter and a teammate (active) of the owner's business. */
async function cast() {
  const { biz, sh } = await makePair();
  const mate = await makeUser({ shifter: true });
  await addTeammate(biz.businessId!, mate.userId);
  const stranger = await makeUser({ shifter: true, business: true });
  return { biz, sh, mate, stranger };
}

describe('the tool list', () => {
  it('has the 21 tools (10 read, 9 write, 2 payment), each with its spec, and the tools that ask first describe themselves', () => {
    expect(ALL_TOOLS.map((t) => t.name)).toEqual([
      'me',
      'list_my_shifts',
      'shift_details',
      'search_shifts',
      'business_profile',
      'shifter_profile',
      'list_connections',
      'my_earnings',
      'my_spend',
      'list_timesheets',
      'post_shift',
      'claim_shift',
      'clock_in',
      'clock_out',
      'cancel_shift',
      'update_my_profile',
      'create_counter_offer',
      'edit_timesheet',
      'dispute_timesheet',
      'confirm_payment_for_shift',
      'approve_timesheet',
    ]);
    expect(TOOL_PREFIX).toBe('shiftmarket.');
    const count = (scope: string) => ALL_TOOLS.filter((t) => t.scope === scope).length;
    expect([count('read'), count('write'), count('payment')]).toEqual([10, 9, 2]);
    for (const t of ALL_TOOLS) {
      const spec = TOOL_SPECS.find((s) => s.name === t.name)!;
      expect(t.input).toBe(spec.input);
      expect(t.output).toBe(spec.output);
      expect(t.description.length, t.name).toBeGreaterThan(60);
      expect(t.annotations.readOnlyHint).toBe(t.scope === 'read');
      if (t.scope === 'write' || t.confirmation === 'always') expect(t.describeAction, t.name).toBeTypeOf('function');
    }
    expect(tool('cancel_shift').annotations.destructiveHint).toBe(true);
    expect(tool('clock_out').annotations.idempotentHint).toBe(true);
  });
});

describe('read tools', () => {
  it('me: identity, role, completeness score and profile rows', async () => {
    const u = await makeUser({ shifter: { headline: 'Barista' }, business: true });
    const r = await run('me', u);
    expect(r.user.id).toBe(u.userId);
    expect(r.role).toBe('both');
    expect(r.shifter.id).toBe(u.shifterId);
    expect(r.businesses.map((b: { id: string }) => b.id)).toEqual([u.businessId]);
    const filled = r.profile_rows.filter((x: { filled: boolean }) => x.filled).length;
    expect(r.profile_completeness).toBe(Math.round((filled / r.profile_rows.length) * 100));
    expect(r.profile_rows).toContainEqual({ profile: 'shifter', field: 'headline', filled: true });
    expect(r.profile_rows).toContainEqual({ profile: 'account', field: 'phone', filled: false });
    const none = await makeUser();
    expect((await run('me', none)).role).toBe('none');
  });

  it('list_my_shifts: both sides by default, filtered by role, status and dates; a teammate is refused as the business', async () => {
    const { biz, sh, mate } = await cast();
    const a = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 2 * DAY });
    const p = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 3 * DAY, status: 1 });
    const asOwner = await run('list_my_shifts', biz, { role: 'business' });
    expect(asOwner.data.map((x: { id: string }) => x.id).sort()).toEqual([a.id, p.id].sort());
    const pending = await run('list_my_shifts', sh, { role: 'shifter', status: [1] });
    expect(pending.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
    const dated = await run('list_my_shifts', sh, { date_from: p.shift_date, date_to: p.shift_date });
    expect(dated.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
    // The teammate acts for the business in the REST API, but agents act only for what the user owns.
    await refused('list_my_shifts', mate, { role: 'business' }, 'MCP-TEAMMATE-ERR');
    expect((await run('list_my_shifts', mate)).data).toEqual([]);
    await refused('list_my_shifts', biz, { role: 'shifter' }, 'FORBIDDEN-ERR');
  });

  it("list_my_shifts: a page holds `limit` of the caller's own rows when newer rows of a business they teammate for exist", async () => {
    const owner = await makeUser({ business: true });
    const other = await makeUser({ business: true });
    await addTeammate(other.businessId!, owner.userId);
    const mine = [];
    for (let i = 0; i < 3; i++)
      mine.push(await insertShift({ businessId: owner.businessId!, startsAt: Date.now() + (2 + i) * DAY, status: 1 }));
    // Newer: the REST list shows these first; agents do not act for them.
    for (let i = 0; i < 4; i++)
      await insertShift({
        businessId: other.businessId!,
        startsAt: Date.now() + (2 + i) * DAY,
        status: 1,
        set: { created_at: Date.now() },
      });
    const page = await run('list_my_shifts', owner, { limit: 3 });
    expect(page.data.map((x: { id: string }) => x.id).sort()).toEqual(mine.map((m) => m.id).sort());
    expect(page.next_cursor).toBeNull();
  });

  it('shift_details: the two parties only; a teammate and a stranger are refused', async () => {
    const { biz, sh, mate, stranger } = await cast();
    const s = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 2 * DAY });
    expect((await run('shift_details', biz, { shift_request_id: s.id })).shift_request.id).toBe(s.id);
    expect((await run('shift_details', sh, { shift_request_id: s.id })).shift_request.shifter_id).toBe(sh.shifterId);
    await refused('shift_details', mate, { shift_request_id: s.id }, 'MCP-TEAMMATE-ERR');
    await refused('shift_details', stranger, { shift_request_id: s.id }, 'SHFT-NOT-FND-ERR');
    // Crew of an open broadcast may claim it but is no party of it.
    const crew = await makeCrewMember(biz.businessId!);
    const b = await insertShift({ businessId: biz.businessId!, startsAt: Date.now() + 2 * DAY, status: 1, broadcast: true });
    await refused('shift_details', crew, { shift_request_id: b.id }, 'SHFT-NOT-FND-ERR');
  });

  it("search_shifts: open broadcasts of the user's businesses-to-work-for, by rate, role, date and business", async () => {
    const { biz, sh } = await cast();
    const other = await makeUser({ business: true });
    await connect(other.businessId!, sh.shifterId!);
    const cheap = await insertShift({
      businessId: biz.businessId!,
      startsAt: Date.now() + 2 * DAY,
      status: 1,
      broadcast: true,
      rateMinor: 1500,
    });
    const rich = await insertShift({
      businessId: other.businessId!,
      startsAt: Date.now() + 3 * DAY,
      status: 1,
      broadcast: true,
      rateMinor: 4000,
      role: 2,
    });
    const all = (await run('search_shifts', sh)).data.map((x: { id: string }) => x.id);
    expect(all).toEqual(expect.arrayContaining([cheap.id, rich.id]));
    expect((await run('search_shifts', sh, { min_rate: 30 })).data.map((x: { id: string }) => x.id)).toEqual([rich.id]);
    expect((await run('search_shifts', sh, { shiftrole_id: 2 })).data.map((x: { id: string }) => x.id)).toEqual([rich.id]);
    expect((await run('search_shifts', sh, { business_id: biz.businessId })).data.map((x: { id: string }) => x.id)).toEqual([cheap.id]);
    expect(
      (await run('search_shifts', sh, { date_from: rich.shift_date, date_to: rich.shift_date })).data.map((x: { id: string }) => x.id),
    ).toEqual([rich.id]);
    await refused('search_shifts', biz, {}, 'FORBIDDEN-ERR');
  });

  it('business_profile and shifter_profile: public fields by slug, nothing private', async () => {
    const { biz, sh } = await cast();
    const [b] = await db().select().from(businesses).where(eq(businesses.id, biz.businessId!));
    const [s] = await db().select().from(shifters).where(eq(shifters.id, sh.shifterId!));
    const bp = await run('business_profile', sh, { slug: b!.slug });
    expect(bp.business).toMatchObject({ id: biz.businessId, name: b!.name, ratings: { count: 0 } });
    for (const secret of ['user_id', 'latitude', 'geofence_radius_m', 'weekly_labor_budget'])
      expect(bp.business).not.toHaveProperty(secret);
    const sp = await run('shifter_profile', biz, { slug: s!.slug });
    expect(sp.shifter).toMatchObject({ id: sh.shifterId, is_paused: false });
    expect(sp.shifter).not.toHaveProperty('user_id');
    expect(sp.shifter).not.toHaveProperty('monthly_earnings_goal');
    await refused('business_profile', sh, { slug: 'no-such-business' }, 'BUSINESS-NOT-FND-ERR');
    await refused('shifter_profile', sh, { slug: 'no-such-shifter' }, 'SHIFTER-NOT-FND-ERR');
  });

  it('list_connections: distinct counterparties from the shift history, both ways, with counts', async () => {
    const { biz, sh, mate } = await cast();
    const worked = { shift_start_at: Date.now() - 3 * DAY, shift_end_at: Date.now() - 3 * DAY + 4 * HOUR };
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() - 3 * DAY, set: worked });
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 2 * DAY });
    const mine = await run('list_connections', sh, { role: 'shifter' });
    expect(mine.counterparties).toEqual([expect.objectContaining({ kind: 'business', id: biz.businessId, shifts: 2, worked_shifts: 1 })]);
    const theirs = await run('list_connections', biz);
    expect(theirs.counterparties).toEqual([expect.objectContaining({ kind: 'shifter', id: sh.shifterId, shifts: 2, worked_shifts: 1 })]);
    // A teammate's business is not theirs: nothing on the business side.
    expect((await run('list_connections', mate)).counterparties).toEqual([]);
  });

  it("my_earnings and my_spend: the shifter's gross and top businesses, and the owner's mirror", async () => {
    const { biz, sh, mate } = await cast();
    const start = Date.now() - 2 * DAY;
    const s = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId!,
      startsAt: start,
      minutes: 240,
      rateMinor: 2500,
      set: { shift_start_at: start, shift_end_at: start + 4 * HOUR },
    });
    const startUtc = new Date(s.starts_at);
    const e = await run('my_earnings', sh, { year: startUtc.getUTCFullYear(), month: startUtc.getUTCMonth() + 1 });
    expect(e.shifter_id).toBe(sh.shifterId);
    expect(e.gross).toBe(100);
    expect(e.by_business[0]).toMatchObject({ business_id: biz.businessId, gross: 100 });
    await refused('my_earnings', biz, {}, 'FORBIDDEN-ERR');
    const spend = await run('my_spend', biz, { week: s.shift_date });
    expect(spend.business_id).toBe(biz.businessId);
    expect(spend.this_week_total).toBe(100);
    expect(spend.by_shifter[0]).toMatchObject({ shifter_id: sh.shifterId });
    await refused('my_spend', mate, { business_id: biz.businessId }, 'MCP-TEAMMATE-ERR');
    await refused('my_spend', mate, {}, 'MCP-TEAMMATE-ERR');
    await refused('my_spend', sh, {}, 'FORBIDDEN-ERR');
  });
});

describe('write tools', () => {
  it('post_shift: targeted or broadcast for an owned business; a teammate and a stranger are refused', async () => {
    const { biz, sh, mate, stranger } = await cast();
    const body = shiftBody();
    const targeted = await run('post_shift', biz, { ...body, shifter_id: sh.shifterId });
    expect(targeted.shift_request).toMatchObject({
      business_id: biz.businessId,
      shifter_id: sh.shifterId,
      is_broadcast: 0,
      request_status: 1,
    });
    const broadcast = await run('post_shift', biz, { ...body, is_broadcast: true });
    expect(broadcast.shift_request).toMatchObject({ shifter_id: null, is_broadcast: 1 });
    expect(
      await tool('post_shift').describeAction!(agentCtx(biz), tool('post_shift').input.parse({ ...body, is_broadcast: true })),
    ).toContain('broadcast');
    await refused('post_shift', mate, { ...body, business_id: biz.businessId, is_broadcast: true }, 'MCP-TEAMMATE-ERR');
    await refused('post_shift', mate, { ...body, is_broadcast: true }, 'MCP-TEAMMATE-ERR');
    await refused('post_shift', stranger, { ...body, business_id: biz.businessId, is_broadcast: true }, 'BUSINESS-NOT-FND-ERR');
    await refused('post_shift', sh, { ...body, is_broadcast: true }, 'FORBIDDEN-ERR');
  });

  it('post_shift: a shift whose pay is over the agent payment cap is refused when posted, before anything is written', async () => {
    const { biz, sh } = await makePair();
    // 8 h × $300 = $2,400: over AGENT_PAYMENT_MAX_MINOR (200000), which confirm_payment_for_shift would refuse to ask for.
    const big = shiftBody({ hourly_rate: 300, is_broadcast: true });
    const err = await refused('post_shift', biz, big, 'PAYMENT-CAP-ERR');
    expect(err.details).toMatchObject({ amount: 2400, cap: 2000, currency: 'USD' });
    await refused('post_shift', biz, { ...shiftBody({ hourly_rate: 250.01 }), shifter_id: sh.shifterId }, 'PAYMENT-CAP-ERR');
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, biz.businessId!))).toHaveLength(0);
    // At the cap it posts; the person's own API key is not an agent and is not held to it.
    const atCap = await run('post_shift', biz, shiftBody({ hourly_rate: 250, is_broadcast: true }));
    expect(atCap.shift_request).toMatchObject({ hourly_rate: 250, is_broadcast: 1 });
    const own = await call('POST', '/v1/shift_request/send_request', { key: biz.key, body: big });
    expect(own.status).toBe(201);
  });

  it('claim_shift: 50 concurrent claims of one broadcast give exactly one winner', async () => {
    const biz = await makeUser({ business: true });
    const crew = await Promise.all(Array.from({ length: 50 }, () => makeCrewMember(biz.businessId!)));
    const b = await insertShift({ businessId: biz.businessId!, startsAt: Date.now() + 2 * DAY, status: 1, broadcast: true });
    const results = await Promise.allSettled(crew.map((c) => run('claim_shift', c, { shift_request_id: b.id })));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as AppError).code).toBe('CLAIM-LOST-ERR');
    const row = await readShift(b.id);
    expect(row).toMatchObject({ request_status: 2 });
    const winner = crew.find((c) => c.shifterId === row!.shifter_id)!;
    expect((won[0] as PromiseFulfilledResult<any>).value.shift_request.shifter_id).toBe(winner.shifterId);
    // The winner claiming again gets the same shift; the owner may not claim.
    expect((await run('claim_shift', winner, { shift_request_id: b.id })).shift_request.id).toBe(b.id);
    const claims = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subject_id, b.id), eq(auditLog.action, 'broadcast.claim')));
    expect(claims).toHaveLength(1);
    await refused('claim_shift', biz, { shift_request_id: b.id }, 'FORBIDDEN-ERR');
  });

  it('clock_in and clock_out: the shifter only, in the window, each idempotent (a repeated clock_out answers the same)', async () => {
    const { biz, sh, mate } = await cast();
    const start = Math.ceil((Date.now() + 2 * HOUR) / MINUTE) * MINUTE;
    const s = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: start, minutes: 240 });
    const beforeWindow = start - 2 * HOUR;
    await refused('clock_in', sh, { shift_request_id: s.id }, 'SHFT-CLOCK-WINDOW-ERR', beforeWindow);
    await refused('clock_in', biz, { shift_request_id: s.id }, 'FORBIDDEN-ERR', start);
    await refused('clock_in', mate, { shift_request_id: s.id }, 'MCP-TEAMMATE-ERR', start);
    const inAt = start + 5 * MINUTE;
    const first = await run('clock_in', sh, { shift_request_id: s.id }, inAt);
    expect(first.shift_request.shift_start_at).toBe(new Date(inAt).toISOString());
    expect((await run('clock_in', sh, { shift_request_id: s.id }, inAt + MINUTE)).shift_request.shift_start_at).toBe(
      first.shift_request.shift_start_at,
    );
    // Clock-out opens a minute after the clock-in.
    await refused('clock_out', sh, { shift_request_id: s.id }, 'SHFT-CLOCK-WINDOW-ERR', inAt + 30 * 1000);
    const outAt = start + 4 * HOUR - 5 * MINUTE;
    const out = await run('clock_out', sh, { shift_request_id: s.id }, outAt);
    expect(out.shift_request.shift_end_at).toBe(new Date(outAt).toISOString());
    const again = await run('clock_out', sh, { shift_request_id: s.id }, outAt + 10 * MINUTE);
    expect(again.shift_request).toEqual(out.shift_request);
    const outs = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subject_id, s.id), eq(auditLog.action, 'shift.clock_out')));
    expect(outs).toHaveLength(1);
  });

  it('cancel_shift: either party; completed (5), expired (6) and the other final states are refused with their codes', async () => {
    const { biz, sh, mate, stranger } = await cast();
    const future = Date.now() + 3 * DAY;
    const pending = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: future, status: 1 });
    expect(await tool('cancel_shift').describeAction!(agentCtx(biz), { shift_request_id: pending.id })).toContain('Cancel the shift');
    await refused('cancel_shift', mate, { shift_request_id: pending.id }, 'MCP-TEAMMATE-ERR');
    await refused('cancel_shift', stranger, { shift_request_id: pending.id }, 'SHFT-NOT-FND-ERR');
    const byBiz = await run('cancel_shift', biz, { shift_request_id: pending.id, reason: 'closed that day' });
    expect(byBiz.shift_request).toMatchObject({ request_status: 7, cancelled_by: 'business' });
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: future + DAY });
    const bySh = await run('cancel_shift', sh, { shift_request_id: accepted.id });
    expect(bySh.shift_request).toMatchObject({ request_status: 7, cancelled_by: 'shifter' });
    const codes: Array<[number, string]> = [
      [5, 'SHFT-COMPLETED-ERR'],
      [6, 'SHFT-EXPIRED-ERR'],
      [3, 'SHFT-DECLINED-ERR'],
      [4, 'SHFT-SUPERSEDED-ERR'],
      [7, 'SHFT-CANCELLED-ERR'],
    ];
    for (const [status, code] of codes) {
      const s = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() - 3 * DAY, status });
      await refused('cancel_shift', biz, { shift_request_id: s.id }, code);
      expect((await readShift(s.id))!.request_status).toBe(status);
    }
  });

  it('update_my_profile: only whitelisted fields change; the rest come back in ignored_fields', async () => {
    const u = await makeUser({ shifter: true });
    const t = tool('update_my_profile');
    const args = t.input.parse({ display_name: 'Sam Agent', photo: 'https://x.test/p.png', is_admin: true, confirm: true });
    expect(await t.describeAction!(agentCtx(u), args)).toContain('display_name');
    const r = await run('update_my_profile', u, {
      display_name: 'Sam Agent',
      photo: 'https://x.test/p.png',
      is_admin: true,
      confirm: true,
    });
    expect(r.updated_fields).toEqual(['display_name']);
    expect(r.ignored_fields).toEqual(['photo', 'is_admin']);
    expect(r.user.display_name).toBe('Sam Agent');
    const [row] = await db().select().from(users).where(eq(users.id, u.userId));
    expect(row!.display_name).toBe('Sam Agent');
    const nothing = await run('update_my_profile', u, { nickname: 'S' });
    expect(nothing).toMatchObject({ updated_fields: [], ignored_fields: ['nickname'] });
    await refused('update_my_profile', u, { phone: 'call me' }, 'VALIDATION-ERR');
  });

  it('create_counter_offer: targeted pending requests only; a broadcast is NOT-NEGOTIABLE', async () => {
    const { biz, sh, mate } = await cast();
    const s = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId!,
      startsAt: Date.now() + 3 * DAY,
      status: 1,
      rateMinor: 2000,
    });
    const r = await run('create_counter_offer', sh, { shift_request_id: s.id, hourly_rate: 24.5, note: 'Late finish' });
    expect(r.counter_offer).toMatchObject({
      shift_request_id: s.id,
      hourly_rate: 24.5,
      original_hourly_rate: 20,
      currency: 'USD',
      status: 'pending',
    });
    const again = await run('create_counter_offer', sh, { shift_request_id: s.id, hourly_rate: 23 });
    expect(again.counter_offer).toMatchObject({ id: r.counter_offer.id, hourly_rate: 23 });
    expect(await db().select().from(counterOffers).where(eq(counterOffers.shift_request_id, s.id))).toHaveLength(1);
    const notices = await outboxFor(s.id, { topic: 'notifications', kind: 'counter_offer' });
    expect(notices).toHaveLength(2);
    expect(notices[0]!.body.user_ids).toEqual(expect.arrayContaining([biz.userId, mate.userId]));
    const b = await insertShift({ businessId: biz.businessId!, startsAt: Date.now() + 3 * DAY, status: 1, broadcast: true });
    await refused('create_counter_offer', sh, { shift_request_id: b.id, hourly_rate: 30 }, 'NOT-NEGOTIABLE');
    const claimed = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId!,
      startsAt: Date.now() + 5 * DAY,
      broadcast: true,
    });
    await refused('create_counter_offer', sh, { shift_request_id: claimed.id, hourly_rate: 30 }, 'NOT-NEGOTIABLE');
    await refused(
      'create_counter_offer',
      await makeUser({ shifter: true }),
      { shift_request_id: b.id, hourly_rate: 30 },
      'SHFT-NOT-FND-ERR',
    );
    await refused('create_counter_offer', biz, { shift_request_id: s.id, hourly_rate: 30 }, 'FORBIDDEN-ERR');
    await refused('create_counter_offer', mate, { shift_request_id: s.id, hourly_rate: 30 }, 'MCP-TEAMMATE-ERR');
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 4 * DAY });
    await refused('create_counter_offer', sh, { shift_request_id: accepted.id, hourly_rate: 30 }, 'SHFT-STATE-ERR');
    await refused('create_counter_offer', sh, { shift_request_id: s.id, hourly_rate: 20 }, 'VALIDATION-ERR');
    await refused('create_counter_offer', sh, { shift_request_id: s.id, hourly_rate: 20.123 }, 'VALIDATION-ERR');
    // Nothing changed on the request itself.
    expect((await readShift(s.id))!).toMatchObject({ request_status: 1, hourly_rate_minor: 2000 });
  });
});

describe('every tool through a real MCP SDK client', () => {
  interface ToolResult {
    isError?: boolean;
    structuredContent?: any;
    content?: Array<{ type: string; text?: string }>;
  }

  it('lists the 21 tools and runs each happy path, and a refusal comes back as a tool error with the service code', async () => {
    const { biz, sh, stranger } = await cast();
    const [b] = await db().select().from(businesses).where(eq(businesses.id, biz.businessId!));
    const [s] = await db().select().from(shifters).where(eq(shifters.id, sh.shifterId!));
    const now = Date.now();
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: now + 2 * DAY });
    const pending = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: now + 3 * DAY, status: 1 });
    const toCancel = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: now + 4 * DAY, status: 1 });
    const soon = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: now + 30 * MINUTE, minutes: 120 });
    const ending = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId!,
      startsAt: now - 2 * HOUR + 10 * MINUTE,
      minutes: 120,
      set: { shift_start_at: now - 2 * HOUR + 10 * MINUTE },
    });

    const owner = await connectModern(biz.key);
    const worker = await connectModern(sh.key);
    const listed = await owner.listTools();
    expect(listed.tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS.map((t) => `${TOOL_PREFIX}${t.name}`).sort());

    const call = async (client: typeof owner, name: string, args: Record<string, unknown> = {}) => {
      const res = (await client.callTool({ name: `${TOOL_PREFIX}${name}`, arguments: args })) as ToolResult;
      expect(res.isError, `${name}: ${JSON.stringify(res.structuredContent ?? res.content)}`).toBeFalsy();
      expect(res.structuredContent, name).toBeDefined();
      return res.structuredContent;
    };
    const ran = new Set<string>();
    const track = async (client: typeof owner, name: string, args: Record<string, unknown> = {}) => {
      ran.add(name);
      return call(client, name, args);
    };

    expect((await track(owner, 'me')).role).toBe('business');
    expect((await track(owner, 'list_my_shifts', { role: 'business' })).data.length).toBeGreaterThanOrEqual(5);
    expect((await track(owner, 'shift_details', { shift_request_id: accepted.id })).shift_request.id).toBe(accepted.id);
    expect((await track(owner, 'business_profile', { slug: b!.slug })).business.id).toBe(biz.businessId);
    expect((await track(owner, 'shifter_profile', { slug: s!.slug })).shifter.id).toBe(sh.shifterId);
    expect((await track(owner, 'list_connections')).counterparties[0].id).toBe(sh.shifterId);
    expect((await track(owner, 'my_spend')).business_id).toBe(biz.businessId);
    // Days after the worker's other shifts (the accepted one starts two days from now, at this hour), so the claim never overlaps them.
    const posted = await track(owner, 'post_shift', { ...shiftBody({ shift_date: dateAhead(6) }), is_broadcast: true, confirm: true });
    expect((await track(owner, 'cancel_shift', { shift_request_id: toCancel.id, confirm: true })).shift_request.request_status).toBe(7);
    const pay = await track(owner, 'confirm_payment_for_shift', { shift_request_id: accepted.id });
    expect(pay.confirm_url).toContain('/mcp-confirm/');

    expect((await track(worker, 'search_shifts')).data.map((x: { id: string }) => x.id)).toContain(posted.shift_request.id);
    expect(
      (await track(worker, 'claim_shift', { shift_request_id: posted.shift_request.id, confirm: true })).shift_request.request_status,
    ).toBe(2);
    expect((await track(worker, 'clock_in', { shift_request_id: soon.id, confirm: true })).shift_request.shift_start_at).not.toBeNull();
    const out = await track(worker, 'clock_out', { shift_request_id: ending.id, confirm: true });
    const again = await call(worker, 'clock_out', { shift_request_id: ending.id, confirm: true });
    expect(again.shift_request.shift_end_at).toBe(out.shift_request.shift_end_at);
    const sheets = await track(owner, 'list_timesheets', { business_id: biz.businessId, status: 'submitted' });
    const endingSheet = sheets.data.find((t: { shift_request_id: string }) => t.shift_request_id === ending.id);
    expect(endingSheet?.allowed_actions).toContain('approve');
    const approved = await track(owner, 'approve_timesheet', { timesheet_id: endingSheet.id, confirm: true });
    expect(approved.timesheet.status).toBe('approved');
    const worked = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId!,
      startsAt: now - 5 * HOUR,
      minutes: 120,
      set: { shift_start_at: now - 5 * HOUR, shift_end_at: now - 3 * HOUR },
    });
    const workedSheet = await submittedTimesheet(worked.id);
    const edited = await track(owner, 'edit_timesheet', {
      timesheet_id: workedSheet,
      out_at: new Date(now - 3 * HOUR - 15 * MINUTE).toISOString(),
      reason: 'early_release',
      confirm: true,
    });
    expect(edited.timesheet.edit.reason).toBe('early_release');
    const disputed = await track(worker, 'dispute_timesheet', {
      timesheet_id: workedSheet,
      in_at: new Date(now - 5 * HOUR).toISOString(),
      out_at: new Date(now - 3 * HOUR).toISOString(),
      reason: 'I stayed until the end.',
      confirm: true,
    });
    expect(disputed.timesheet.dispute.status).toBe('open');
    expect((await track(worker, 'my_earnings')).shifter_id).toBe(sh.shifterId);
    const profile = await track(worker, 'update_my_profile', { display_name: 'Via SDK', favourite_colour: 'blue', confirm: true });
    expect(profile).toMatchObject({ updated_fields: ['display_name'], ignored_fields: ['favourite_colour'] });
    expect(
      (await track(worker, 'create_counter_offer', { shift_request_id: pending.id, hourly_rate: 26, confirm: true })).counter_offer
        .hourly_rate,
    ).toBe(26);
    expect([...ran].sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());

    const outsider = await connectModern(stranger.key);
    const denied = (await outsider.callTool({
      name: `${TOOL_PREFIX}shift_details`,
      arguments: { shift_request_id: accepted.id },
    })) as ToolResult;
    expect(denied.isError).toBe(true);
    expect(toolErrorOf(denied)?.code).toBe('SHFT-NOT-FND-ERR');
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    const asMate = (await (await connectModern(mate.key)).callTool({ name: `${TOOL_PREFIX}my_spend`, arguments: {} })) as ToolResult;
    expect(asMate.isError).toBe(true);
    expect(toolErrorOf(asMate)?.code).toBe('MCP-TEAMMATE-ERR');
    const broadcast = await insertShift({ businessId: biz.businessId!, startsAt: now + 5 * DAY, status: 1, broadcast: true });
    const notNegotiable = (await worker.callTool({
      name: `${TOOL_PREFIX}create_counter_offer`,
      arguments: { shift_request_id: broadcast.id, hourly_rate: 30, confirm: true },
    })) as ToolResult;
    expect(toolErrorOf(notNegotiable)?.code).toBe('NOT-NEGOTIABLE');
  });

  it('clients of both eras that listed the tools get a refusal and the confirmation hint as tool errors, without throwing', async () => {
    const { biz, sh, stranger } = await cast();
    const theirs = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 3 * DAY, status: 1 });
    const ownerToken = (await oauthTokens(biz.email)).accessToken;
    const strangerToken = (await oauthTokens(stranger.email)).accessToken;
    const eras = [
      ['2025-11-25 (SDK 1.x)', connectLegacy],
      ['2026-07-28 (SDK 2.x)', connectModern],
    ] as const;
    for (const [era, connectEra] of eras) {
      const owner = await connectEra(ownerToken);
      // Listed first, so each SDK checks every answer against the tool's listed output schema.
      expect((await owner.listTools()).tools, era).toHaveLength(21);
      const ask = (await owner.callTool({ name: `${TOOL_PREFIX}cancel_shift`, arguments: { shift_request_id: theirs.id } })) as ToolResult;
      expect(ask.isError, era).toBe(true);
      expect(ask.structuredContent, era).toBeUndefined();
      const asked = toolErrorOf(ask);
      expect(asked?.code, era).toBe('MCP-CONFIRM-REQ-ERR');
      expect(asked?.details?.summary, era).toEqual(expect.any(String));
      expect(asked?.message, era).toContain('confirm: true');
      expect(ask.content?.[0]?.text, era).toContain('confirm: true');
      await owner.close();

      const outsider = await connectEra(strangerToken);
      await outsider.listTools();
      const denied = (await outsider.callTool({
        name: `${TOOL_PREFIX}shift_details`,
        arguments: { shift_request_id: theirs.id },
      })) as ToolResult;
      expect(denied.isError, era).toBe(true);
      expect(denied.structuredContent, era).toBeUndefined();
      expect(toolErrorOf(denied)?.code, era).toBe('SHFT-NOT-FND-ERR');
      expect(denied.content?.[0]?.text, era).toMatch(/^SHFT-NOT-FND-ERR: /);
      await outsider.close();
    }
    // Nothing was cancelled by the unconfirmed calls.
    expect((await readShift(theirs.id))!.request_status).toBe(1);
  });

  it('a 2025-11-25 client runs them too, and an OAuth token granted read only lists and reaches the 10 read tools only', async () => {
    const { biz } = await cast();
    const legacy = await connectLegacy(biz.key);
    expect((await legacy.listTools()).tools).toHaveLength(21);
    const me = (await legacy.callTool({ name: `${TOOL_PREFIX}me`, arguments: {} })) as ToolResult;
    expect(me.structuredContent?.user?.id).toBe(biz.userId);
    const posted = (await legacy.callTool({
      name: `${TOOL_PREFIX}post_shift`,
      arguments: { ...shiftBody(), is_broadcast: true, confirm: true },
    })) as ToolResult;
    expect(posted.structuredContent?.shift_request?.is_broadcast).toBe(1);

    const session = await oauthTokens(biz.email, { request: ['read'] });
    const reader = await connectModern(session.accessToken);
    const names = (await reader.listTools()).tools.map((t) => t.name.slice(TOOL_PREFIX.length)).sort();
    expect(names).toEqual(
      ALL_TOOLS.filter((t) => t.scope === 'read')
        .map((t) => t.name)
        .sort(),
    );
    expect(((await reader.callTool({ name: `${TOOL_PREFIX}me`, arguments: {} })) as ToolResult).structuredContent?.user?.id).toBe(
      biz.userId,
    );
    const write = await reader
      .callTool({ name: `${TOOL_PREFIX}post_shift`, arguments: { ...shiftBody(), is_broadcast: true, confirm: true } })
      .then(
        (r) => r as ToolResult,
        (e: unknown) => e,
      );
    expect(write instanceof Error || (write as ToolResult).isError === true).toBe(true);
  });
});
