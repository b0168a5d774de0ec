import { insufficientScope, type OAuthResourceAuth } from '@cloudflare/workers-oauth-provider';
import { type AuthInfo, McpServer, type McpRequestContext } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'agents/mcp/server';
import { createDb } from '../db/client';
import { type AppBindings, getSettings } from '../env';
import { createLogger } from '../lib/log';
import { rememberStepUp } from '../services/agents';
import { systemContext } from '../services/kernel';
import { writeAudit } from './audit';
import { resolveCaller, type TokenProps } from './caller';
import { type McpCaller, type McpRequestScope, registerTools, toolName } from './register';
import type { ToolDefinition } from './tool';
import { ALL_TOOLS } from './tools';

/**
 * The agent tool server at {base_url}/v1/mcp/ (spec 4.9): a stateless Streamable HTTP endpoint built
 * with the `agents` package's handler and the MCP SDK v2. A new McpServer is made for every request
 * (`createServer`), carrying only the tools the caller's scopes allow. Both protocol eras are served
 * on the one endpoint: 2026-07-28 (stateless, `server/discover`, no initialize) through the SDK's own
 * handler, and 2025-11-25 clients through the handler's stateless legacy lane (initialize answered,
 * no session kept).
 */

export const MCP_ROUTE = '/v1/mcp/';
export const SERVER_INFO = { name: 'shiftmarket', title: 'Shiftmarket', version: '1.0.0' } as const;

let registry: readonly ToolDefinition[] = ALL_TOOLS;

/** The definitions every request registers (the tools' index; the tests may swap it in-process). */
export function toolRegistry(): readonly ToolDefinition[] {
  return registry;
}

/** Replaces the registry; returns the function that restores the previous one. Tests only. */
export function replaceToolRegistry(tools: readonly ToolDefinition[]): () => void {
  const previous = registry;
  registry = tools;
  return () => {
    registry = previous;
  };
}

/** What the request carried into the factory, through the SDK's `authInfo.extra`. */
const SCOPE_KEY = 'shiftmarket/request';

export function createServer(rs: McpRequestScope): McpServer {
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Shiftmarket: shift work between businesses and shifters. Tools act as the signed-in person within the scopes they granted. ' +
      'Write tools ask for confirmation first unless the person switched that off: show the summary and call again with confirm: true.',
  });
  registerTools(mcp, registry, rs);
  return mcp;
}

const handler = createMcpHandler(
  (ctx: McpRequestContext) => {
    const rs = ctx.authInfo?.extra?.[SCOPE_KEY] as Omit<McpRequestScope, 'era'> | undefined;
    if (!rs) throw new Error('MCP request without a resolved caller');
    return createServer({ ...rs, era: ctx.era });
  },
  { route: MCP_ROUTE },
);

interface JsonRpcLike {
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown };
}

/**
 * A `tools/call` naming one of our tools that needs a scope the token lacks: the tool is not listed,
 * and calling it answers HTTP 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"` (the scopes held plus the one missing), so the client can ask the user for more.
 * A name that is no tool of ours gets the SDK's ordinary "unknown tool" answer.
 */
export function missingScopeFor(body: unknown, caller: McpCaller): { tool: string; scope: string; args: unknown } | null {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    if (m === null || typeof m !== 'object') continue;
    const msg = m as JsonRpcLike;
    if (msg.method !== 'tools/call' || typeof msg.params?.name !== 'string') continue;
    const def = registry.find((t) => toolName(t) === msg.params?.name);
    if (def && !caller.scopes.includes(def.scope)) return { tool: toolName(def), scope: def.scope, args: msg.params?.arguments ?? {} };
  }
  return null;
}

/** The JSON-RPC body, read once (a copy goes on to the handler), never past `limit` bytes even when chunked. */
async function readBody(request: Request, limit: number): Promise<{ ok: true; body: unknown } | { ok: false }> {
  if (request.method !== 'POST' || !request.body) return { ok: true, body: undefined };
  if (Number(request.headers.get('Content-Length') ?? '0') > limit) return { ok: false };
  const reader = request.clone().body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return { ok: false };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return { ok: true, body: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { ok: true, body: undefined };
  }
}

/** OAuthProvider's apiHandler: the request carries a valid token for this resource (or a personal key). */
export const mcpApiHandler = {
  async fetch(
    request: Request,
    env: AppBindings,
    ctx: ExecutionContext & { props?: TokenProps; auth?: OAuthResourceAuth },
  ): Promise<Response> {
    const settings = getSettings(env);
    const requestId = `req_${crypto.randomUUID().replaceAll('-', '')}`;
    const log = createLogger({ request_id: requestId }, settings.LOG_LEVEL);
    const db = createDb(env.DB);
    const auth = ctx.auth;
    const resolved = await resolveCaller(db, ctx.props, auth, env, settings);
    if (!resolved.ok) return resolved.response;
    const caller = resolved.caller;

    const body = await readBody(request, settings.BODY_LIMIT_BYTES);
    if (!body.ok)
      return Response.json({ jsonrpc: '2.0', error: { code: -32600, message: 'Request body too large' }, id: null }, { status: 413 });
    const missing = missingScopeFor(body.body, caller);
    if (missing && auth) {
      await writeAudit(db, log, {
        tokenId: caller.tokenId,
        userId: caller.actor.userId,
        toolName: missing.tool,
        args: missing.args,
        status: 'denied',
        latencyMs: 0,
        at: Date.now(),
      });
      const wanted = [...new Set([...caller.scopes, missing.scope])];
      // A refresh that cannot bring the scope is then refused, so the client authorizes again (oauth-endpoints.ts).
      if (ctx.props?.kind === 'oauth') await rememberStepUp(systemContext(env, ctx, 'mcp-step-up'), auth.token, wanted);
      return insufficientScope(auth, wanted, `${missing.tool} needs the ${missing.scope} scope`);
    }

    const scope: Omit<McpRequestScope, 'era'> = {
      env,
      db,
      settings,
      log,
      requestId,
      waitUntil: (p) => ctx.waitUntil(p),
      caller,
      origin: new URL(request.url).origin,
    };
    const authInfo: AuthInfo = {
      token: auth?.token ?? '',
      clientId: auth?.clientId ?? `personal:${caller.tokenId}`,
      scopes: [...caller.scopes],
      ...(auth?.expiresAt !== undefined ? { expiresAt: auth.expiresAt } : {}),
      extra: { [SCOPE_KEY]: scope },
    };
    const res = await handler.fetch(request, { authInfo, ...(body.body !== undefined ? { parsedBody: body.body } : {}) });
    const headers = new Headers(res.headers);
    headers.set('X-Request-Id', requestId);
    for (const [k, v] of Object.entries(resolved.headers)) headers.set(k, v);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  },
};
