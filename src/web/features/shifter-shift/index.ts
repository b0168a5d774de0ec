import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { getShifterShift, postAccept, postClaim, postDecline } from './shifter-shift';

/** The worker's page for one shift ({app_url}/dashboard/shifter/shifts/{id}) and its three forms. */
export const oneShiftPages = new Hono<AppEnv>();
oneShiftPages.get('/shifts/:id', getShifterShift);
oneShiftPages.post('/shifts/:id/accept', postAccept);
oneShiftPages.post('/shifts/:id/decline', postDecline);
oneShiftPages.post('/shifts/:id/claim', postClaim);
