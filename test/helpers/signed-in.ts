import { expect } from 'vitest';
import { BASE } from './api';
import { randomIp } from './auth';
import { TEST_PASSWORD, type TestUser } from './factory';
import type { WorkerFetch } from './api';
import { WebClient } from './web';

/**
 * A browser signed in as `u` through /login (its own client address, so sign-in limits never meet),
 * on the test Worker or on `worker`, one running the same app with other operator settings.
 */
export async function signedIn(u: TestUser, worker?: WorkerFetch): Promise<WebClient> {
  const b = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() }, worker);
  const res = await b.signIn(u.email, TEST_PASSWORD);
  expect(res.status, res.html.slice(0, 300)).toBe(303);
  return b;
}
