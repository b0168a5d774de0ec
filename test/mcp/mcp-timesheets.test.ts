import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoices, mcpUserSettings } from '../../src/db/schema';
import { AppError } from '../../src/lib/errors';
import { wallClockToInstant } from '../../src/lib/shift-time';
import type { ToolDefinition, ToolRunExtras } from '../../src/mcp/tool';
import { ALL_TOOLS } from '../../src/mcp/tools';
import type { ServiceContext } from '../../src/services/kernel';
import { contextAt } from '../helpers/clock';
import { addTeammate, db, makeUser, type TestUser } from '../helpers/factory';
import { connectLegacy, connectModern, toolErrorOf } from '../helpers/mcp';
import { HOUR, insertShift, MINUTE, makePair, NY } from '../helpers/shifts';
import { submittedTimesheet, timesheetIdOf } from '../helpers/timesheets';

/**
 * The timesheet tools: a shift through clock_in and clock_out with its breaks, listed by the business
 * and by the worker, approved with its preview (and the agent payment cap), edited and disputed, and
 * the refusals of those who may not act. The tool runs use fixed instants in New York; the calls
 * through the server use the clock as it is.
 */

const tool = (name: string): ToolDefinition => {
  const t = ALL_TOOLS.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};

function agentCtx(user: TestUser, at: number, settings: Record<string, unknown> = {}): ServiceContext {
  const base = contextAt(at, user);
  return {
    ...base,
    settings: { ...base.settings, ...settings },
    actor: { kind: 'agent', userId: user.userId, tokenId: `tok_${user.keyId}`, scopes: ['read', 'write', 'payment'], isAdmin: false },
  };
}

const extras: ToolRunExtras = {
  tokenId: 'tok_test',
  requestOrigin: 'https://mcp.test',
  clientSupportsUrlElicitation: false,
  elicitUrl: async () => false,
};

async function run<T = any>(name: string, user: TestUser, args: Record<string, unknown>, at: number): Promise<T> {
  const t = tool(name);
  const out = await t.run(agentCtx(user, at), t.input.parse(args), extras);
  t.output.parse(out);
  expect(typeof t.summarize(out)).toBe('string');
  return out as T;
}

async function preview(name: string, user: TestUser, args: Record<string, unknown>, at: number, settings?: Record<string, unknown>) {
  const t = tool(name);
  return t.describeAction!(agentCtx(user, at, settings), t.input.parse(args));
}

async function refusedWith(p: Promise<unknown>, code: string): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(AppError);
    expect((err as AppError).code, (err as AppError).message).toBe(code);
    return err as AppError;
  }
  throw new Error(`expected ${code}`);
}

const ny = (date: string, time: string) => wallClockToInstant(date, time, NY);
const iso = (ms: number) => new Date(ms).toISOString();

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content?: Array<{ type: string; text?: string }> };

describe('a shift through the timesheet tools', () => {
  it('clock_in, clock_out with a break; listed by both sides; approve previews worked minutes and invoice, refuses the worker, a teammate and an amount over the cap, then approves and invoices', async () => {
    const date = '2026-06-10'; // a Wednesday
    const { biz, sh } = await makePair();
    const shift = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      date,
      in: '08:00',
      out: '16:30',
      rateMinor: 2400,
    });
    await run('clock_in', sh, { shift_request_id: shift.id }, ny(date, '08:03'));
    const outAt = ny(date, '16:33');
    await run(
      'clock_out',
      sh,
      {
        shift_request_id: shift.id,
        breaks: [{ start: iso(ny(date, '12:00')), end: iso(ny(date, '12:30')) }],
        break_attestation: 'taken',
        note: 'Closed the till',
      },
      outAt,
    );

    // 08:03–16:33 is 510 minutes, less the 30-minute unpaid break: 480 minutes, 8 h × 24.00 = 192.00.
    const listed = await run('list_timesheets', biz, { business_id: biz.businessId, period: date }, outAt + MINUTE);
    expect(listed.data).toHaveLength(1);
    const sheet = listed.data[0];
    expect(sheet).toMatchObject({
      shift_request_id: shift.id,
      status: 'submitted',
      worked_minutes: 480,
      unpaid_break_minutes: 30,
      break_attestation: 'taken',
      worker_note: 'Closed the till',
      pay: 192,
      currency: 'USD',
      issues: [],
    });
    expect(sheet.breaks).toEqual([{ start_at: iso(ny(date, '12:00')), end_at: iso(ny(date, '12:30')), paid: false }]);
    expect(sheet.allowed_actions).toEqual(['approve', 'edit']);
    expect((await run('list_timesheets', biz, { business_id: biz.businessId, period: '2026-06-17' }, outAt + MINUTE)).data).toEqual([]);
    const own = await run('list_timesheets', sh, { status: 'submitted' }, outAt + MINUTE);
    expect(own.data.map((t: { id: string }) => t.id)).toEqual([sheet.id]);
    expect(own.data[0].allowed_actions).toEqual(['dispute']);

    // The preview: the timesheet, its worked minutes and the invoice it would write.
    const asked = await preview('approve_timesheet', biz, { timesheet_id: sheet.id }, outAt + 2 * MINUTE);
    expect(typeof asked === 'string' ? null : asked).toMatchObject({
      summary: expect.stringContaining('192 USD'),
      preview: { worked_minutes: 480, invoice_amount: 192, currency: 'USD', timesheet: { id: sheet.id, status: 'submitted' } },
    });
    expect((await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id))).length).toBe(0);

    // The worker may not approve their own time; a teammate is not acted for; over the cap, the person approves in the app.
    const worker = await refusedWith(preview('approve_timesheet', sh, { timesheet_id: sheet.id }, outAt + 2 * MINUTE), 'FORBIDDEN-ERR');
    expect(worker.message).toContain('Only the business');
    await refusedWith(run('approve_timesheet', sh, { timesheet_id: sheet.id }, outAt + 2 * MINUTE), 'FORBIDDEN-ERR');
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    await refusedWith(run('approve_timesheet', mate, { timesheet_id: sheet.id }, outAt + 2 * MINUTE), 'MCP-TEAMMATE-ERR');
    await refusedWith(run('list_timesheets', mate, { business_id: biz.businessId }, outAt + 2 * MINUTE), 'MCP-TEAMMATE-ERR');
    const stranger = await makeUser({ business: true, shifter: true });
    await refusedWith(run('approve_timesheet', stranger, { timesheet_id: sheet.id }, outAt + 2 * MINUTE), 'TIMESHEET-NOT-FND-ERR');
    const cap = await refusedWith(
      preview('approve_timesheet', biz, { timesheet_id: sheet.id }, outAt + 2 * MINUTE, { AGENT_PAYMENT_MAX_MINOR: 19_199 }),
      'PAYMENT-CAP-ERR',
    );
    expect(cap.details).toMatchObject({ amount: 192, cap: 191.99, currency: 'USD' });

    const approved = await run('approve_timesheet', biz, { timesheet_id: sheet.id }, outAt + 3 * MINUTE);
    expect(approved).toMatchObject({ invoice_amount: 192, currency: 'USD', timesheet: { status: 'approved', approved_how: 'business' } });
    const [inv] = await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id));
    expect(inv?.amount_minor).toBe(19_200);
    // Approving again answers it as it stands; a dispute now is refused.
    expect((await run('approve_timesheet', biz, { timesheet_id: sheet.id }, outAt + 4 * MINUTE)).timesheet.status).toBe('approved');
    await refusedWith(
      run(
        'dispute_timesheet',
        sh,
        { timesheet_id: sheet.id, in_at: iso(ny(date, '08:00')), out_at: iso(ny(date, '16:33')), reason: 'I started at 8' },
        outAt + 5 * MINUTE,
      ),
      'TIMESHEET-LOCKED-ERR',
    );
  });

  it('edit_timesheet needs a reason and the owner; dispute_timesheet is the worker’s; approving waits for the dispute', async () => {
    const date = '2026-06-11';
    const { biz, sh } = await makePair();
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '09:00', out: '13:00' });
    await run('clock_in', sh, { shift_request_id: shift.id }, ny(date, '09:00'));
    const outAt = ny(date, '13:10');
    await run('clock_out', sh, { shift_request_id: shift.id, break_attestation: 'waived' }, outAt);
    const id = (await timesheetIdOf(shift.id))!;

    // The input's rules (reason other needs a note): the wrapper answers this ZodError as VALIDATION-ERR.
    await expect(
      run('edit_timesheet', biz, { timesheet_id: id, reason: 'other', out_at: iso(ny(date, '13:00')) }, outAt),
    ).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ['note'] })] });
    await refusedWith(
      run('edit_timesheet', sh, { timesheet_id: id, reason: 'stayed_late', out_at: iso(ny(date, '13:00')) }, outAt),
      'FORBIDDEN-ERR',
    );
    const summary = await preview(
      'edit_timesheet',
      biz,
      { timesheet_id: id, reason: 'early_release', out_at: iso(ny(date, '13:00')) },
      outAt,
    );
    expect(summary).toEqual(expect.stringContaining('early_release'));
    const edited = await run('edit_timesheet', biz, { timesheet_id: id, reason: 'early_release', out_at: iso(ny(date, '13:00')) }, outAt);
    expect(edited.timesheet).toMatchObject({ out_at: iso(ny(date, '13:00')), worked_minutes: 240, edit: { reason: 'early_release' } });
    // The worker's window on the edit is open: approving waits (TIMESHEET-WINDOW-ERR with opens_at).
    const wait = await refusedWith(preview('approve_timesheet', biz, { timesheet_id: id }, outAt + MINUTE), 'TIMESHEET-WINDOW-ERR');
    expect(wait.details).toMatchObject({ opens_at: expect.any(String) });

    await refusedWith(
      run('dispute_timesheet', biz, { timesheet_id: id, in_at: iso(ny(date, '09:00')), out_at: iso(outAt), reason: 'x' }, outAt),
      'FORBIDDEN-ERR',
    );
    const disputed = await run(
      'dispute_timesheet',
      sh,
      { timesheet_id: id, in_at: iso(ny(date, '09:00')), out_at: iso(outAt), reason: 'I closed up until 13:10.' },
      outAt + 2 * MINUTE,
    );
    expect(disputed.timesheet.dispute).toMatchObject({ status: 'open', proposed_out_at: iso(outAt), reason: 'I closed up until 13:10.' });
    expect(disputed.timesheet.allowed_actions).toEqual([]);
    await refusedWith(preview('approve_timesheet', biz, { timesheet_id: id }, outAt + 3 * MINUTE), 'TIMESHEET-STATE-ERR');
  });
});

describe('approve_timesheet through the server', () => {
  it('asks first with the preview on both revisions (even with confirmation switched off), approves on confirm: true, and the worker gets FORBIDDEN-ERR', async () => {
    const { biz, sh } = await makePair();
    const now = Date.now();
    const worked = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId!,
      startsAt: now - 5 * HOUR,
      minutes: 120,
      rateMinor: 3000,
      set: { shift_start_at: now - 5 * HOUR, shift_end_at: now - 3 * HOUR },
    });
    const id = await submittedTimesheet(worked.id);

    // Write confirmation switched off: the payment tool asks all the same.
    await db().insert(mcpUserSettings).values({ user_id: biz.userId, confirm_writes: false, updated_at: now });

    for (const connect of [connectLegacy, connectModern]) {
      const owner = await connect(biz.key);
      const listed = (await owner.listTools()).tools.find((t) => t.name === 'shiftmarket.approve_timesheet')!;
      expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual(['timesheet_id', 'confirm']);
      const ask = (await owner.callTool({ name: 'shiftmarket.approve_timesheet', arguments: { timesheet_id: id } })) as ToolResult;
      expect(ask.isError).toBe(true);
      const asked = toolErrorOf(ask);
      expect(asked?.code).toBe('MCP-CONFIRM-REQ-ERR');
      expect(asked?.details).toMatchObject({
        summary: expect.stringContaining('60 USD'),
        preview: { worked_minutes: 120, invoice_amount: 60, currency: 'USD', timesheet: { id, status: 'submitted' } },
      });
      await owner.close();
    }
    expect((await db().select().from(invoices).where(eq(invoices.shift_request_id, worked.id))).length).toBe(0);

    const worker = await connectModern(sh.key);
    await worker.listTools();
    const refused = (await worker.callTool({
      name: 'shiftmarket.approve_timesheet',
      arguments: { timesheet_id: id, confirm: true },
    })) as ToolResult;
    expect(toolErrorOf(refused)?.code).toBe('FORBIDDEN-ERR');
    await worker.close();

    const owner = await connectModern(biz.key);
    await owner.listTools();
    const done = (await owner.callTool({
      name: 'shiftmarket.approve_timesheet',
      arguments: { timesheet_id: id, confirm: true },
    })) as ToolResult;
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ invoice_amount: 60, currency: 'USD', timesheet: { id, status: 'approved' } });
    await owner.close();
    const [inv] = await db().select().from(invoices).where(eq(invoices.shift_request_id, worked.id));
    expect(inv?.amount_minor).toBe(6000);
  });
});
