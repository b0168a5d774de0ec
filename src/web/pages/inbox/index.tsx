import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';

/**
 * A signed-in person's inbox (/inbox) and notifications (/notifications).
 */
export const inboxPages = new Hono<AppEnv>();
