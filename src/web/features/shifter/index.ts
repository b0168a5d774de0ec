import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { shifterClockPages } from '../shifter-clock';
import { renderShifter } from './home';
import { shifterShiftPages } from '../shifter-shifts';

/**
 * The shifter side of the web application ({app_url}/dashboard/shifter), mounted inside /dashboard
 * (its sign-in check and form idempotency apply): the home, the work pages and the clock and records.
 */
export const shifterPages = new Hono<AppEnv>();
shifterPages.get('/', renderShifter);
shifterPages.route('/', shifterShiftPages);
shifterPages.route('/', shifterClockPages);
