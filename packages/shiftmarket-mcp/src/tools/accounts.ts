import { z } from 'zod';
import { connectionSchema } from '@shiftmarket/tool-specs';
import type { Account } from '../sessions';
import {
  activeAccount,
  defineLocalTool,
  fail,
  HOW_TO_ADD,
  keyPrefix,
  LOCAL_ONLY,
  type LocalTool,
  ok,
  READ_ONLY,
  type ToolContext,
  WRITES,
} from './kit';

/** Registration with email verification, adding accounts by key, and choosing among them. */

const email = z.string().trim().toLowerCase().email().max(254).describe('The email address of the account.');
const password = z
  .string()
  .min(10)
  .max(200)
  .describe('At least 10 characters. Needed again by verify_email if this tool server restarts meanwhile.');
const timezone = z.string().min(1).max(64).describe('IANA time zone, e.g. America/New_York.');

interface KeyIssued {
  user_id: string;
  api_key: { key: string; prefix: string };
}
interface UserDetails {
  id?: string;
  user_id?: string;
  email: string;
  display_name: string;
}

/** Reads who a key belongs to and stores it as the active account. */
async function addAccount(ctx: ToolContext, key: string): Promise<Account> {
  const user = await ctx.api.call<UserDetails>('GET', '/v1/user/details', { key });
  const [shifter, businesses] = await Promise.all([
    ctx.api.call<{ id: string } | null>('GET', '/v1/shifter/of_user', { key }).catch(() => null),
    ctx.api.call<{ data?: Array<{ id: string }> } | Array<{ id: string }>>('GET', '/v1/business/of_user', { key }).catch(() => []),
  ]);
  const bizList = Array.isArray(businesses) ? businesses : (businesses?.data ?? []);
  const account: Account = {
    user_id: user.id ?? user.user_id ?? '',
    email: user.email,
    display_name: user.display_name,
    base_url: ctx.api.baseUrl,
    api_key: key,
    shifter_id: shifter?.id ?? null,
    business_ids: bizList.map((b) => b.id),
    added_at: new Date().toISOString(),
  };
  await ctx.store.upsert(account);
  return account;
}

/** An account as the tools show it: never the key, only its public prefix. */
export const accountViewSchema = z.object({
  user_id: z.string().describe('The user id (usr_…).'),
  email: z.string(),
  display_name: z.string(),
  base_url: z.string().describe('The service address the key belongs to.'),
  key_prefix: z.string().describe('The first 12 characters of the personal API key, never more.'),
  shifter_id: z.string().nullable(),
  business_ids: z.array(z.string()),
  active: z.boolean().describe('true for the account every tool acts as.'),
});
const accountOutput = z.object({ account: accountViewSchema });
const connectionOutput = z.object({ connection: connectionSchema });

export function accountView(a: Account, active: Account | null): z.infer<typeof accountViewSchema> {
  return {
    user_id: a.user_id,
    email: a.email,
    display_name: a.display_name,
    base_url: a.base_url,
    key_prefix: keyPrefix(a.api_key),
    shifter_id: a.shifter_id,
    business_ids: a.business_ids,
    active: active?.user_id === a.user_id,
  };
}

const KEY_FROM = ['OS keychain', 'passphrase (scrypt)', 'memory only'] as const;

const keepNote = (ctx: ToolContext) =>
  ctx.store.persistent
    ? ''
    : ' It is kept in memory only for this run: set SHIFTMARKET_MCP_PASSPHRASE (or make an OS keychain available) to keep accounts encrypted on disk.';

function registerTool(kind: 'business' | 'shifter'): LocalTool {
  const base = {
    email,
    password,
    display_name: z.string().trim().min(1).max(100).describe('Your name.'),
    phone: z.string().trim().max(32).optional().describe('Phone number, international form (+…).'),
  };
  const input =
    kind === 'business'
      ? z.object({
          ...base,
          business_name: z.string().trim().min(1).max(120).describe("The business's name as shifters see it."),
          timezone,
          address: z.string().trim().max(300).optional().describe("The business's street address."),
          currency: z.string().length(3).optional().describe('ISO 4217, e.g. USD.'),
        })
      : z.object({
          ...base,
          headline: z.string().trim().max(140).optional().describe('One line about the shifter, shown on their profile.'),
          timezone: timezone.optional(),
          currency: z.string().length(3).optional().describe('ISO 4217, e.g. USD: the currency of their earnings.'),
        });
  return defineLocalTool({
    name: `register_${kind}`,
    title: kind === 'business' ? 'Register a business account' : 'Register a shifter account',
    description:
      kind === 'business'
        ? 'Creates a new Shiftmarket account with a business profile. A 6-digit code is emailed to the address; finish with verify_email (email and code). Registering an address that is not verified yet starts over.'
        : 'Creates a new Shiftmarket account with a shifter (worker) profile. A 6-digit code is emailed to the address; finish with verify_email (email and code). Registering an address that is not verified yet starts over.',
    input,
    output: z.object({
      status: z.literal('verification_sent'),
      email: z.string(),
      user_id: z.string(),
      expires_in_seconds: z.number().int().describe('How long the emailed code stays valid.'),
    }),
    annotations: WRITES,
    async run(ctx, args) {
      const a = args as Record<string, string | undefined>;
      const body: Record<string, unknown> = { email: a.email, password: a.password, display_name: a.display_name, phone: a.phone };
      body[kind] =
        kind === 'business'
          ? { name: a.business_name, timezone: a.timezone, address: a.address, currency: a.currency }
          : { headline: a.headline, timezone: a.timezone, currency: a.currency };
      const r = await ctx.api.call<{ user_id: string; verification: { sent_to: string; expires_in_seconds: number } }>(
        'POST',
        '/v1/auth/register',
        { body },
      );
      ctx.pending.set(String(a.email), { password: String(a.password), kind });
      return ok(
        { status: 'verification_sent', email: a.email, user_id: r.user_id, expires_in_seconds: r.verification.expires_in_seconds },
        `Registered ${a.email}. A 6-digit code was sent to it; call verify_email with the email and the code (valid ${Math.round(r.verification.expires_in_seconds / 60)} minutes).`,
      );
    },
  });
}

export const ACCOUNT_TOOLS: LocalTool[] = [
  registerTool('business'),
  registerTool('shifter'),
  defineLocalTool({
    name: 'verify_email',
    title: 'Verify the email (finish registering)',
    description:
      "Finishes a registration with the 6-digit code from the email. The new account's personal API key is stored (encrypted) and the account becomes the active one. The key itself is never shown.",
    input: z.object({
      email,
      code: z
        .string()
        .trim()
        .regex(/^\d{6}$/, 'the 6-digit code from the email')
        .describe('The 6-digit code from the email.'),
      password: z.string().min(1).max(200).optional().describe('Only if this tool server restarted since register_*.'),
    }),
    output: accountOutput,
    annotations: WRITES,
    async run(ctx, { email: mail, code, password: pw }) {
      const pending = ctx.pending.get(mail);
      const pass = pw ?? pending?.password;
      if (!pass)
        return fail('VERIFY-PASSWORD-REQ', 'Give the password used to register (this tool server does not remember it across restarts).');
      const issued = await ctx.api.call<KeyIssued>('POST', '/v1/auth/verify_email', { body: { email: mail, code, password: pass } });
      ctx.pending.delete(mail);
      const account = await addAccount(ctx, issued.api_key.key);
      return ok(
        { account: accountView(account, account) },
        `Verified ${account.email}; it is now the active account (key ${keyPrefix(account.api_key)}).${keepNote(ctx)}`,
      );
    },
  }),
  defineLocalTool({
    name: 'add_account_by_key',
    title: 'Add an account by personal API key',
    description:
      'Adds an existing Shiftmarket account by its personal API key (smk_…, from Account → API key) and makes it the active account. The key is checked against the service, then stored encrypted; it is never shown again.',
    input: z.object({
      api_key: z
        .string()
        .trim()
        .regex(/^smk_[0-9A-Za-z]{20,200}$/, 'a personal API key: smk_ followed by letters and digits')
        .describe('The personal API key (smk_…) from Account → API key.'),
    }),
    output: accountOutput,
    annotations: LOCAL_ONLY,
    async run(ctx, { api_key }) {
      const account = await addAccount(ctx, api_key);
      return ok(
        { account: accountView(account, account) },
        `Added ${account.email} (${account.display_name}); it is now the active account.${keepNote(ctx)}`,
      );
    },
  }),
  defineLocalTool({
    name: 'list_accounts',
    title: 'List my accounts',
    description: 'The accounts added to this tool server (email, name, profiles, key prefix only), and which one is active.',
    input: z.object({}),
    output: z.object({
      accounts: z.array(accountViewSchema),
      active_user_id: z.string().nullable(),
      persistent: z.boolean().describe('true when the accounts are kept (encrypted) across restarts.'),
    }),
    annotations: READ_ONLY,
    async run(ctx) {
      const active = ctx.store.active();
      const accounts = ctx.store.accounts().map((a) => accountView(a, active));
      const text = accounts.length
        ? accounts.map((a) => `${a.active ? '* ' : '  '}${a.email} (${a.display_name}) ${a.user_id}`).join('\n')
        : HOW_TO_ADD;
      return ok({ accounts, active_user_id: active?.user_id ?? null, persistent: ctx.store.persistent }, text);
    },
  }),
  defineLocalTool({
    name: 'switch_account',
    title: 'Switch the active account',
    description: 'Makes another added account the active one: every tool then acts as it. Name it by user id (usr_…) or email.',
    input: z.object({ account: z.string().trim().min(1).max(254).describe('User id or email of an added account.') }),
    output: accountOutput,
    annotations: LOCAL_ONLY,
    async run(ctx, { account }) {
      const target = ctx.store.accounts().find((a) => a.user_id === account || a.email === account.toLowerCase());
      if (!target) return fail('ACCOUNT-NOT-FND', `No added account is ${account}; list_accounts shows them.`);
      const a = await ctx.store.switchTo(target.user_id);
      return ok({ account: accountView(a!, a) }, `Now acting as ${a!.email} (${a!.display_name}).`);
    },
  }),
  defineLocalTool({
    name: 'remove_account',
    title: 'Remove an account from this tool server',
    description:
      'Forgets an added account here (its stored key is deleted from the session file). The account and its key stay valid at Shiftmarket; regenerate the key in your account settings to revoke it.',
    input: z.object({ account: z.string().trim().min(1).max(254).describe('User id or email of an added account.') }),
    output: z.object({ removed_user_id: z.string(), active_user_id: z.string().nullable() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run(ctx, { account }) {
      const target = ctx.store.accounts().find((a) => a.user_id === account || a.email === account.toLowerCase());
      if (!target) return fail('ACCOUNT-NOT-FND', `No added account is ${account}; list_accounts shows them.`);
      await ctx.store.remove(target.user_id);
      const now = ctx.store.active();
      return ok(
        { removed_user_id: target.user_id, active_user_id: now?.user_id ?? null },
        `Removed ${target.email}.${now ? ` Active account: ${now.email}.` : ' No account is active now.'}`,
      );
    },
  }),
  defineLocalTool({
    name: 'whoami',
    title: 'Which account is active',
    description:
      'The active account of this tool server (email, name, profiles, key prefix), the service address, and where sessions are kept (OS keychain, passphrase or memory only). Does not call the service; use me for the full profile.',
    input: z.object({}),
    output: z.object({
      account: accountViewSchema.nullable(),
      base_url: z.string(),
      session_file: z.string(),
      key_from: z.enum(KEY_FROM),
    }),
    annotations: READ_ONLY,
    async run(ctx) {
      const a = ctx.store.active();
      const storage: (typeof KEY_FROM)[number] =
        ctx.store.source.kind === 'none' ? 'memory only' : ctx.store.source.kind === 'keychain' ? 'OS keychain' : 'passphrase (scrypt)';
      const data = { account: a ? accountView(a, a) : null, base_url: ctx.api.baseUrl, session_file: ctx.store.path, key_from: storage };
      return ok(data, a ? `Acting as ${a.email} (${a.display_name}) on ${ctx.api.baseUrl}.` : HOW_TO_ADD);
    },
  }),
  defineLocalTool({
    name: 'request_connection',
    title: 'Ask to connect a business and a shifter',
    description:
      "Sends a connection request: as a business (business_id of yours, and the shifter_id to invite), or as a shifter (business_id only). Only connected shifters receive and claim the business's shifts. The other side accepts with answer_connection.",
    input: z.object({
      business_id: z.string().min(1).max(64).describe('The business (biz_…): yours when you send as the business.'),
      shifter_id: z.string().min(1).max(64).optional().describe('The shifter to invite (shf_…), when you send as the business.'),
    }),
    output: connectionOutput,
    annotations: WRITES,
    async run(ctx, args) {
      const a = activeAccount(ctx);
      const r = await ctx.api.call<z.infer<typeof connectionSchema>>('POST', '/v1/request_authorization/send', {
        key: a.api_key,
        body: args,
      });
      return ok({ connection: r }, `Connection request ${r.id} sent.`);
    },
  }),
  defineLocalTool({
    name: 'answer_connection',
    title: 'Accept or decline a connection request',
    description: 'Accepts or declines a connection request sent to you (its id, con_…).',
    input: z.object({
      connection_id: z.string().min(1).max(64).describe('The connection request (con_…).'),
      accept: z.boolean().describe('true accepts, false declines.'),
    }),
    output: connectionOutput,
    annotations: WRITES,
    async run(ctx, { connection_id, accept }) {
      const a = activeAccount(ctx);
      const r = await ctx.api.call<z.infer<typeof connectionSchema>>(
        'POST',
        `/v1/request_authorization/${encodeURIComponent(connection_id)}/${accept ? 'accept' : 'decline'}`,
        { key: a.api_key },
      );
      return ok({ connection: r }, `Connection ${connection_id} ${accept ? 'accepted' : 'declined'}.`);
    },
  }),
];
