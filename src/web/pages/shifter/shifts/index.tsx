import { Hono } from 'hono';
import type { AppEnv } from '../../../../http/app-types';

/**
 * The shifter's work ({app_url}/dashboard/shifter/…): find shifts, answer requests, my schedule, the profile.
 */
export const shifterShiftPages = new Hono<AppEnv>();
