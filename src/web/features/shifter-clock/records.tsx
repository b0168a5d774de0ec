// The entry of the shifter's records page: its routes (the `records` app index.tsx mounts), each
// handled in the parts beside it (records-page draws the page, its notices included; records-*-routes read the forms).
import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { postCredential, postCredentialEntry } from './records-credential-routes';
import { mileageCsv, postMileage, postMileageEntry } from './records-mileage-routes';
import { renderRecords } from './records-page';
import { postPayout } from './records-payouts';
import { postRule, postRuleEntry } from './records-rule-routes';

/**
 * The shifter's records ({app_url}/dashboard/shifter/records): mileage for taxes (add, change, delete,
 * the year's totals, a CSV of the year), credentials (add, with a PDF or image document up to 8 MB sent
 * through the credentials API by the `records` island; visibility changed, deleted; expiry flags),
 * counter rules (add, change, delete) and the payout account (status, onboarding link, the latest
 * payouts with their state). The same services as /v1/shifter/{id}/…; forms are read with the API's
 * own schemas, so a refusal says the same thing here.
 */
export const records = new Hono<AppEnv>();
records.get('/', (c) => renderRecords(c));
records.post('/mileage', postMileage);
records.post('/mileage/:entry', postMileageEntry);
records.get('/mileage.csv', mileageCsv);
records.post('/credentials', postCredential);
records.post('/credentials/:credential', postCredentialEntry);
records.post('/rules', postRule);
records.post('/rules/:rule', postRuleEntry);
records.post('/payout', postPayout);
