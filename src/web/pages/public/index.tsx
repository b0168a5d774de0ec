import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';

/**
 * The pages a visitor reaches: the front door (/), sign-up and password recovery, public profiles (/s/{slug}, /b/{slug}).
 */
export const publicPages = new Hono<AppEnv>();
