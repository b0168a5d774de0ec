import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { QUEUES } from '../../src/queues/consumer';
import { deliver, message } from './queues';

// Partner webhooks driven by hand in tests: what the services send to the webhooks queue is captured
// (not run by the local queue in the background), handed to the consumer as the platform would, and
// the deliveries' outbound requests reach only the test's receivers.

export interface Sent {
  body: any;
  delaySeconds: number | undefined;
}

/** Captures what is sent to the webhooks and notifications queues instead of letting the local queue run it. */
export function captureQueues() {
  const webhooks: Sent[] = [];
  const notifications: Sent[] = [];
  const into = (list: Sent[]) =>
    (async (msgs: Iterable<MessageSendRequest>) => {
      for (const m of msgs) list.push({ body: m.body, delaySeconds: m.delaySeconds });
    }) as unknown as Queue['sendBatch'];
  vi.spyOn(env.WEBHOOKS_QUEUE, 'send').mockImplementation((async (body: unknown, opts?: QueueSendOptions) => {
    webhooks.push({ body, delaySeconds: opts?.delaySeconds });
  }) as unknown as Queue['send']);
  vi.spyOn(env.WEBHOOKS_QUEUE, 'sendBatch').mockImplementation(into(webhooks));
  vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockImplementation(into(notifications));
  return {
    webhooks,
    notifications,
    /** Takes (and forgets) what was sent to the webhooks queue so far. */
    take: () => webhooks.splice(0),
  };
}

/** Hands messages to the webhooks consumer as one batch. */
export async function consume(sent: Sent[]) {
  return deliver(
    QUEUES.webhooks,
    sent.map((s) => message(s.body)),
  );
}

/**
 * Runs the webhooks queue until it is empty, as the platform would right away: events fan out into
 * deliveries, deliveries are sent. Messages sent with a delay (retries) are left for the test.
 */
export async function drain(queues: ReturnType<typeof captureQueues>): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const now = queues.take();
    const due = now.filter((m) => !m.delaySeconds);
    queues.webhooks.push(...now.filter((m) => m.delaySeconds));
    if (!due.length) return;
    await consume(due);
  }
  throw new Error('the webhooks queue did not settle');
}

export interface Received {
  url: string;
  headers: Headers;
  body: string;
}

/**
 * The receivers: outbound requests whose URL `accepts` answer through `answer` (by default the hosts
 * starting with "receiver"); anything else fails the call and is listed in `unexpected`.
 */
export function receivers(
  answer: (req: Request, n: number) => Response | Promise<Response> = () => new Response('ok'),
  accepts: (url: URL) => boolean = (url) => url.hostname.startsWith('receiver'),
) {
  const seen: Received[] = [];
  const unexpected: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!accepts(new URL(req.url))) {
      unexpected.push(`${req.method} ${req.url}`);
      throw new Error(`unexpected outbound request to ${req.url}`);
    }
    seen.push({ url: req.url, headers: new Headers(req.headers), body: await req.clone().text() });
    return answer(req, seen.length);
  });
  return { seen, unexpected };
}
