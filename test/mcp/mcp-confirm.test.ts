import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, emailOutbox, invoices, mcpConfirmTokens, users } from '../../src/db/schema';
import type { ToolRunExtras } from '../../src/mcp/tool';
import { ALL_TOOLS } from '../../src/mcp/tools';
import { AppError } from '../../src/lib/errors';
import { sha256Hex } from '../../src/lib/crypto';
import type { Settings } from '../../src/env';
import type { ServiceContext } from '../../src/services/kernel';
import { BASE } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { CARD, saveCard } from '../helpers/charges';
import { contextAt } from '../helpers/clock';
import { addTeammate, db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { consumeNotifications, DAY, insertShift, MINUTE, makePair, outboxFor, readShift } from '../helpers/shifts';
import { connectModern } from '../helpers/mcp';
import { WebClient } from '../helpers/web';

const confirmTool = ALL_TOOLS.find((t) => t.name === 'confirm_payment_for_shift')!;
const APP = 'https://app.example.test';
const REFUSED_TEXT = 'This confirmation link is not valid. It may have expired or been used already.';

function agentCtx(user: TestUser, opts: { at?: number; settings?: Partial<Settings> } = {}): ServiceContext {
  const base = contextAt(opts.at ?? Date.now(), user);
  return {
    ...base,
    settings: { ...base.settings, APP_URL: APP, ...opts.settings },
    actor: { kind: 'agent', userId: user.userId, tokenId: 'tok_1', scopes: ['payment'], isAdmin: false },
  };
}

const noElicitation: ToolRunExtras = {
  tokenId: 'tok_1',
  requestOrigin: 'https://mcp.test',
  clientSupportsUrlElicitation: false,
  elicitUrl: async () => false,
};

async function confirmPayment(user: TestUser, shiftId: string, opts: Parameters<typeof agentCtx>[1] & { extras?: ToolRunExtras } = {}) {
  const out = await confirmTool.run(
    agentCtx(user, opts),
    confirmTool.input.parse({ shift_request_id: shiftId }),
    opts.extras ?? noElicitation,
  );
  return confirmTool.output.parse(out) as {
    confirm_url: string;
    expires_at: string;
    amount: number;
    currency: string;
    offered_to_client: boolean;
  };
}

async function refusedWith(p: Promise<unknown>, code: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
}

/** An owner (with a saved card) and a claimed shift two days ahead: 4 h × $20 = $80. */
async function claimedShift(opts: { rateMinor?: number; card?: boolean } = {}) {
  const { biz, sh } = await makePair();
  if (opts.card !== false) await saveCard(biz, biz.businessId!, CARD.visa);
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId!,
    startsAt: Date.now() + 2 * DAY,
    minutes: 240,
    rateMinor: opts.rateMinor ?? 2000,
    broadcast: true,
  });
  return { biz, sh, shift };
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const pathOf = (url: string) => new URL(url).pathname;

class Browser extends WebClient {
  constructor() {
    super(BASE, { 'CF-Connecting-IP': randomIp(), 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' });
  }
}

async function signedIn(user: TestUser): Promise<Browser> {
  const b = new Browser();
  const landed = await b.signIn(user.email, TEST_PASSWORD, '/account');
  expect(landed.status, landed.html.slice(0, 200)).toBe(303);
  return b;
}

const confirmsOf = (tokenId: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subject_id, tokenId), eq(auditLog.action, 'agent_payment.confirmed')));

afterEach(() => vi.restoreAllMocks());

describe('confirm_payment_for_shift', () => {
  it('issues a one-time token: only its hash stored, 5 minutes, the link offered to a URL-elicitation client; nothing charged', async () => {
    const { biz, shift } = await claimedShift();
    const asked: Array<{ url: string; elicitationId: string }> = [];
    const now = Date.now();
    const r = await confirmPayment(biz, shift.id, {
      at: now,
      extras: {
        tokenId: 'tok_1',
        requestOrigin: 'https://mcp.test',
        clientSupportsUrlElicitation: true,
        elicitUrl: async (x) => {
          asked.push(x);
          return true;
        },
      },
    });
    expect(r).toMatchObject({ amount: 80, currency: 'USD', offered_to_client: true, expires_at: new Date(now + 5 * MINUTE).toISOString() });
    expect(r.confirm_url).toMatch(/^https:\/\/app\.example\.test\/mcp-confirm\/[A-Za-z0-9_-]{43}$/);
    expect(asked).toEqual([expect.objectContaining({ url: r.confirm_url })]);
    const rows = await db().select().from(mcpConfirmTokens).where(eq(mcpConfirmTokens.shift_request_id, shift.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: expect.stringMatching(/^mct_/),
      user_id: biz.userId,
      amount_minor: 8000,
      currency: 'USD',
      expires_at: now + 5 * MINUTE,
      used_at: null,
      requested_by_token_id: 'tok_1',
      token_hash: await sha256Hex(tokenOf(r.confirm_url)),
    });
    expect(JSON.stringify(rows[0])).not.toContain(tokenOf(r.confirm_url));
    expect(await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id))).toHaveLength(0);
  });

  it('is for the business owner of a claimed shift only, within both caps', async () => {
    const { biz, sh, shift } = await claimedShift({ card: false });
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    await refusedWith(confirmPayment(mate, shift.id), 'MCP-TEAMMATE-ERR');
    await refusedWith(confirmPayment(sh, shift.id), 'FORBIDDEN-ERR');
    await refusedWith(confirmPayment(await makeUser({ business: true }), shift.id), 'SHFT-NOT-FND-ERR');
    const open = await insertShift({ businessId: biz.businessId!, startsAt: Date.now() + 2 * DAY, status: 1, broadcast: true });
    await refusedWith(confirmPayment(biz, open.id), 'SHFT-STATE-ERR');
    // 8 h × $300 = $2,400: over the agent cap (AGENT_PAYMENT_MAX_MINOR 200000).
    const big = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId!,
      startsAt: Date.now() + 3 * DAY,
      minutes: 480,
      rateMinor: 30000,
    });
    await refusedWith(confirmPayment(biz, big.id), 'PAYMENT-CAP-ERR');
    // $80 is over a lower per-charge cap too.
    await refusedWith(confirmPayment(biz, shift.id, { settings: { PAYMENT_MAX_CHARGE_MINOR: 7999 } }), 'PAYMENT-CAP-ERR');
    await refusedWith(confirmPayment(biz, shift.id, { settings: { AGENT_PAYMENT_MAX_MINOR: 7999 } }), 'PAYMENT-CAP-ERR');
    expect(await db().select().from(mcpConfirmTokens).where(eq(mcpConfirmTokens.user_id, biz.userId))).toHaveLength(0);
    expect(await confirmPayment(biz, shift.id, { settings: { AGENT_PAYMENT_MAX_MINOR: 8000 } })).toMatchObject({ amount: 80 });
  });

  it('refuses a shift that is paid already (INVOICE-PAID-ERR) instead of issuing a link that could only say "Paid"', async () => {
    const { biz, shift } = await claimedShift();
    const r = await confirmPayment(biz, shift.id);
    const owner = await signedIn(biz);
    await owner.get(pathOf(r.confirm_url));
    expect((await owner.post(pathOf(r.confirm_url))).html).toContain('Paid: $80.00');
    const [inv] = await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id));
    expect(inv!.status).toBe('paid');
    const err = await confirmPayment(biz, shift.id).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(err?.code).toBe('INVOICE-PAID-ERR');
    expect(err?.details).toEqual({ invoice_id: inv!.id });
    expect(await db().select().from(mcpConfirmTokens).where(eq(mcpConfirmTokens.shift_request_id, shift.id))).toHaveLength(1);
  });

  it('builds the link on the origin the agent reached when APP_URL is unset: in the result, the URL elicitation and the email', async () => {
    const { biz, shift } = await claimedShift({ card: false });
    const opened: string[] = [];
    // The endpoint as a client reaches it (https://mcp.test/v1/mcp/), with the wrangler.toml settings: APP_URL and AUTH_URL empty.
    const client = await connectModern(biz.key, {
      openUrl: (url) => {
        opened.push(url);
        return 'accept';
      },
    });
    const res = (await client.callTool({ name: 'shiftmarket.confirm_payment_for_shift', arguments: { shift_request_id: shift.id } })) as {
      structuredContent?: { confirm_url?: string };
    };
    await client.close();
    const url = res.structuredContent?.confirm_url ?? '';
    expect(url).toMatch(/^https:\/\/mcp\.test\/mcp-confirm\/[A-Za-z0-9_-]{43}$/);
    expect(opened).toEqual([url]);
    const [notice] = await outboxFor(shift.id, { topic: 'notifications', kind: 'agent_payment_confirmation' });
    expect(notice!.body.body).toContain(url);
    await consumeNotifications([notice!.body]);
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, biz.email));
    expect(mails.some((m) => m.text_body.includes(url))).toBe(true);
    expect(mails.some((m) => m.text_body.includes('localhost:8787'))).toBe(false);
  });

  it('sends the link by SMS and by email (urgent, to the owner only)', async () => {
    const { biz, shift } = await claimedShift({ card: false });
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    await db().update(users).set({ phone: '+1 212 555 0100' }).where(eq(users.id, biz.userId));
    const texts: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith('https://api.twilio.com/')) throw new Error(`unexpected fetch ${url}`);
      texts.push(new URLSearchParams(String(init?.body)).get('Body') ?? '');
      return new Response('{}', { status: 201 });
    });
    const twilio = { TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', SMS_FROM: '+15550000000' };
    const r = await confirmPayment(biz, shift.id, { settings: twilio });
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(r.confirm_url);

    const [notice] = await outboxFor(shift.id, { topic: 'notifications', kind: 'agent_payment_confirmation' });
    expect(notice!.body.user_ids).toEqual([biz.userId]);
    expect(notice!.body.body).toContain(r.confirm_url);
    await consumeNotifications([notice!.body]);
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, biz.email));
    expect(mails.some((m) => m.text_body.includes(r.confirm_url))).toBe(true);
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, mate.email))).toHaveLength(0);
  });
  it('a failed text message or a failed URL elicitation does not fail the tool: the link still stands', async () => {
    const { biz, shift } = await claimedShift({ card: false });
    await db().update(users).set({ phone: '+1 212 555 0100' }).where(eq(users.id, biz.userId));
    const fetches = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('provider down', { status: 503 }));
    const twilio = { TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', SMS_FROM: '+15550000000' };
    const r = await confirmPayment(biz, shift.id, {
      settings: twilio,
      extras: {
        tokenId: 'tok_1',
        requestOrigin: 'https://mcp.test',
        clientSupportsUrlElicitation: true,
        elicitUrl: async () => {
          throw new Error('client went away');
        },
      },
    });
    expect(fetches).toHaveBeenCalledTimes(1);
    expect(r.offered_to_client).toBe(false);
    const [row] = await db().select().from(mcpConfirmTokens).where(eq(mcpConfirmTokens.shift_request_id, shift.id));
    expect(row!.token_hash).toBe(await sha256Hex(tokenOf(r.confirm_url)));
    expect(await outboxFor(shift.id, { topic: 'notifications', kind: 'agent_payment_confirmation' })).toHaveLength(1);
  });
});

describe('the confirm page', () => {
  it('sends a signed-out browser to sign in and back; shows the owner the shift, the amount and a Confirm button', async () => {
    const { biz, shift } = await claimedShift();
    const r = await confirmPayment(biz, shift.id);
    const anon = new Browser();
    const away = await anon.get(pathOf(r.confirm_url));
    expect(away.status).toBe(303);
    expect(away.location).toBe(`/login?next=${encodeURIComponent(pathOf(r.confirm_url))}`);
    const owner = await signedIn(biz);
    const page = await owner.get(pathOf(r.confirm_url));
    expect(page.status).toBe(200);
    expect(page.html).toContain('$80.00');
    expect(page.html).toContain(shift.shift_date);
    expect(page.html).toContain('name="_csrf"');
    expect(page.html).toContain('Confirm and pay');
  });

  it('refuses another user, an expired token (clock injected at issue) and an unknown one with the same generic 403', async () => {
    const { biz, shift } = await claimedShift();
    const r = await confirmPayment(biz, shift.id);
    const other = await signedIn(await makeUser({ business: true }));
    const theirs = await other.get(pathOf(r.confirm_url));
    expect(theirs.status).toBe(403);
    expect(theirs.html).toContain(REFUSED_TEXT);
    const posted = await other.post(pathOf(r.confirm_url));
    expect(posted.status).toBe(403);
    expect(posted.html).toContain(REFUSED_TEXT);

    const old = await confirmPayment(biz, shift.id, { at: Date.now() - 6 * MINUTE });
    const owner = await signedIn(biz);
    const expired = await owner.get(pathOf(old.confirm_url));
    expect(expired.status).toBe(403);
    expect(expired.html).toContain(REFUSED_TEXT);
    expect((await owner.post(pathOf(old.confirm_url))).status).toBe(403);
    const unknown = await owner.get('/mcp-confirm/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(403);
    const strip = (html: string) => html.replace(/value="[A-Za-z0-9_-]{43}"/g, '');
    expect(strip(unknown.html)).toBe(strip(expired.html));
    // Nothing was used or charged; the owner's live token still works.
    const [row] = await db()
      .select()
      .from(mcpConfirmTokens)
      .where(eq(mcpConfirmTokens.token_hash, await sha256Hex(tokenOf(r.confirm_url))));
    expect(row!.used_at).toBeNull();
    expect((await owner.get(pathOf(r.confirm_url))).status).toBe(200);
  });

  it('charges once on confirm (CSRF-checked); a second use is refused', async () => {
    const { biz, shift } = await claimedShift();
    const r = await confirmPayment(biz, shift.id);
    const owner = await signedIn(biz);
    await owner.get(pathOf(r.confirm_url));
    const forged = await owner.post(pathOf(r.confirm_url), { _csrf: 'x'.repeat(43) });
    expect(forged.status).toBe(403);
    expect(forged.html).not.toContain(REFUSED_TEXT);
    const done = await owner.post(pathOf(r.confirm_url));
    expect(done.status, done.html.slice(0, 500)).toBe(200);
    expect(done.html).toContain('Paid: $80.00');
    const [inv] = await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id));
    expect(inv).toMatchObject({ status: 'paid', amount_minor: 8000 });
    expect((await readShift(shift.id))!.request_status).toBe(2);
    const [row] = await db().select().from(mcpConfirmTokens).where(eq(mcpConfirmTokens.shift_request_id, shift.id));
    expect(row).toMatchObject({ charge_status: 'succeeded', invoice_id: inv!.id });
    expect(row!.used_at).not.toBeNull();
    const again = await owner.post(pathOf(r.confirm_url));
    expect(again.status).toBe(403);
    expect(again.html).toContain(REFUSED_TEXT);
    expect((await owner.get(pathOf(r.confirm_url))).status).toBe(403);
    expect(await confirmsOf(row!.id)).toHaveLength(1);
  });

  it('two concurrent confirms of one token: exactly one charges', async () => {
    const { biz, shift } = await claimedShift();
    const r = await confirmPayment(biz, shift.id);
    const owner = await signedIn(biz);
    await owner.get(pathOf(r.confirm_url));
    const answers = await Promise.all([owner.post(pathOf(r.confirm_url)), owner.post(pathOf(r.confirm_url))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    const [row] = await db().select().from(mcpConfirmTokens).where(eq(mcpConfirmTokens.shift_request_id, shift.id));
    expect(await confirmsOf(row!.id)).toHaveLength(1);
    const charged = await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id));
    expect(charged).toHaveLength(1);
    expect(charged[0]!.charge_attempts).toBe(1);
  });

  it('a refusal of the payments service (no saved card) charges nothing and says so', async () => {
    const { biz, shift } = await claimedShift({ card: false });
    const r = await confirmPayment(biz, shift.id);
    const owner = await signedIn(biz);
    await owner.get(pathOf(r.confirm_url));
    const res = await owner.post(pathOf(r.confirm_url));
    expect(res.status).toBe(200);
    expect(res.html).toContain('Nothing was charged');
    const [row] = await db().select().from(mcpConfirmTokens).where(eq(mcpConfirmTokens.shift_request_id, shift.id));
    expect(row).toMatchObject({ charge_status: 'refused:PAYMENT-CARD-REQ-ERR', invoice_id: null });
  });
});
