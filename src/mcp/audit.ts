import type { Db } from '../db/client';
import { errorFields, type Logger } from '../lib/log';
import { recordToolCall } from '../services/agents';

/**
 * The audit log of the agent tool server (spec 4.9 rule 8): one row per tool call with the access
 * token id, user id, tool name, the arguments with secrets redacted by key name, the result status and
 * the latency. Writing it never fails the call it describes: a failed write is logged and dropped.
 */

/**
 * A key naming a secret: its value is replaced, however deep it sits (case-insensitive). Any key
 * containing one of these words: password, token, secret, key, card, session, refresh and the rest;
 * or one with `ssn`, `pan`, `pin` or `code` as a word of its own (snake, kebab or camel case).
 */
const SECRET_PART = /pass(word|phrase)?|token|secret|key|card|cvc|cvv|otp|authorization|cookie|iban|account_?number|session|refresh/i;
const SECRET_WORD = new Set(['ssn', 'pan', 'pin', 'code']);

export const REDACTED = '[redacted]';
const MAX_DEPTH = 8;
const MAX_ARGUMENTS_CHARS = 8_000;

export function isSecretKey(key: string): boolean {
  if (SECRET_PART.test(key)) return true;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORD.has(w));
}

/** A copy of `value` with every value under a secret-looking key replaced by "[redacted]". */
export function redactArguments(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return '[truncated]';
  if (Array.isArray(value)) return value.map((v) => redactArguments(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) ? REDACTED : redactArguments(v, depth + 1);
    return out;
  }
  return value;
}

export interface AuditEntry {
  tokenId: string;
  userId: string;
  toolName: string;
  args: unknown;
  /** `ok`, `denied`, or the error code the call answered with. */
  status: string;
  latencyMs: number;
  at: number;
}

/** The arguments as stored: JSON with secrets redacted, cut to a bounded prefix when too long. */
export function auditArguments(args: unknown): string {
  const json = JSON.stringify(redactArguments(args ?? {}));
  return json.length > MAX_ARGUMENTS_CHARS ? JSON.stringify({ truncated: true, prefix: json.slice(0, MAX_ARGUMENTS_CHARS) }) : json;
}

/** Writes one audit row (services/agents); any failure is logged, never thrown. */
export async function writeAudit(db: Db, log: Logger, e: AuditEntry): Promise<void> {
  try {
    const { args, ...call } = e;
    await recordToolCall(db, { ...call, arguments: auditArguments(args) });
  } catch (err) {
    log.error('mcp audit write failed', { tool: e.toolName, status: e.status, ...errorFields(err) });
  }
}
