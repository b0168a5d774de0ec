// inside: services/mail
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { DrizzleQueryError, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBatch } from '../../src/db/client';
import { emailOutbox } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import worker from '../../src';
import { errorFields } from '../../src/lib/log';
import { QUEUES } from '../../src/queues/consumer';
import { type NotificationsMessage, systemContext } from '../../src/services/kernel';
import { draftEmail, MAX_EMAIL_ATTEMPTS, REDACTED_FAILED, REDACTED_SENT } from '../../src/services/mail';
import { EMAIL_MAX_AGE_MS } from '../../src/services/mail/sweep';
import { db } from '../helpers/factory';
import {
  captureConsole,
  deliver,
  FREQUENT_CRON,
  interceptFetch,
  logRecords,
  message,
  outboxRow,
  readOutbox,
  runCron,
} from '../helpers/queues';

/** Production settings: no local mailbox; every log level printed, so nothing hides below the floor. */
const production: AppBindings = { ...env, LOCAL_MAILBOX: 'false', LOG_LEVEL: 'debug' };

afterEach(() => {
  vi.restoreAllMocks();
});

function sixDigits(): string {
  return String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000).padStart(6, '0');
}

/** Drafts and commits a sensitive email the way the accounts service does, and returns its message. */
async function draftCodeEmail(bindings: AppBindings, code: string) {
  const ctx = systemContext(bindings, createExecutionContext(), 'test');
  const mail = draftEmail(ctx, {
    to: `code-${crypto.randomUUID()}@example.test`,
    template: 'email_verification',
    subject: `Your Shiftmarket code: ${code}`,
    text: `Your Shiftmarket verification code is ${code}. It expires in 15 minutes.`,
    sensitive: true,
  });
  await runBatch(ctx.db, [mail.insert]);
  return { id: mail.id, msg: message<NotificationsMessage>({ type: 'email.send', outbox_id: mail.id }) };
}

describe('sensitive emails in production (LOCAL_MAILBOX off)', () => {
  it('without a mail provider, the code is in no log line and not in storage once sent', async () => {
    const code = sixDigits();
    const { id, msg } = await draftCodeEmail(production, code);
    // Until it is sent, the row must carry the code (it is what gets sent).
    expect((await readOutbox(id)).text_body).toContain(code);

    const lines = captureConsole();
    const res = await deliver(QUEUES.notifications, [msg], production);
    expect(res.explicitAcks).toEqual([msg.id]);

    const row = await readOutbox(id);
    expect(row).toMatchObject({ status: 'sent', provider: 'outbox', sensitive: true, subject: REDACTED_SENT, text_body: REDACTED_SENT });
    expect(JSON.stringify(row)).not.toContain(code);
    // The stand-in says the email went nowhere, without its content.
    const notice = logRecords(lines).find((l) => l.outbox_id === id);
    expect(notice).toMatchObject({
      level: 'warn',
      msg: 'email not delivered: no mail provider is configured',
      template: 'email_verification',
    });
    expect(lines.join('\n')).not.toContain(code);
  });

  it('with a provider, the code reaches the provider only: not the log, not storage', async () => {
    const http = interceptFetch(() => Response.json({ id: 'resend-id' }));
    const bindings = { ...production, MAIL_PROVIDER_API_KEY: 'test' };
    const code = sixDigits();
    const { id, msg } = await draftCodeEmail(bindings, code);

    const lines = captureConsole();
    await deliver(QUEUES.notifications, [msg], bindings);
    expect(http.seen).toHaveLength(1);
    expect(JSON.stringify(await http.seen[0]!.json())).toContain(code);
    const row = await readOutbox(id);
    expect(row).toMatchObject({ status: 'sent', provider: 'resend', subject: REDACTED_SENT, text_body: REDACTED_SENT });
    expect(JSON.stringify(row)).not.toContain(code);
    expect(lines.join('\n')).not.toContain(code);
  });

  it('an email that fails for good keeps no readable copy and logs no code', async () => {
    const http = interceptFetch(() => new Response(`rejected: ${'x'.repeat(10)}`, { status: 422 }));
    const bindings = { ...production, MAIL_PROVIDER_API_KEY: 'test' };
    const code = sixDigits();
    const { id, msg } = await draftCodeEmail(bindings, code);

    const lines = captureConsole();
    for (let attempt = 1; attempt <= MAX_EMAIL_ATTEMPTS; attempt++)
      await deliver(QUEUES.notifications, [{ ...msg, attempts: attempt }], bindings);
    expect(http.seen).toHaveLength(MAX_EMAIL_ATTEMPTS);
    const row = await readOutbox(id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_EMAIL_ATTEMPTS, subject: REDACTED_FAILED, text_body: REDACTED_FAILED });
    expect(JSON.stringify(row)).not.toContain(code);
    expect(lines.join('\n')).not.toContain(code);
  });

  it('an email the sweep gives up on after a day is redacted too; a non-sensitive one stays readable', async () => {
    const code = sixDigits();
    const created = Date.now() - EMAIL_MAX_AGE_MS - 60_000;
    const secret = await outboxRow({ created_at: created, sensitive: true, subject: `Code ${code}`, text_body: `Your code is ${code}` });
    const plain = await outboxRow({ created_at: created, subject: 'Welcome', text_body: 'Welcome aboard.' });
    vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);

    await runCron(FREQUENT_CRON, production);
    expect(await readOutbox(secret.id)).toMatchObject({ status: 'failed', subject: REDACTED_FAILED, text_body: REDACTED_FAILED });
    expect(await readOutbox(plain.id)).toMatchObject({ status: 'failed', subject: 'Welcome', text_body: 'Welcome aboard.' });
  });

  it('registration mails its code without writing it to any log line', async () => {
    const send = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'send').mockResolvedValue(undefined as never);
    const lines = captureConsole();
    const email = `reg-${crypto.randomUUID()}@example.test`;
    const res = await worker.fetch(
      new Request('http://example.com/v1/auth/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: 'a long enough password', display_name: 'Rae', shifter: {} }),
      }),
      production,
      createExecutionContext(),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const [queued] = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email));
    const code = /\b(\d{6})\b/.exec(queued!.text_body)![1]!;

    const messages = send.mock.calls.map(([body]) => message(body as NotificationsMessage));
    expect(messages.length).toBeGreaterThan(0);
    await deliver(QUEUES.notifications, messages, production);
    expect((await readOutbox(queued!.id)).status).toBe('sent');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(code);
  });
});

describe('sensitive emails in local development (LOCAL_MAILBOX on)', () => {
  it('the row stays readable as the mailbox and the log prints the email', async () => {
    const local: AppBindings = { ...env, LOCAL_MAILBOX: 'true', LOG_LEVEL: 'debug' };
    const code = sixDigits();
    const { id, msg } = await draftCodeEmail(local, code);
    const lines = captureConsole();
    await deliver(QUEUES.notifications, [msg], local);
    const row = await readOutbox(id);
    expect(row.status).toBe('sent');
    expect(row.text_body).toContain(code);
    const printed = logRecords(lines).find((l) => l.outbox_id === id);
    expect(printed).toMatchObject({ level: 'info', msg: 'email (local mailbox)' });
    expect(String(printed!.text)).toContain(code);
  });
});

describe('query errors in logs', () => {
  it('a failed query logs its SQL and cause, never its bound parameters', async () => {
    const secret = `reset-code-${crypto.randomUUID()}`;
    const row = await outboxRow();
    // A duplicate primary key whose statement binds a secret-looking value.
    const err = await db()
      .insert(emailOutbox)
      .values({ ...row, subject: secret })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(DrizzleQueryError);
    // The attack surface is real: the raw error carries the parameter.
    expect(String((err as Error).message)).toContain(secret);
    expect(String((err as Error).stack)).toContain(secret);

    const lines = captureConsole();
    const log = systemContext(production, createExecutionContext(), 'test').log;
    log.error('write failed', errorFields(err));
    log.error('write failed', { error: err });
    log.warn('write failed', { error: String(err) });
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toContain(secret);
    const fields = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(fields.error).toMatch(/^Failed query: insert into "email_outbox"/);
    expect(JSON.stringify(fields.error_causes)).toContain('UNIQUE constraint failed');
    expect(fields.stack).toMatch(/\n\s+at /);
  });

  it('a D1 type error does not log the value it quotes', async () => {
    const secret = 987654321987654321n;
    let err: unknown = null;
    try {
      await env.DB.prepare('SELECT ?').bind(secret).all();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toContain(String(secret));
    const lines = captureConsole();
    systemContext(production, createExecutionContext(), 'test').log.error('query failed', errorFields(err));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(String(secret));
    expect(lines[0]).toContain('D1_TYPE_ERROR');
  });

  it('a failing statement inside a queue consumer is logged without its parameters', async () => {
    const secret = `secret-${crypto.randomUUID()}`;
    const lines = captureConsole();
    // The database fails under the consumer with a query error that carries the message's text.
    const failing = vi.spyOn(env.DB, 'prepare').mockImplementation(() => {
      throw new DrizzleQueryError(
        'insert into "notifications" ("id", "body") values (?, ?)',
        ['ntf_1', secret],
        new Error('D1_ERROR: disk I/O error'),
      );
    });
    const m = message<NotificationsMessage>({
      type: 'notify',
      dedupe_key: 'k',
      user_ids: ['usr_1'],
      kind: 'test',
      title: 't',
      body: secret,
    });
    const res = await deliver(QUEUES.notifications, [m], production);
    failing.mockRestore();
    expect(res.retryMessages).toEqual([{ msgId: m.id }]);
    const retryLine = lines.find((l) => l.includes('notifications message failed'));
    expect(retryLine).toBeDefined();
    expect(retryLine).toContain('disk I/O error');
    expect(lines.join('\n')).not.toContain(secret);
  });
});
