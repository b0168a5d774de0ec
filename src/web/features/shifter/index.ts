import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { shifterClockPages } from '../shifter-clock';
import { shifterConnectionPages } from '../shifter-connections';
import { oneShiftPages } from '../shifter-shift';
import { renderShifter } from './home';
import { shifterShiftPages } from '../shifter-shifts';
import { postDispute, renderShifterTimesheets } from '../timesheets/shifter-timesheets';

/**
 * The shifter side of the web application ({app_url}/dashboard/shifter), mounted inside /dashboard
 * (its sign-in check and form idempotency apply): the home, the work pages, the clock and records, and
 * the businesses the shifter is connected with (invitations, crews, finding more).
 */
export const shifterPages = new Hono<AppEnv>();
shifterPages.get('/', renderShifter);
shifterPages.route('/', shifterShiftPages);
shifterPages.route('/', shifterClockPages);
shifterPages.route('/', shifterConnectionPages);
shifterPages.route('/', oneShiftPages);
shifterPages.get('/timesheets', renderShifterTimesheets);
shifterPages.post('/timesheets/:id/dispute', postDispute);
