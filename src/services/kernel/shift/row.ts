import type { shiftRequests } from '../../../db/schema';

/** A shift request as stored. */
export type ShiftRow = typeof shiftRequests.$inferSelect;
