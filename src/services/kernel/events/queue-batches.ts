/**
 * Cloudflare Queues refuse a `sendBatch` of more than 100 messages or 256 KB in all, and any message
 * over 128 KB. Batches are cut by both count and size here, with a margin for the per-message
 * metadata the platform adds, so a send is never refused for its shape.
 */
export const QUEUE_LIMITS = {
  messagesPerBatch: 100,
  /** 256 KB is 262,144 bytes; the sum of estimated message sizes stays under 256,000. */
  batchBytes: 256_000,
  /** 128 KB is 131,072 bytes; a body over 128,000 bytes (with overhead) is not sent at all. */
  messageBytes: 128_000,
  /** Estimated per-message metadata (id, timestamps, content type). */
  overheadBytes: 100,
} as const;

const encoder = new TextEncoder();

/** The estimated size of a message on the queue: its JSON body in UTF-8 plus metadata. */
export function messageBytes(body: unknown): number {
  return encoder.encode(JSON.stringify(body) ?? '').byteLength + QUEUE_LIMITS.overheadBytes;
}

export interface Outgoing<B> {
  /** The caller's id for the message (an outbox row id). */
  key: string;
  body: B;
}

export interface BatchPlan<B> {
  batches: Outgoing<B>[][];
  /** Messages the queue would refuse whatever the batch: they must not be retried. */
  tooLarge: { key: string; bytes: number }[];
}

/** Cuts messages into sendBatch calls within the count and size limits, keeping their order. */
export function planBatches<B>(items: readonly Outgoing<B>[]): BatchPlan<B> {
  const batches: Outgoing<B>[][] = [];
  const tooLarge: { key: string; bytes: number }[] = [];
  let current: Outgoing<B>[] = [];
  let currentBytes = 0;
  for (const item of items) {
    const bytes = messageBytes(item.body);
    if (bytes > QUEUE_LIMITS.messageBytes) {
      tooLarge.push({ key: item.key, bytes });
      continue;
    }
    if (current.length && (current.length >= QUEUE_LIMITS.messagesPerBatch || currentBytes + bytes > QUEUE_LIMITS.batchBytes)) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(item);
    currentBytes += bytes;
  }
  if (current.length) batches.push(current);
  return { batches, tooLarge };
}
