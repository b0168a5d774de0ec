import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { getDecline, getShifterShift, postAccept, postClaim, postDecline } from './shifter-shift';

/** The worker's page for one shift ({app_url}/dashboard/shifter/shifts/{id}), its three forms and Decline's confirmation. */
export const oneShiftPages = new Hono<AppEnv>();
oneShiftPages.get('/shifts/:id', getShifterShift);
oneShiftPages.post('/shifts/:id/accept', postAccept);
oneShiftPages.get('/shifts/:id/decline', getDecline);
oneShiftPages.post('/shifts/:id/decline', postDecline);
oneShiftPages.post('/shifts/:id/claim', postClaim);
