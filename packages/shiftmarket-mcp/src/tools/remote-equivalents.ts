import { z } from 'zod';
import {
  cancelShiftSpec,
  claimShiftSpec,
  clockInSpec,
  clockOutSpec,
  postShiftSpec,
  shiftDetailsSpec,
  TOOL_SPECS,
} from '@shiftmarket/tool-specs';
import { activeAccount, defineLocalTool, type LocalTool, ok, type ToolContext } from './kit';

/**
 * The 21 tools of the service's agent tool server (spec 4.9 and the timesheet tools), from the same specs (names, titles,
 * descriptions, input and output schemas, annotations: `@shiftmarket/tool-specs`, src/mcp/tool-specs/).
 * - Six have a REST operation that does the same job one-to-one and answer the same shape; they call
 *   it with the active account's personal key: shift_details, post_shift, claim_shift, clock_in,
 *   clock_out, cancel_shift.
 * - The other fifteen run on the service's tool server (`/v1/mcp/`) with the personal key, and their
 *   answer is passed back as it came (a write tool's request for `confirm: true` is a tool error, so
 *   every success has the spec's output shape on both sides).
 */
type Json = Record<string, unknown>;
const sr = (id: string) => `/v1/shift_request/${encodeURIComponent(id)}`;

const REST: Record<string, (ctx: ToolContext, key: string, a: Json) => Promise<Json>> = {
  [shiftDetailsSpec.name]: async (ctx, key, a) => ({ shift_request: await ctx.api.call('GET', sr(String(a.shift_request_id)), { key }) }),
  [postShiftSpec.name]: async (ctx, key, a) => ({
    shift_request: await ctx.api.call('POST', '/v1/shift_request/send_request', { key, body: a }),
  }),
  [claimShiftSpec.name]: async (ctx, key, a) => ({
    shift_request: await ctx.api.call('POST', `${sr(String(a.shift_request_id))}/claim`, { key }),
  }),
  [clockInSpec.name]: async (ctx, key, { shift_request_id, ...body }) => ({
    shift_request: await ctx.api.call('POST', `${sr(String(shift_request_id))}/clock_in`, { key, body }),
  }),
  [clockOutSpec.name]: async (ctx, key, { shift_request_id, ...body }) => ({
    shift_request: await ctx.api.call('POST', `${sr(String(shift_request_id))}/clock_out`, { key, body }),
  }),
  [cancelShiftSpec.name]: async (ctx, key, { shift_request_id, ...body }) =>
    ctx.api.call<Json>('POST', `${sr(String(shift_request_id))}/cancel`, { key, body }),
};

const confirmField = z
  .boolean()
  .optional()
  .describe('true once the user agreed to this change (the service asks for it on the first call).');

function summary(name: string, data: Json): string {
  const s = (data.shift_request ?? null) as {
    id?: string;
    request_status?: number;
    shift_date?: string;
    shift_in?: string;
    shift_out?: string;
  } | null;
  if (s?.id) return `${name}: shift ${s.id} (${s.shift_date} ${s.shift_in}–${s.shift_out}), status ${s.request_status}.`;
  return `${name}: done.`;
}

export const REMOTE_EQUIVALENTS: LocalTool[] = TOOL_SPECS.map((spec) => {
  const rest = REST[spec.name];
  // Write tools that run on the service's tool server take its confirmation field, and so does a tool
  // that asks on every call (approve_timesheet); confirm_payment_for_shift's confirmation is its
  // one-time link instead.
  const asks = spec.scope === 'write' || ('confirmation' in spec && spec.confirmation === 'always');
  const input = (asks && !rest ? spec.input.extend({ confirm: confirmField }) : spec.input) as z.ZodObject;
  return defineLocalTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input,
    // Either way the answer is the spec's output shape: the REST calls build it, and the service's tool
    // server checks its own answer against the same schema.
    output: spec.output,
    annotations: { ...spec.annotations, openWorldHint: spec.annotations.openWorldHint ?? false },
    async run(ctx, args) {
      const account = activeAccount(ctx);
      const a = args as Json;
      if (rest) {
        const data = await rest(ctx, account.api_key, a);
        return ok(data, summary(spec.name, data));
      }
      return ctx.remote(account.api_key, `shiftmarket.${spec.name}`, a);
    },
  });
});
