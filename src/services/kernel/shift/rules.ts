import { AppError, type ErrorCode } from '../../../lib/errors';
import { SHIFT_STATUS, isWorked } from './status';
import type { ShiftRow } from './row';

export type Side = 'business' | 'shifter';

/** The error for a shift that is not in the state an operation needs. */
export function stateError(row: ShiftRow, wanted: string): AppError {
  const byStatus: Record<number, ErrorCode> = {
    [SHIFT_STATUS.completed]: 'SHFT-COMPLETED-ERR',
    [SHIFT_STATUS.expired]: 'SHFT-EXPIRED-ERR',
    [SHIFT_STATUS.declined]: 'SHFT-DECLINED-ERR',
    [SHIFT_STATUS.superseded]: 'SHFT-SUPERSEDED-ERR',
    [SHIFT_STATUS.cancelled]: 'SHFT-CANCELLED-ERR',
  };
  const code = byStatus[row.request_status];
  if (code) return new AppError(code, undefined, { request_status: row.request_status });
  return new AppError('SHFT-STATE-ERR', `The shift request must be ${wanted}.`, { request_status: row.request_status });
}

/** The reason a shift cannot be cancelled, or null. */
export function cancelRefusal(row: ShiftRow): AppError | null {
  if (row.request_status === SHIFT_STATUS.pending) return null;
  if (row.request_status !== SHIFT_STATUS.accepted) return stateError(row, 'pending or accepted');
  if (isWorked(row)) return new AppError('SHFT-WORKED-ERR');
  if (row.shift_start_at !== null) return new AppError('SHFT-STARTED-ERR');
  if (row.is_noshow) return new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  return null;
}

/** "2026-12-01 09:00–17:00": how notifications name a shift. */
export function shiftWhen(row: Pick<ShiftRow, 'shift_date' | 'shift_in' | 'shift_out'>): string {
  return `${row.shift_date} ${row.shift_in}–${row.shift_out}`;
}
