import { describe, expect, it } from 'vitest';
import { TOOL_PREFIX } from '../../src/mcp/tool';
import { CLOCK_IN_EARLY_MINUTES, type ClockTimes, clockWindow, MIN_CLOCKED_MINUTES } from '../../src/services/shifts';
import { call } from '../helpers/api';
import { makeUser, type TestUser } from '../helpers/factory';
import { connectModern } from '../helpers/mcp';
import { HOUR, insertShift, MINUTE, makeCrewMember, readShift } from '../helpers/shifts';
import type { WebClient } from '../helpers/web';
import { signedIn } from '../helpers/signed-in';

/**
 * The clock window is one rule (services/shifts clock-window.ts): the clock service refuses what it
 * refuses, and the shifter's clock page, the kiosk, the API's clock_window field and the MCP tools
 * offer exactly what it accepts. Each case is a shift placed relative to now, with margins of
 * minutes, so the answer does not change while the test runs.
 */

/** The owner's browser as the kiosk (board → start). */
async function kioskOf(owner: TestUser): Promise<WebClient> {
  const k = await signedIn(owner);
  await k.get('/dashboard/board/kiosk/start');
  expect((await k.post('/dashboard/board/kiosk/start', { _idem: crypto.randomUUID() })).location).toBe('/kiosk');
  return k;
}

/** The punch form of a shift on the shifter's clock page, and whether it is shown or waits hidden. */
function pageForm(html: string, shiftId: string, side: 'in' | 'out'): 'shown' | 'waiting' | 'absent' {
  const m = new RegExp(`<form[^>]*action="/dashboard/shifter/clock/${shiftId}/${side}"[^>]*>`).exec(html);
  if (!m) return 'absent';
  return /\shidden(=""|\s|>)/.test(m[0]) ? 'waiting' : 'shown';
}

interface Case {
  name: string;
  /** Start relative to now, in minutes; 4-hour shifts. */
  startIn: number;
  clockedInAgo?: number;
  side: 'in' | 'out';
  shifterMay: boolean;
}

const CASES: Case[] = [
  { name: 'clock-in not open yet (90 minutes before the start)', startIn: 90, side: 'in', shifterMay: false },
  { name: 'clock-in open (30 minutes before the start)', startIn: 30, side: 'in', shifterMay: true },
  // Clock-out opens a minute after the clock-in, for every side.
  { name: 'clocked in 30 seconds ago', startIn: -60, clockedInAgo: 0.5, side: 'out', shifterMay: false },
  // Leaving early: three hours before the scheduled end, the worker clocks out (the timesheet marks it).
  { name: 'leaving early (clocked in, 3 hours to the end)', startIn: -60, clockedInAgo: 60, side: 'out', shifterMay: true },
  { name: 'clock-out open (clocked in, 10 minutes to the end)', startIn: -230, clockedInAgo: 230, side: 'out', shifterMay: true },
];

describe('the clock window: one rule, the same answer everywhere', () => {
  it('the service, the clock page, the kiosk, the API field and the MCP tool agree on each case', async () => {
    const owner = await makeUser({ business: true });
    const kiosk = await kioskOf(owner);
    for (const c of CASES) {
      const sh = await makeCrewMember(owner.businessId!);
      const startsAt = Date.now() + c.startIn * MINUTE;
      const shift = await insertShift({
        businessId: owner.businessId!,
        shifterId: sh.shifterId!,
        startsAt,
        minutes: 240,
        set: c.clockedInAgo ? { shift_start_at: Date.now() - c.clockedInAgo * MINUTE, shift_start_by_id: sh.userId } : {},
      });
      const expected = clockWindow(
        {
          accepted: true,
          noShow: false,
          startsAt: shift.starts_at,
          endsAt: shift.ends_at,
          clockedInAt: shift.shift_start_at,
          clockedOutAt: null,
        },
        Date.now(),
        'shifter',
      );
      expect(expected.can, c.name).toBe(c.shifterMay ? c.side : null);

      // The API's field, to the shifter.
      const got = await call('GET', `/v1/shift_request/${shift.id}`, { key: sh.key });
      expect(got.status, c.name).toBe(200);
      const field = got.body.clock_window;
      expect(field, c.name).toMatchObject({
        can: expected.can,
        opens_at: expected.opensAt === null ? null : new Date(expected.opensAt).toISOString(),
      });
      if (!c.shifterMay) expect(field.reason, c.name).toMatch(/opens/);

      // The MCP tool gives the same field.
      const agent = await connectModern(sh.key);
      const tool = (await agent.callTool({ name: `${TOOL_PREFIX}shift_details`, arguments: { shift_request_id: shift.id } })) as {
        structuredContent?: { shift_request: { clock_window: unknown } };
      };
      expect(tool.structuredContent?.shift_request.clock_window, c.name).toEqual(field);

      // The shifter's clock page offers the punch only when it is open; otherwise it says when it opens.
      const page = (await (await signedIn(sh)).get('/dashboard/shifter/clock')).html;
      expect(pageForm(page, shift.id, c.side), c.name).toBe(c.shifterMay ? 'shown' : 'waiting');
      if (!c.shifterMay)
        expect(page, c.name).toContain(`${c.side === 'in' ? 'Clock-in' : 'Clock-out'} opens <time datetime="${field.opens_at}">`);

      // The kiosk offers the same punch.
      const board = (await kiosk.get('/kiosk')).html;
      expect(board.includes(`href="/kiosk/shifts/${shift.id}"`), c.name).toBe(c.shifterMay);

      // And the service accepts exactly that.
      const punched = await call('POST', `/v1/shift_request/${shift.id}/clock_${c.side}`, { key: sh.key, body: {} });
      if (c.shifterMay) expect(punched.status, `${c.name}: ${JSON.stringify(punched.body)}`).toBe(200);
      else {
        expect(punched.status, c.name).toBe(422);
        expect(punched.body.error).toMatchObject({ code: 'SHFT-CLOCK-WINDOW-ERR', details: { opens_at: field.opens_at } });
      }

      // The business side, acting as itself, has the same window: its field says so.
      if (c.side === 'out' && !c.shifterMay) {
        const asOwner = await call('GET', `/v1/shift_request/${shift.id}`, { key: owner.key });
        expect(asOwner.body.clock_window).toMatchObject({ state: 'in', can: null, opens_at: field.opens_at });
        expect((await readShift(shift.id))!.shift_end_at).toBeNull();
      }
    }
  });

  it('the window itself: bounds, a no-show, a missed clock-in, a finished shift', () => {
    const start = Date.UTC(2026, 2, 8, 6, 30); // the spring change's morning in New York: instants only
    const t: ClockTimes = {
      accepted: true,
      noShow: false,
      startsAt: start,
      endsAt: start + 8 * HOUR,
      clockedInAt: null,
      clockedOutAt: null,
    };
    const opensIn = start - CLOCK_IN_EARLY_MINUTES * MINUTE;
    expect(clockWindow(t, opensIn - 1, 'shifter')).toMatchObject({ state: 'due', can: null, opensAt: opensIn, closesAt: t.endsAt });
    expect(clockWindow(t, opensIn, 'kiosk')).toMatchObject({ state: 'due', can: 'in', closesAt: t.endsAt, reason: null });
    expect(clockWindow(t, t.endsAt, 'shifter').can).toBe('in');
    expect(clockWindow(t, t.endsAt + 1, 'shifter')).toMatchObject({ state: 'missed', can: null });
    expect(clockWindow({ ...t, noShow: true }, start, 'shifter')).toMatchObject({ state: 'no_show', can: null });
    expect(clockWindow({ ...t, accepted: false }, start, 'manager')).toMatchObject({ state: 'not_accepted', can: null });

    const inAt = start + 5 * MINUTE;
    const working = { ...t, clockedInAt: inAt };
    const outOpens = inAt + MIN_CLOCKED_MINUTES * MINUTE;
    expect(clockWindow(working, outOpens - 1, 'shifter')).toMatchObject({ state: 'in', can: null, opensAt: outOpens });
    expect(clockWindow(working, outOpens, 'kiosk').can).toBe('out');
    // Hours before the end, the worker may clock out (leaving early is recorded, not refused).
    expect(clockWindow(working, t.endsAt - 3 * HOUR, 'shifter').can).toBe('out');
    // The business, as everyone, from a minute after the clock-in.
    expect(clockWindow(working, inAt + MIN_CLOCKED_MINUTES * MINUTE - 1, 'manager')).toMatchObject({
      can: null,
      opensAt: inAt + MIN_CLOCKED_MINUTES * MINUTE,
    });
    expect(clockWindow(working, inAt + MIN_CLOCKED_MINUTES * MINUTE, 'manager').can).toBe('out');
    expect(clockWindow({ ...working, clockedOutAt: outOpens }, outOpens + 1, 'manager')).toMatchObject({ state: 'done', can: null });
  });
});
