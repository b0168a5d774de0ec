import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { renderError } from '@/web/render';
import { authenticatePages } from './authenticate';
import { financeJson } from './json';
import { simulatorPages } from './simulator';

/**
 * The finance web routes (spec 4.12), mounted at /finance/web: the payment authentication page with
 * its result, the simulated issuer page (simulator only), and two cookie-authenticated JSON reads
 * (the stuck invoices, the result page's status). The pages need the cookie session (a signed-out
 * browser is sent to sign-in and back); the JSON reads answer 401 in the error envelope instead.
 */
export const financePages = new Hono<AppEnv>();
financePages.route('/', financeJson);
financePages.route('/', authenticatePages);
financePages.route('/', simulatorPages);
financePages.all('*', (c) => renderError(c, 404, 'Page not found', 'There is no such page.'));
