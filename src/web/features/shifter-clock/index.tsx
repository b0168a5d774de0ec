import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { postPunch, renderClock } from './clock';
import { postGoal, renderEarnings } from './earnings';
import { records } from './records';

/**
 * The shifter at work and after ({app_url}/dashboard/shifter/…): clock in and out (online and offline), earnings, records.
 */
export const shifterClockPages = new Hono<AppEnv>();
shifterClockPages.get('/clock', (c) => renderClock(c));
shifterClockPages.post('/clock/:id/:side', postPunch);
shifterClockPages.get('/earnings', (c) => renderEarnings(c));
shifterClockPages.post('/earnings/goal', postGoal);
shifterClockPages.route('/records', records);
