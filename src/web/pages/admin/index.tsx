import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';

/**
 * The admin's queues (/admin): disputes, support threads, notification deliveries.
 */
export const adminPages = new Hono<AppEnv>();
