import type { z } from 'zod';
import type { ServiceContext } from '../services/kernel';
import type { ActionSummary } from './confirmation';
import type { ToolSpec } from '@shiftmarket/tool-specs';

/** What the wrapper offers a running tool beyond the service context. */
export interface ToolRunExtras {
  /** The access token's id (or the personal key's credential id). */
  tokenId: string;
  /** The origin the request reached (links the tool sends follow it unless APP_URL names the site). */
  requestOrigin: string;
  /** True when the client declared URL-mode elicitation. */
  clientSupportsUrlElicitation: boolean;
  /** Ask the client to open a URL (URL-mode elicitation); resolves false when declined or unsupported. */
  elicitUrl(input: { url: string; message: string; elicitationId: string }): Promise<boolean>;
}

/**
 * One tool of the agent tool server (`/v1/mcp/`, spec 4.9), defined once: the remote server registers
 * every definition through one wrapper (auth, scope, confirmation, audit, timing, error mapping) and
 * the local stdio server reuses the names, descriptions and schemas. A tool's `run` calls the same
 * services as the REST handlers with `ctx.actor` the agent (or the personal key's user).
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> extends ToolSpec<I, O> {
  /**
   * Write tools: a one-line description of what the call will do, shown to the user before it runs
   * (form elicitation, or the first call's answer asking for `confirm: true`), with a preview of the
   * data behind it when there is one (a payment's amount). May read but never write.
   */
  describeAction?(ctx: ServiceContext, args: z.infer<I>): Promise<ActionSummary>;
  run(ctx: ServiceContext, args: z.infer<I>, extras: ToolRunExtras): Promise<z.infer<O>>;
  /** The short text that goes beside `structuredContent`. */
  summarize(result: z.infer<O>): string;
}

export const TOOL_PREFIX = 'shiftmarket.';

/** Keeps a definition's input and output types tied together at the call site. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
