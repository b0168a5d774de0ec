import { env } from 'cloudflare:workers';
import { createDb } from '../../src/db/client';
import { admins, apiKeys, businesses, requestAuthorizations, shifters, teammates, users } from '../../src/db/schema';
import { verifyPassword } from '../../src/lib/crypto';
import { newId } from '../../src/lib/ids';
import { makeSlug } from '../../src/lib/slug';
import { mintApiKey } from '../../src/services/accounts';

export const db = () => createDb(env.DB);

let passwordHash: Promise<string> | null = null;
export const TEST_PASSWORD = 'correct horse battery';

/**
 * TEST_PASSWORD stored as the service stores passwords (`pbkdf2_sha256$<rounds>$<salt>$<hash>`) but
 * with 1,000 rounds instead of 100,000: verifyPassword reads the rounds from the stored value, so each
 * sign-in checks the password the real way at a hundredth of the cost (the limit tests make dozens of
 * wrong guesses; on a busy machine 100,000 rounds each ran them into their time limit). Passwords the
 * service hashes itself (registration, changes, resets) keep the full count.
 */
async function testPasswordHash(): Promise<string> {
  const rounds = 1_000;
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(TEST_PASSWORD), 'PBKDF2', false, ['deriveBits']);
  const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: rounds }, key, 256));
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const stored = `pbkdf2_sha256$${rounds}$${b64(salt)}$${b64(bits)}`;
  // The service's own check must accept it, or every sign-in in the tests would fail for this reason.
  if (!(await verifyPassword(TEST_PASSWORD, stored))) throw new Error('the test password hash does not verify');
  return stored;
}

export interface TestUser {
  userId: string;
  email: string;
  /** The name given to the person, their shifter profile and (with ` Co`) their business. */
  name: string;
  key: string;
  keyId: string;
  shifterId: string | null;
  businessId: string | null;
}

export interface MakeUserOptions {
  admin?: boolean;
  shifter?: boolean | Partial<typeof shifters.$inferInsert>;
  business?: boolean | Partial<typeof businesses.$inferInsert>;
  verified?: boolean;
  name?: string;
}

let counter = 0;

/** Inserts a verified user with a live personal key (and the profiles asked for) straight into D1. */
export async function makeUser(opts: MakeUserOptions = {}): Promise<TestUser> {
  passwordHash ??= testPasswordHash();
  const now = Date.now();
  const userId = newId('user');
  const name = opts.name ?? `Test User ${++counter}`;
  const email = `${userId.toLowerCase()}@example.test`;
  const d = db();
  await d.insert(users).values({
    id: userId,
    email,
    password_hash: await passwordHash,
    display_name: name,
    email_verified_at: opts.verified === false ? null : now,
    created_at: now,
    updated_at: now,
  });
  const { key, row } = await mintApiKey(userId, now);
  if (opts.verified !== false) await d.insert(apiKeys).values(row);
  if (opts.admin) await d.insert(admins).values({ user_id: userId, created_at: now });
  let shifterId: string | null = null;
  if (opts.shifter) {
    shifterId = newId('shifter');
    await d.insert(shifters).values({
      id: shifterId,
      user_id: userId,
      slug: makeSlug(name),
      display_name: name,
      timezone: 'UTC',
      currency: 'USD',
      created_at: now,
      updated_at: now,
      ...(typeof opts.shifter === 'object' ? opts.shifter : {}),
    });
  }
  let businessId: string | null = null;
  if (opts.business) {
    businessId = newId('business');
    await d.insert(businesses).values({
      id: businessId,
      user_id: userId,
      slug: makeSlug(`${name} Co`),
      name: `${name} Co`,
      is_default: true,
      timezone: 'America/New_York',
      city_id: 1,
      state_id: 1,
      country_id: 1,
      latitude: 40.7128,
      longitude: -74.006,
      currency: 'USD',
      created_at: now,
      updated_at: now,
      ...(typeof opts.business === 'object' ? opts.business : {}),
    });
  }
  return { userId, email, name, key, keyId: row.id, shifterId, businessId };
}

export async function addTeammate(businessId: string, userId: string, status = 1) {
  const now = Date.now();
  await db()
    .insert(teammates)
    .values({ id: newId('teammate'), business_id: businessId, user_id: userId, status, created_at: now, updated_at: now });
}

export async function connect(businessId: string, shifterId: string, status: 'accepted' | 'pending' = 'accepted') {
  const now = Date.now();
  await db()
    .insert(requestAuthorizations)
    .values({
      id: newId('connection'),
      business_id: businessId,
      shifter_id: shifterId,
      initiated_by: 'business',
      status,
      created_at: now,
      updated_at: now,
    });
}
