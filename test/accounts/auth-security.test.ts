import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/services/accounts';
import { type ApiResult, expectError } from '../helpers/api';
import { authCall, randomIp, uniqueEmail } from '../helpers/auth';
import { makeUser, TEST_PASSWORD } from '../helpers/factory';

const login = (email: string, password: string, ip: string) => authCall('/v1/auth/login', { email, password }, ip);
const WRONG = 'not the password at all';

function expectLimited(res: ApiResult) {
  expectError(res, 429, 'RATE-LIMIT-ERR');
  const retry = Number(res.headers.get('Retry-After'));
  expect(retry).toBeGreaterThanOrEqual(1);
}

describe('sign-in limits (attacks that fail, owners not locked out)', () => {
  it('holds back the address that keeps failing for an email; the owner elsewhere signs in', async () => {
    const u = await makeUser({ shifter: true });
    const attacker = randomIp();
    for (let i = 0; i < LIMITS.loginFailuresPerEmailAndIp.limit; i++)
      expectError(await login(u.email, WRONG, attacker), 401, 'LOGIN-FAILED-ERR');
    // Even the right password is refused from there now, before it is checked.
    expectLimited(await login(u.email, TEST_PASSWORD, attacker));
    expectLimited(await login(u.email, WRONG, attacker));
    // The owner, from their own address, is not held back by the attacker's failures.
    expect((await login(u.email, TEST_PASSWORD, randomIp())).status).toBe(200);
  });

  it('counts concurrent failures before checking the password', async () => {
    const u = await makeUser({ shifter: true });
    const attacker = randomIp();
    const results = await Promise.all(Array.from({ length: 25 }, () => login(u.email, WRONG, attacker)));
    expect(results.filter((r) => r.status === 401)).toHaveLength(LIMITS.loginFailuresPerEmailAndIp.limit);
    for (const r of results.filter((x) => x.status !== 401)) expectLimited(r);
  });

  it('does not count right passwords', async () => {
    const u = await makeUser({ shifter: true });
    const ip = randomIp();
    for (let i = 0; i < LIMITS.loginFailuresPerEmailAndIp.limit + 2; i++)
      expect((await login(u.email, TEST_PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < LIMITS.loginFailuresPerEmailAndIp.limit; i++) expectError(await login(u.email, WRONG, ip), 401, 'LOGIN-FAILED-ERR');
  });

  it('holds back an address trying many accounts', async () => {
    const victim = await makeUser({ shifter: true });
    const sprayer = randomIp();
    const emails = Array.from({ length: LIMITS.loginFailuresPerIp.limit }, (_, i) => uniqueEmail(`spray${i}`));
    for (const email of emails) expectError(await login(email, WRONG, sprayer), 401, 'LOGIN-FAILED-ERR');
    expectLimited(await login(victim.email, TEST_PASSWORD, sprayer));
    expect((await login(victim.email, TEST_PASSWORD, randomIp())).status).toBe(200);
  });

  it('caps guessing spread over many addresses, still letting the owner in from a place they used', async () => {
    const u = await makeUser({ shifter: true });
    const home = randomIp();
    expect((await login(u.email, TEST_PASSWORD, home)).status).toBe(200);
    const limit = LIMITS.loginFailuresPerEmail.limit;
    for (let i = 0; i < limit; i += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, limit - i) }, () => login(u.email, WRONG, randomIp())));
      for (const r of batch) expectError(r, 401, 'LOGIN-FAILED-ERR');
    }
    // Another guess from a new address is refused without being checked, right password or not.
    expectLimited(await login(u.email, WRONG, randomIp()));
    expectLimited(await login(u.email, TEST_PASSWORD, randomIp()));
    // The owner at home gets in; a wrong password there is still just wrong.
    expectError(await login(u.email, WRONG, home), 401, 'LOGIN-FAILED-ERR');
    expect((await login(u.email, TEST_PASSWORD, home)).status).toBe(200);
  });
});
