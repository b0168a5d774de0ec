import { AppError } from '../../lib/errors';
import { type PersonActor, type ServiceContext, requirePerson, type Side } from '../kernel';
import { type BusinessRole, standingToward } from './business';
import { isCrew } from './crew';
import { shifterIdOf } from './shifter';

/** What access needs to know of a shift: its business and its shifter. */
export interface ShiftParties {
  row: { shifter_id: string | null; is_broadcast: boolean; request_status: number };
  business: { id: string; user_id: string };
}

export interface ShiftParty {
  actor: PersonActor;
  /** The caller's standing on the business side, if any. */
  businessRole: BusinessRole | null;
  /** True when the caller is the shift's shifter. */
  isShifter: boolean;
  /** True when the shift is an open broadcast and the caller is crew of its business (may read and claim it). */
  isCrewOfOpenBroadcast: boolean;
  /** The caller's own shifter id, if they have a shifter profile. */
  callerShifterId: string | null;
}

/** True for an open broadcast: no shifter yet, pending. */
export function isOpenBroadcast(row: ShiftParties['row']): boolean {
  return row.is_broadcast && row.shifter_id === null && row.request_status === 1;
}

/**
 * The caller's relation to a shift. A caller who is neither party, nor crew of an open broadcast,
 * nor admin gets 404 (the shift is not theirs to know of).
 */
export async function shiftParty(ctx: ServiceContext, s: ShiftParties): Promise<ShiftParty> {
  const actor = requirePerson(ctx);
  const [callerShifterId, businessRole] = await Promise.all([shifterIdOf(ctx, actor.userId), standingToward(ctx, s.business)]);
  const isShifter = callerShifterId !== null && s.row.shifter_id === callerShifterId;
  const isCrewOfOpenBroadcast = callerShifterId !== null && isOpenBroadcast(s.row) && (await isCrew(ctx, s.business.id, callerShifterId));
  if (!businessRole && !isShifter && !isCrewOfOpenBroadcast) throw new AppError('SHFT-NOT-FND-ERR');
  return { actor, businessRole, isShifter, isCrewOfOpenBroadcast, callerShifterId };
}

/** Which side the caller acts on; dual-profile callers who are both parties must say. */
export function pickSide(p: ShiftParty, asked: Side | undefined, allowed: Side[]): Side {
  const sides: Side[] = [];
  if (p.businessRole && allowed.includes('business')) sides.push('business');
  if (p.isShifter && allowed.includes('shifter')) sides.push('shifter');
  if (asked) {
    if (!sides.includes(asked)) throw new AppError('FORBIDDEN-ERR', `You are not the ${asked} on this shift.`);
    return asked;
  }
  if (sides.length === 0) throw new AppError('FORBIDDEN-ERR', `Only the ${allowed.join(' or ')} may do this.`);
  if (sides.length > 1) throw new AppError('VALIDATION-ERR', 'You are both parties of this shift: send as = business or shifter.');
  return sides[0]!;
}
