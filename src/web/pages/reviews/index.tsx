import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';

/**
 * Reviews (/reviews): given, received, responses, disputes and the rating trend.
 */
export const reviewsPages = new Hono<AppEnv>();
