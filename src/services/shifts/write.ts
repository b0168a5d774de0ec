import { opApplied } from '../../db/conditional';
import { prepareWrite, type ServiceContext } from '../kernel';

/**
 * A guarded write of one shift request: the guard stamps `last_op_id = w.op`, so the audit row,
 * events and follow-up rows of the batch are written only if that update took effect.
 */
export function shiftWrite(ctx: ServiceContext, shiftId: string) {
  return prepareWrite(ctx, { type: 'shift_request', id: shiftId }, (op) => opApplied(shiftId, op));
}
