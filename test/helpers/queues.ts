import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  type MessageBatchMessage,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { emailOutbox } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import worker from '../../src';
import { newId } from '../../src/lib/ids';
import { EMAIL_GRACE_MS } from '../../src/services/mail';
import { db } from './factory';

export const RESEND_URL = 'https://api.resend.com/emails';
export const FREQUENT_CRON = '*/5 * * * *';

let seq = 0;
/** One queue message as the platform would hand it to the consumer. */
export function message<B>(body: B, attempts = 1): MessageBatchMessage<B> {
  return { id: `msg-${++seq}-${crypto.randomUUID()}`, timestamp: new Date(), attempts, body };
}

/**
 * Runs the Worker's queue handler on one batch, as the platform would, and returns its ack/retry
 * state. getQueueResult does not report retry options, so each message's retry() is watched for
 * the delay it asks for.
 */
export async function deliver<B>(queue: string, messages: MessageBatchMessage<B>[], bindings: AppBindings = env) {
  const batch = createMessageBatch<B>(queue, messages);
  const retryDelays: Record<string, number | undefined> = {};
  for (const m of batch.messages) {
    const original = m.retry.bind(m);
    m.retry = (options?: QueueRetryOptions) => {
      retryDelays[m.id] = options?.delaySeconds;
      original(options);
    };
  }
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch, bindings, ctx);
  return { ...(await getQueueResult(batch, ctx)), retryDelays };
}

/** Fires the Worker's scheduled handler for one cron expression and waits for its work. */
export async function runCron(cron: string, bindings: AppBindings = env) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron, scheduledTime: Date.now() }), bindings, ctx);
  await waitOnExecutionContext(ctx);
}

/**
 * Outbound HTTP is strict: only the mail provider's endpoint may be called, and `answer` decides its
 * reply. Any other URL fails the call and is listed in `unexpected`.
 */
export function interceptFetch(answer: (req: Request) => Response | Promise<Response>) {
  const seen: Request[] = [];
  const unexpected: string[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (req.url !== RESEND_URL) {
      unexpected.push(`${req.method} ${req.url}`);
      throw new Error(`unexpected outbound request to ${req.url}`);
    }
    seen.push(req.clone());
    return answer(req);
  });
  return { spy, seen, unexpected };
}

/** Writes an email_outbox row as draftEmail would (queued, due after the grace period). */
export async function outboxRow(overrides: Partial<typeof emailOutbox.$inferInsert> = {}) {
  const createdAt = overrides.created_at ?? Date.now();
  const row = {
    id: newId('email'),
    to_address: `to-${crypto.randomUUID()}@example.test`,
    subject: 'Hello',
    text_body: 'Hello there.',
    template: 'test',
    provider: 'outbox',
    status: 'queued' as const,
    created_at: createdAt,
    next_attempt_at: createdAt + EMAIL_GRACE_MS,
    ...overrides,
  };
  await db().insert(emailOutbox).values(row);
  return row;
}

export const readOutbox = async (id: string) => (await db().select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;

/** Watches every console method and returns what was written, one string per call. */
export function captureConsole() {
  const lines: string[] = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
  }
  return lines;
}

/** The JSON log records among captured console lines (anything else written is skipped). */
export function logRecords(lines: string[]): Record<string, unknown>[] {
  return lines.flatMap((l) => {
    try {
      const v: unknown = JSON.parse(l);
      return v && typeof v === 'object' ? [v as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}
