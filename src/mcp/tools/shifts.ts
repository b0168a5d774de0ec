import { AppError } from '../../lib/errors';
import { shiftWhen } from '../../services/kernel';
import {
  cancelShift as cancelShiftService,
  claimBroadcast,
  clockIn as clockInService,
  clockOut as clockOutService,
  getShiftRequest,
  listBroadcasts,
  listRequests,
  type loadShift,
  sendRequestWithWarnings,
  type ShiftList,
} from '../../services/shifts';
import { defineTool } from '../tool';
import {
  cancelShiftSpec,
  claimShiftSpec,
  clockInSpec,
  clockOutSpec,
  listMyShiftsSpec,
  postShiftSpec,
  searchShiftsSpec,
  shiftDetailsSpec,
} from '@shiftmarket/tool-specs';
import { assertRole, ownedBusiness, ownShifterId, shiftAsShifter, shiftForParty } from '../../services/access';

const listed = (r: ShiftList) => `${r.data.length} shift(s)${r.next_cursor ? '; more with next_cursor' : ''}.`;

/**
 * The caller's shifts through the same list as POST /v1/shift_request/list_of_requests, reaching the
 * businesses they own and their shifter profile (`owned`: agents do not act for a teammate's
 * businesses, which the REST list also shows), so each page is full.
 */
export const listMyShifts = defineTool({
  ...listMyShiftsSpec,
  async run(ctx, args) {
    await assertRole(ctx, args.role);
    return listRequests(
      ctx,
      { as: args.role, status: args.status, date_from: args.date_from, date_to: args.date_to, limit: args.limit, cursor: args.cursor },
      'owned',
    );
  },
  summarize: listed,
});

export const shiftDetails = defineTool({
  ...shiftDetailsSpec,
  async run(ctx, args) {
    await shiftForParty(ctx, args.shift_request_id);
    return { shift_request: await getShiftRequest(ctx, args.shift_request_id) };
  },
  summarize: (r) => `${r.shift_request.status}: ${r.shift_request.shift_date} ${r.shift_request.shift_in}–${r.shift_request.shift_out}.`,
});

/**
 * Open broadcasts through the same list as list_of_broadcast_requests, as the caller's shifter
 * profile: read as a shifter, the list leaves out the caller's own businesses' broadcasts (theirs to
 * fill, not to claim), so the page is the service's as it is.
 */
export const searchShifts = defineTool({
  ...searchShiftsSpec,
  async run(ctx, args) {
    const shifterId = await ownShifterId(ctx);
    return listBroadcasts(ctx, {
      shifter_id: shifterId,
      sort_by_relevance: args.sort_by_relevance,
      date_from: args.date_from,
      date_to: args.date_to,
      shiftrole_id: args.shiftrole_id,
      business_id: args.business_id,
      min_rate: args.min_rate,
      limit: args.limit,
      cursor: args.cursor,
    });
  },
  summarize: listed,
});

export const postShift = defineTool({
  ...postShiftSpec,
  async describeAction(ctx, args) {
    const b = await ownedBusiness(ctx, args.business_id);
    const to = args.is_broadcast ? 'broadcast to the crew' : `sent to shifter ${args.shifter_id ?? '(none)'}`;
    return `Post a shift at ${b.name} on ${args.shift_date} ${args.shift_in}–${args.shift_out}, role ${args.shiftrole_id}, ${args.hourly_rate} ${args.currency ?? b.currency}/h, ${to}.`;
  },
  async run(ctx, args) {
    const b = await ownedBusiness(ctx, args.business_id);
    const created = await sendRequestWithWarnings(ctx, {
      business_id: b.id,
      shift_date: args.shift_date,
      shift_in: args.shift_in,
      shift_out: args.shift_out,
      shiftrole_id: args.shiftrole_id,
      hourly_rate: args.hourly_rate,
      currency: args.currency,
      shifter_id: args.shifter_id ?? null,
      is_broadcast: args.is_broadcast,
      is_flexible: args.is_flexible,
      note: args.note ?? null,
    });
    return { shift_request: created };
  },
  summarize: (r) =>
    [
      `Posted ${r.shift_request.id} (${r.shift_request.is_broadcast ? 'broadcast' : 'targeted'}).`,
      ...(r.shift_request.warnings ?? []).map((w) => `Warning (${w.code}): ${w.message}`),
    ].join(' '),
});

/** The shift as a sentence for a confirmation prompt, once the caller is known to be a party. */
async function describeShift(ctx: Parameters<typeof loadShift>[0], id: string) {
  const { s } = await shiftForParty(ctx, id);
  return `${shiftWhen(s.row)} at ${s.business.name}`;
}

export const claimShift = defineTool({
  ...claimShiftSpec,
  async describeAction(_ctx, args) {
    // The crew of a broadcast is no party of it yet: name it without reading the shift.
    return `Claim the open shift ${args.shift_request_id} for yourself.`;
  },
  async run(ctx, args) {
    await ownShifterId(ctx);
    return { shift_request: await claimBroadcast(ctx, args.shift_request_id) };
  },
  summarize: (r) =>
    `Claimed ${r.shift_request.id}: ${r.shift_request.shift_date} ${r.shift_request.shift_in}–${r.shift_request.shift_out}.`,
});

export const clockIn = defineTool({
  ...clockInSpec,
  async describeAction(ctx, args) {
    return `Clock in to the shift ${await describeShift(ctx, args.shift_request_id)}.`;
  },
  async run(ctx, args) {
    await shiftAsShifter(ctx, args.shift_request_id, 'clock in through an agent');
    return { shift_request: await clockInService(ctx, args.shift_request_id, { lat: args.lat, lon: args.lon, im_here: args.im_here }) };
  },
  summarize: (r) => `Clocked in at ${r.shift_request.shift_start_at}.`,
});

export const clockOut = defineTool({
  ...clockOutSpec,
  async describeAction(ctx, args) {
    const breaks = args.breaks?.length ? `, with ${args.breaks.length} break(s)` : '';
    return `Clock out of the shift ${await describeShift(ctx, args.shift_request_id)}${breaks}; its timesheet goes to the business for approval.`;
  },
  async run(ctx, args) {
    await shiftAsShifter(ctx, args.shift_request_id, 'clock out through an agent');
    return {
      shift_request: await clockOutService(ctx, args.shift_request_id, {
        lat: args.lat,
        lon: args.lon,
        breaks: args.breaks,
        break_attestation: args.break_attestation,
        note: args.note,
      }),
    };
  },
  summarize: (r) => `Clocked out at ${r.shift_request.shift_end_at}.`,
});

export const cancelShift = defineTool({
  ...cancelShiftSpec,
  async describeAction(ctx, args) {
    return `Cancel the shift ${await describeShift(ctx, args.shift_request_id)}${args.reason ? ` (reason: ${args.reason})` : ''}.`;
  },
  async run(ctx, args) {
    const { sides } = await shiftForParty(ctx, args.shift_request_id);
    if (args.as && !sides.includes(args.as)) throw new AppError('FORBIDDEN-ERR', `You are not the ${args.as} on this shift.`);
    return cancelShiftService(ctx, args.shift_request_id, { as: args.as, reason: args.reason ?? null });
  },
  summarize: (r) =>
    `Cancelled ${r.shift_request.id}${r.auto_fill_shift_request_id ? `; re-broadcast as ${r.auto_fill_shift_request_id}` : ''}.`,
});
