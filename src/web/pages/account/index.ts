import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';
import { requireWebUser } from '../../session';

/** The account settings pages, all behind the cookie session. */
export const accountPages = new Hono<AppEnv>();
accountPages.use('*', requireWebUser);
accountPages.get('/', (c) => c.text(`signed in as ${c.get('webUser')?.email ?? ''}`));
