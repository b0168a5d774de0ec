import { expect } from 'vitest';
import { BASE } from './api';
import { randomIp } from './auth';
import { TEST_PASSWORD, type TestUser } from './factory';
import { WebClient } from './web';

/** A browser signed in as `u` through /login (its own client address, so sign-in limits never meet). */
export async function signedIn(u: TestUser): Promise<WebClient> {
  const b = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
  expect((await b.signIn(u.email, TEST_PASSWORD)).status).toBe(303);
  return b;
}
