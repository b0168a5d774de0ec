import { toolErrorResult } from '@shiftmarket/tool-specs';
import type { z } from 'zod';
import { type Api, ApiError } from '../api';
import type { RemoteResult } from '../remote';
import { type Account, SessionFileError, type SessionStore } from '../sessions';

/** What every local tool is given. */
export interface ToolContext {
  api: Api;
  store: SessionStore;
  /** The service's agent tool server, with a personal key (see remote.ts). */
  remote(key: string, name: string, args: Record<string, unknown>): Promise<RemoteResult>;
  /** Registrations waiting for their emailed code, by email (memory only: the password never goes to disk). */
  pending: Map<string, { password: string; kind: 'business' | 'shifter' }>;
}

export interface ToolAnswer {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What the server hands a running tool beside its arguments. */
export interface ToolExtras {
  /**
   * Reports how far a long call is (MCP `notifications/progress` with the request's progressToken);
   * does nothing when the client asked for no progress.
   */
  progress(done: number, total: number, message?: string): Promise<void>;
}

export const NO_PROGRESS: ToolExtras = { progress: async () => undefined };

export interface LocalTool<I extends z.ZodObject = z.ZodObject> {
  /** Without the `shiftmarket.` prefix. */
  name: string;
  title: string;
  description: string;
  input: I;
  /** The shape of every success (the SDK checks each answer against it; an error has no structuredContent: `fail`). */
  output: z.ZodObject;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint?: boolean };
  run(ctx: ToolContext, args: z.infer<I>, extras: ToolExtras): Promise<ToolAnswer | RemoteResult>;
}

export const defineLocalTool = <I extends z.ZodObject>(t: LocalTool<I>): LocalTool<I> => t;

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const LOCAL_ONLY = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export function ok(data: Record<string, unknown>, text: string): ToolAnswer {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/**
 * A tool error: the sentence and the JSON block `{"error":{"code","message","details"?}}`, never
 * `structuredContent`, as the service's tool server answers its own (`toolErrorResult`).
 */
export function fail(code: string, message: string, details?: unknown): ToolAnswer {
  return toolErrorResult(code, message, details);
}

/** Thrown where a tool needs an account and none is set up: answered with how to add one. */
export class NoAccountError extends Error {}

export const HOW_TO_ADD =
  'No Shiftmarket account is active in this tool server. Add one: register_business or register_shifter (then verify_email with the 6-digit code sent by email), or add_account_by_key with the personal API key from your account settings (Account → API key). list_accounts shows the accounts already added; switch_account picks one.';

export function activeAccount(ctx: ToolContext): Account {
  const a = ctx.store.active();
  if (!a) throw new NoAccountError(HOW_TO_ADD);
  return a;
}

/** Turns what a tool threw into its answer; the server's own error message is shown as it is. */
export function answerError(err: unknown): ToolAnswer {
  if (err instanceof NoAccountError) return fail('NO-ACCOUNT', err.message);
  if (err instanceof SessionFileError) return fail('SESSION-FILE-ERR', err.message);
  if (err instanceof ApiError) return fail(err.code, err.message, err.details);
  return fail('LOCAL-ERR', (err as Error)?.message ?? String(err));
}

/** Never shows more of a key than its public prefix (the first 12 characters, as the service does). */
export const keyPrefix = (key: string) => `${key.slice(0, 12)}…`;
