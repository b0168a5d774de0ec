import { Hono } from 'hono';
import type { AppEnv } from '../../../../http/app-types';

/**
 * The shifter at work and after ({app_url}/dashboard/shifter/…): clock in and out (online and offline), earnings, records.
 */
export const shifterClockPages = new Hono<AppEnv>();
