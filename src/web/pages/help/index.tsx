import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';

/**
 * The help center (/help): search, categories, articles, the AI helper and escalation to a person.
 */
export const helpPages = new Hono<AppEnv>();
