import { shiftParty } from '../access';
import type { ServiceContext } from '../kernel';
import { withClockWindow } from './clock-window';
import { counterSuggestionsFor } from './counter-suggest';
import { loadShift, viewLoaded } from './load';
import type { ShiftRequestView } from './schemas';

/**
 * GET /v1/shift_request/{id}: one shift request, to its parties (and the crew of an open broadcast,
 * and admins); anyone else gets 404. The targeted shifter of a pending request also sees the
 * counter-offer their counter rules suggest; its two parties see the clock window on their side.
 */
export async function getShiftRequest(ctx: ServiceContext, id: string): Promise<ShiftRequestView> {
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  const counters = await counterSuggestionsFor(ctx, party.callerShifterId, [
    { row: s.row, business_lat: s.business.latitude, business_lon: s.business.longitude },
  ]);
  const as = party.isShifter ? 'shifter' : party.businessRole ? 'manager' : null;
  return withClockWindow({ ...viewLoaded(s), ...counters.get(s.row.id) }, as, ctx.now());
}
