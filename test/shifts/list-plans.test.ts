import { describe, expect, it } from 'vitest';
import { advanceInsightRollups } from '../../src/services/insights';
import { contextAt } from '../helpers/clock';
import { connect, makeUser, type TestUser } from '../helpers/factory';
import { callRecording, cteExpansions, fullScans, plansReading } from '../helpers/plans';
import { DAY, dateAhead, HOUR, insertShift, insertShifts } from '../helpers/shifts';

/*
 * The hot reads cost by the page, not the table (docs/decisions/scale.md): these tests read SQLite's
 * plan (EXPLAIN QUERY PLAN) of the very statements each request sends to D1, recorded on the way,
 * and fail when one reads shift_requests whole (`SCAN shift_requests`, no index) or sorts rows the
 * page does not bound (`USE TEMP B-TREE FOR ORDER BY` over a read that has no page bound: a created_at
 * floor, a rate threshold, the page's ids).
 */

interface Node {
  detail: string;
  children: Node[];
}

/** The plan's lines (indented by depth, as planOf gives them) as a tree. */
function tree(plan: string[]): Node[] {
  const root: Node = { detail: '', children: [] };
  const stack: Array<{ depth: number; node: Node }> = [{ depth: -1, node: root }];
  for (const line of plan) {
    const depth = (line.length - line.trimStart().length) / 2;
    const node = { detail: line.trim(), children: [] };
    while (stack.at(-1)!.depth >= depth) stack.pop();
    stack.at(-1)!.node.children.push(node);
    stack.push({ depth, node });
  }
  return root.children;
}

const reads = (n: Node, names: string[]) => names.some((t) => new RegExp(`^(SCAN|SEARCH) ${t}\\b`).test(n.detail));
/**
 * A read bounded by the page: a created_at or last_message_at floor, a rate threshold, or the page's
 * ids; or by the dates the list asked for (a start range on the business+start index).
 */
const PAGE_BOUND =
  /sqlite_autoindex_\w+_1 \(|INTEGER PRIMARY KEY|created_at>\?|last_message_at>\?|hourly_rate_minor>\?|shift_requests_business_idx \(business_id=\? AND starts_at>\?/;

/** Sorts that order rows the page does not bound: a temp B-tree beside a read of `names` with no page bound. */
function unboundedSorts(nodes: Node[], names: string[], skip: RegExp | null = null): string[] {
  const found: string[] = [];
  const visit = (siblings: Node[]) => {
    const sorts = siblings.some((n) => /^USE TEMP B-TREE FOR (LAST \d+ TERMS OF )?ORDER BY/.test(n.detail));
    if (sorts) for (const n of siblings) if (reads(n, names) && !PAGE_BOUND.test(n.detail)) found.push(n.detail);
    for (const n of siblings) if (!skip?.test(n.detail)) visit(n.children);
  };
  visit(nodes);
  return found;
}

/** The plans of a request's statements that read `table`, checked: no full scan, no unbounded sort. */
async function expectPageCost(
  statements: Parameters<typeof plansReading>[0],
  table: string,
  opts: { names?: string[]; skip?: RegExp } = {},
) {
  const names = [table, ...(opts.names ?? [])];
  const plans = await plansReading(statements, table);
  expect(plans.length).toBeGreaterThan(0);
  for (const p of plans) {
    const t = tree(p.plan);
    expect(fullScans(p.plan, names), p.plan.join('\n')).toEqual([]);
    expect(unboundedSorts(t, names, opts.skip ?? null), p.plan.join('\n')).toEqual([]);
  }
  return plans.flatMap((p) => p.plan.map((l) => l.trim()));
}

async function world() {
  const me = await makeUser({ shifter: true });
  const owner = await makeUser({ business: true, shifter: true });
  const crew: TestUser[] = [owner];
  for (let i = 0; i < 3; i++) crew.push(await makeUser({ business: true }));
  for (const b of crew) await connect(b.businessId!, me.shifterId!);
  // 90 open broadcasts per business (more than the relevance window), and a worked history.
  for (const b of crew)
    for (let k = 0; k < 90; k++)
      await insertShift({
        businessId: b.businessId!,
        broadcast: true,
        status: 1,
        date: dateAhead(1 + (k % 20)),
        in: '09:00',
        out: '17:00',
        rateMinor: 1500 + k * 13,
        role: 1 + (k % 3),
        set: { created_at: Date.now() - k * 1000 },
      });
  for (let k = 0; k < 12; k++) {
    const s = Date.now() - (k + 2) * DAY;
    await insertShift({
      businessId: crew[1]!.businessId!,
      shifterId: me.shifterId,
      startsAt: s,
      role: 1 + (k % 3),
      set: { shift_start_at: s, shift_end_at: s + 4 * HOUR },
    });
  }
  return { me, owner, crew };
}

const BROADCASTS = '/v1/shift_request/list_of_broadcast_requests';

describe('lists cost by the page (EXPLAIN QUERY PLAN of the statements sent)', () => {
  it('broadcasts newest first, for a shifter, a business and an admin; ranked by relevance in one statement', async () => {
    const { me, owner } = await world();
    const admin = await makeUser({ admin: true });

    const shifterPage = await callRecording('POST', BROADCASTS, { key: me.key, body: { shifter_id: me.shifterId, limit: 20 } });
    expect(shifterPage.res.status).toBe(200);
    expect(shifterPage.res.body.data).toHaveLength(20);
    const plan = await expectPageCost(shifterPage.statements, 'shift_requests');
    // Each business is walked newest first down to the page's floor; the floor itself is a walk in order.
    // The index ends with starts_at, so the walks read no row for the start-in-the-future filter.
    expect(plan).toContain(
      'SEARCH shift_requests USING COVERING INDEX shift_requests_open_business_created_idx (business_id=? AND created_at>?)',
    );
    expect(plan).toContain('SEARCH shift_requests USING COVERING INDEX shift_requests_open_business_created_idx (business_id=?)');

    const ownerPage = await callRecording('POST', BROADCASTS, { key: owner.key, body: { limit: 10 } });
    expect(ownerPage.res.status).toBe(200);
    await expectPageCost(ownerPage.statements, 'shift_requests');

    const adminPage = await callRecording('POST', BROADCASTS, { key: admin.key, body: { limit: 10 } });
    expect(adminPage.res.status).toBe(200);
    expect(await expectPageCost(adminPage.statements, 'shift_requests')).toContain(
      'SCAN shift_requests USING COVERING INDEX shift_requests_open_created_idx',
    );

    const ranked = await callRecording('POST', BROADCASTS, {
      key: me.key,
      body: { shifter_id: me.shifterId, sort_by_relevance: true, limit: 20 },
    });
    expect(ranked.res.status).toBe(200);
    expect(ranked.res.body.data).toHaveLength(20);
    // 360 candidates, more than the 200 scored in full: the threshold settled the page in one statement.
    const rankings = ranked.statements.filter((s) => s.sql.includes('rel_t('));
    expect(rankings).toHaveLength(1);
    // Preparing it stays cheap (the local runtime prepares every query it is sent): no CTE is expanded
    // more than a dozen times (each step names the one before it, not every step before: over 200
    // expansions of the first ones when they did), and it binds no value SQLite reads while planning
    // (a bare LIMIT; request_status compared to a bound value, checked against the partial indexes),
    // which would make SQLite prepare it a second time once its values are bound. Both together had
    // made preparing cost more than running it.
    const expansions = cteExpansions(rankings[0]!.sql);
    expect(Math.max(...Object.values(expansions)), JSON.stringify(expansions)).toBeLessThanOrEqual(12);
    expect(rankings[0]!.sql).not.toMatch(/\blimit \?(?!\s*\+)/i);
    expect(rankings[0]!.sql).not.toMatch(/request_status"?\s*=\s*\?/i);
    // A currency without a usual rate is measured against the going rate (rel_going), read from the
    // rate histogram and the rows of its window's edges, not from the candidates: no read is left out
    // of this check any more (the open broadcasts' median it replaced read that currency's candidates).
    const rankedPlan = await expectPageCost(ranked.statements, 'shift_requests');
    expect(rankedPlan).toContainEqual(
      expect.stringMatching(
        /^SEARCH shift_requests USING INDEX shift_requests_open_rate_idx \(business_id=\? AND shiftrole_id=\? AND currency=\? AND hourly_rate_minor>\?\)$/,
      ),
    );
  });

  it('list_of_requests for a business, a shifter, both and an admin', async () => {
    const { me, owner } = await world();
    const admin = await makeUser({ admin: true });
    for (const [key, body] of [
      [owner.key, { limit: 10, as: 'business' }],
      [owner.key, { limit: 10 }],
      [me.key, { limit: 5 }],
      [admin.key, { limit: 10 }],
      [owner.key, { limit: 10, status: [1, 2], shiftrole_id: 2 }],
    ] as const) {
      const { res, statements } = await callRecording('POST', '/v1/shift_request/list_of_requests', { key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await expectPageCost(statements, 'shift_requests');
    }
  });

  it('list_of_requests bounded by dates reads those dates by start, never the business’s history (the dashboard, the schedule, the board)', async () => {
    const owner = await makeUser({ business: true, shifter: true });
    // A worked history the newest-first walk would read whole when fewer rows than a page match, and
    // a few shifts today and ahead.
    await insertShifts([
      ...Array.from({ length: 40 }, (_, k) => ({ businessId: owner.businessId!, startsAt: Date.now() - (k + 2) * DAY, status: 5 })),
      ...Array.from({ length: 6 }, (_, k) => ({ businessId: owner.businessId!, startsAt: Date.now() + k * 10 * HOUR, status: 1 })),
    ]);
    const today = dateAhead(0);
    for (const [body, bound] of [
      [{ date_from: today, date_to: today }, 'starts_at>? AND starts_at<?'],
      [{ date_from: today, status: 1, is_broadcast: false }, 'starts_at>?'],
      [{ date_from: dateAhead(-1), date_to: dateAhead(5), status: [1, 2, 5, 6, 7] }, 'starts_at>? AND starts_at<?'],
    ] as const) {
      const { res, statements } = await callRecording('POST', '/v1/shift_request/list_of_requests', {
        key: owner.key,
        body: { as: 'business', business_id: owner.businessId, limit: 200, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const plan = await expectPageCost(statements, 'shift_requests');
      expect(plan).toContain(`SEARCH shift_requests USING INDEX shift_requests_business_idx (business_id=? AND ${bound})`);
      expect(plan.join('\n')).not.toContain('shift_requests_business_created_idx');
    }
    // A long range in the past is walked newest first, as before.
    const old = await callRecording('POST', '/v1/shift_request/list_of_requests', {
      key: owner.key,
      body: { as: 'business', business_id: owner.businessId, limit: 10, date_from: dateAhead(-200), date_to: dateAhead(-1) },
    });
    expect(old.res.status).toBe(200);
    expect((await expectPageCost(old.statements, 'shift_requests')).join('\n')).toContain('shift_requests_business_created_idx');
  });

  it('the inbox, for one party and for a person speaking as a business and a shifter', async () => {
    const { me, owner, crew } = await world();
    const send = async (key: string, to: { kind: string; id: string }, as: { kind: string; id: string }) => {
      const r = await callRecording('POST', '/v1/messaging/messages', { key, body: { to, as, body: 'Hello' } });
      expect([200, 201], JSON.stringify(r.res.body)).toContain(r.res.status);
    };
    for (const b of crew) {
      await send(b.key, { kind: 'shifter', id: me.shifterId! }, { kind: 'business', id: b.businessId! });
      if (b !== owner) await send(me.key, { kind: 'business', id: b.businessId! }, { kind: 'shifter', id: me.shifterId! });
    }
    for (const [key, query] of [
      [me.key, { tab: 'all' }],
      [me.key, { tab: 'requests' }],
      [owner.key, { tab: 'requests' }],
      [owner.key, { tab: 'all', as_kind: 'business', as_id: owner.businessId! }],
    ] as const) {
      const { res, statements } = await callRecording('GET', '/v1/messaging/inbox', { key, query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const plan = await expectPageCost(statements, 'conversation_participants', { names: ['me'] });
      expect(
        plan.some((l) => /^SEARCH conversation_participants USING (COVERING )?INDEX conversation_participants_inbox_\w+_idx/.test(l)),
      ).toBe(true);
    }
  });

  it('the figures read rollups and a few hours of rows, never the business’s history', async () => {
    const owner = await makeUser({ business: { timezone: 'America/New_York', city_id: 1, state_id: 1, country_id: 1 } });
    const sh = await makeUser({ shifter: true });
    await connect(owner.businessId!, sh.shifterId!);
    for (let d = 1; d < 40; d++) {
      const s = Date.now() - d * DAY;
      await insertShift({
        businessId: owner.businessId!,
        shifterId: sh.shifterId,
        startsAt: s,
        set: { shift_start_at: s, shift_end_at: s + 4 * HOUR },
      });
    }
    await advanceInsightRollups(contextAt(Date.now(), owner));
    for (const path of [
      `/v1/business/${owner.businessId}/labor_costs`,
      `/v1/business/${owner.businessId}/crew/analytics`,
      '/v1/going_rate?city_id=1',
    ]) {
      const { res, statements } = await callRecording('GET', path, { key: owner.key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const plans = await plansReading(statements, 'shift_requests');
      // A crew member's latest shift is one seek on the business+shifter index, not a walk of 90 days.
      if (path.includes('crew'))
        expect(plans.flatMap((p) => p.plan).join('\n')).toMatch(
          /SEARCH s USING INDEX shift_requests_business_shifter_idx \(business_id=\? AND shifter_id=\?/,
        );
      for (const p of plans) {
        expect(fullScans(p.plan, ['shift_requests', 's', 'x']), p.plan.join('\n')).toEqual([]);
        // Rows are read by business and start (the edges), by id, or one seek per crew member.
        for (const l of p.plan.filter((x) => /^\s*SEARCH (shift_requests|s|x) /.test(x))) {
          expect(l, p.plan.join('\n')).toMatch(
            /\((business_id=\? AND (starts_at[<>]\?|shifter_id=\?)|request_status=\? AND is_broadcast=\? AND starts_at[<>]\?|id=\?)/,
          );
        }
      }
    }
  });
});
