import {
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Db } from '../db/client';
import type { AppBindings, Settings } from '../env';
import { AppError } from '../lib/errors';
import { randomBase62 } from '../lib/ids';
import { errorFields, type Logger } from '../lib/log';
import type { PersonActor, ServiceContext } from '../services/kernel';
import { writeAudit } from './audit';
import { confirmWritesFor } from '../services/agents';
import { CONFIRM_FIELD, confirmField, decideConfirmation, toolError } from './confirmation';
import { TOOL_PREFIX, type ToolDefinition } from './tool';
import { forToolClients, listedInputOnly, type ToolScope } from '@shiftmarket/tool-specs';

/**
 * The one wrapper every tool goes through (spec 4.9, CONVENTIONS "one wrapper"): scope (a tool outside
 * the token's scopes is not registered, so neither listed nor callable), write confirmation, the
 * service context with the caller as actor, timing, error mapping (a service's AppError becomes a tool
 * error carrying its code) and the audit row. A tool definition cannot bypass any of it.
 */

/** Who is calling, resolved once per request from the token (mcp/oauth.ts). */
export interface McpCaller {
  /** `agent` for an OAuth access token; the user (via api_key) for a personal key. */
  actor: PersonActor;
  /** The access token's id (`userId:grantId`) or the personal key's id. */
  tokenId: string;
  scopes: readonly ToolScope[];
}

/** What one request to the endpoint carries for the tools. */
export interface McpRequestScope {
  env: AppBindings;
  db: Db;
  settings: Settings;
  log: Logger;
  requestId: string;
  waitUntil(p: Promise<unknown>): void;
  /** `modern` for 2026-07-28 requests, `legacy` for 2025-era ones. */
  era: 'legacy' | 'modern';
  caller: McpCaller;
  /** The origin the request reached. */
  origin: string;
}

export function toolName(def: Pick<ToolDefinition, 'name'>): string {
  return `${TOOL_PREFIX}${def.name}`;
}

/** The tools the scopes allow, in registration order. */
export function toolsWithin(tools: readonly ToolDefinition[], scopes: readonly string[]): ToolDefinition[] {
  return tools.filter((t) => scopes.includes(t.scope));
}

function serviceContext(rs: McpRequestScope): ServiceContext {
  return {
    env: rs.env,
    db: rs.db,
    settings: rs.settings,
    actor: rs.caller.actor,
    requestId: rs.requestId,
    log: rs.log,
    now: () => Date.now(),
    waitUntil: (p) => rs.waitUntil(p),
  };
}

function errorResult(err: unknown, log: Logger, tool: string): { result: CallToolResult; status: string } {
  if (err instanceof AppError) {
    const details =
      err.details !== undefined && err.details !== null && typeof err.details === 'object'
        ? (err.details as Record<string, unknown>)
        : undefined;
    return { result: toolError(err.code, err.message, details), status: err.code };
  }
  if (err instanceof z.ZodError) {
    const message = err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
    const issues = err.issues.slice(0, 20).map((i) => ({ field: i.path.join('.') || 'input', message: i.message }));
    return { result: toolError('VALIDATION-ERR', message.slice(0, 500), { issues }), status: 'VALIDATION-ERR' };
  }
  log.error('mcp tool failed', { tool, ...errorFields(err) });
  return { result: toolError('INTERNAL-ERR', 'Unexpected error. The request id identifies it in the logs.'), status: 'INTERNAL-ERR' };
}

function canElicitForm(mcp: McpServer, era: McpRequestScope['era']): boolean {
  if (era !== 'modern') return false;
  const elicitation = mcp.server.getClientCapabilities()?.elicitation as { form?: unknown; url?: unknown } | undefined;
  // A bare `elicitation: {}` means form mode (the only mode before URL mode existed).
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

function canElicitUrl(mcp: McpServer, era: McpRequestScope['era']): boolean {
  if (era !== 'modern') return false;
  const elicitation = mcp.server.getClientCapabilities()?.elicitation as { url?: unknown } | undefined;
  return elicitation?.url !== undefined;
}

/**
 * URL-mode elicitation (the payment link): on 2026-07-28 it travels as an input-required result, and
 * the call that asked is answered when the client retries. So the tool runs once; its output waits
 * (10 minutes, single use, for the same person and tool) under a random id that goes out as the
 * opaque `requestState`, and the retry answers it. A 2025-era request cannot be asked (the stateless
 * lane sends no server-to-client request): the tool is told the client does not support it.
 */
const PENDING_PREFIX = 'mcp-input:';
const PENDING_TTL_SECONDS = 600;

interface PendingOutput {
  userId: string;
  tool: string;
  output: unknown;
}

async function takePendingOutput(rs: McpRequestScope, state: unknown, tool: string): Promise<PendingOutput | null> {
  if (typeof state !== 'string' || !/^mrq_[A-Za-z0-9]{32}$/.test(state)) return null;
  const key = `${PENDING_PREFIX}${state}`;
  const saved = await rs.env.OAUTH_KV.get<PendingOutput>(key, 'json');
  if (!saved || saved.userId !== rs.caller.actor.userId || saved.tool !== tool) return null;
  await rs.env.OAUTH_KV.delete(key);
  return saved;
}

/** Write tools, and tools whose spec asks on every call, confirm before they run. */
export const asksFirst = (def: Pick<ToolDefinition, 'scope' | 'confirmation'>) => def.scope === 'write' || def.confirmation === 'always';

/** A definition's input as the wrapper checks it: tools that confirm gain `confirm` (built once per definition). */
const inputs = new WeakMap<ToolDefinition, z.ZodObject>();
function inputOf(def: ToolDefinition): z.ZodObject {
  let schema = inputs.get(def);
  if (!schema) {
    schema = asksFirst(def) ? def.input.extend({ [CONFIRM_FIELD]: confirmField }) : def.input;
    inputs.set(def, schema);
  }
  return schema;
}

/**
 * Registers one definition on the request's server through the wrapper. The SDK lists the input
 * schema but passes the arguments through as sent: the wrapper checks them itself, so a refusal is a
 * tool error `VALIDATION-ERR` with its audit row, like every other refusal.
 */
export function registerTool(mcp: McpServer, def: ToolDefinition, rs: McpRequestScope): void {
  const name = toolName(def);
  const confirms = asksFirst(def);
  const inputSchema = inputOf(def);
  mcp.registerTool(
    name,
    {
      title: def.title,
      description: def.description,
      inputSchema: listedInputOnly(inputSchema),
      outputSchema: forToolClients(def.output),
      annotations: { title: def.title, ...def.annotations },
      _meta: { 'shiftmarket/scope': def.scope },
    },
    async (rawArgs: Record<string, unknown>, sctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
      const started = Date.now();
      const ctx = serviceContext(rs);
      let status = 'ok';
      try {
        const parsed = inputSchema.parse(rawArgs) as Record<string, unknown>;
        const { [CONFIRM_FIELD]: confirm, ...rest } = parsed;
        const args = confirms ? rest : parsed;
        if (confirms) {
          const outcome = await decideConfirmation({
            confirm: confirm === true ? true : undefined,
            required: def.confirmation === 'always' || (await confirmWritesFor(rs.db, rs.caller.actor.userId)),
            canElicitForm: canElicitForm(mcp, rs.era),
            inputResponses: sctx.mcpReq.inputResponses,
            summary: async () => (def.describeAction ? def.describeAction(ctx, args) : `Run ${name}.`),
          });
          if (outcome.kind === 'declined') {
            status = 'denied';
            return errorResult(outcome.error, rs.log, name).result;
          }
          if (outcome.kind === 'ask') {
            // The summary asking for confirm: true is a tool error; a form to fill is not an outcome yet.
            status = 'isError' in outcome.result && outcome.result.isError ? 'MCP-CONFIRM-REQ-ERR' : 'confirmation_asked';
            return outcome.result;
          }
        }
        const answered = await takePendingOutput(rs, sctx.mcpReq.requestState(), name);
        if (answered) {
          const output = answered.output as Parameters<typeof def.summarize>[0];
          return { content: [{ type: 'text', text: def.summarize(output) }], structuredContent: output as Record<string, unknown> };
        }
        const urlMode = canElicitUrl(mcp, rs.era);
        let urlRequest: { url: string; message: string } | null = null;
        const output = await def.run(ctx, args, {
          tokenId: rs.caller.tokenId,
          requestOrigin: rs.origin,
          clientSupportsUrlElicitation: urlMode,
          elicitUrl: async ({ url, message }) => {
            if (!urlMode) return false;
            urlRequest = { url, message };
            return true;
          },
        });
        const asked = urlRequest as { url: string; message: string } | null;
        if (asked) {
          const id = `mrq_${randomBase62(32)}`;
          const pending: PendingOutput = { userId: rs.caller.actor.userId, tool: name, output };
          await rs.env.OAUTH_KV.put(`${PENDING_PREFIX}${id}`, JSON.stringify(pending), { expirationTtl: PENDING_TTL_SECONDS });
          return inputRequired({
            inputRequests: { open_url: inputRequired.elicitUrl({ url: asked.url, message: asked.message }) },
            requestState: id,
          });
        }
        return { content: [{ type: 'text', text: def.summarize(output) }], structuredContent: output as Record<string, unknown> };
      } catch (err) {
        const mapped = errorResult(err, rs.log, name);
        status = mapped.status;
        return mapped.result;
      } finally {
        const latencyMs = Date.now() - started;
        rs.log.info('mcp tool call', { tool: name, status, duration_ms: latencyMs, era: rs.era });
        await writeAudit(rs.db, rs.log, {
          tokenId: rs.caller.tokenId,
          userId: rs.caller.actor.userId,
          toolName: name,
          args: rawArgs,
          status,
          latencyMs,
          at: started,
        });
      }
    },
  );
}

/** Registers every definition the caller's scopes allow. */
export function registerTools(mcp: McpServer, tools: readonly ToolDefinition[], rs: McpRequestScope): void {
  for (const def of toolsWithin(tools, rs.caller.scopes)) registerTool(mcp, def, rs);
}
