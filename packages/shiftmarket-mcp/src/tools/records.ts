import { z } from 'zod';
import { postShiftSpec } from '../../../../src/mcp/tool-specs';
import { ApiError } from '../api';
import { activeAccount, defineLocalTool, type LocalTool, ok, READ_ONLY, WRITES } from './kit';

/** AI passports, shift deliverables and bulk posting, over the REST API with the active account's key. */

interface Passport {
  id: string;
  agent_name: string;
  model: string;
  operator: string;
  status: string;
}
interface Deliverable {
  id: string;
  author_side: string;
  note: string | null;
  links: Array<{ url: string; label: string | null }>;
  created_at: string;
}

/** Rows posted at once by bulk_post_shifts. */
export const BULK_CONCURRENCY = 5;
export const BULK_MAX_ROWS = 200;

/** Runs `work` over `items` with at most `limit` in flight, keeping each result at its item's index. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!, i);
  });
  await Promise.all(lanes);
  return out;
}

export const RECORD_TOOLS: LocalTool[] = [
  defineLocalTool({
    name: 'record_passport',
    title: 'Record an AI passport',
    description:
      'Records, on the active account, which AI agent, model and operator (the person or company answerable for it) act for it, e.g. agent "Claude Desktop", model "claude-sonnet-4", operator "Dana Ortiz". Shown to nobody but the account; show_passport lists them.',
    input: z.object({
      agent_name: z.string().trim().min(1).max(100),
      model: z.string().trim().min(1).max(100),
      operator: z.string().trim().min(1).max(200),
      purpose: z.string().trim().max(500).optional(),
    }),
    annotations: WRITES,
    async run(ctx, args) {
      const a = activeAccount(ctx);
      const p = await ctx.api.call<Passport>('POST', '/v1/ai_passports', { key: a.api_key, body: args });
      return ok({ passport: p }, `Passport ${p.id}: ${p.agent_name} (${p.model}) operated by ${p.operator}.`);
    },
  }),
  defineLocalTool({
    name: 'show_passport',
    title: 'Show AI passports',
    description:
      "The active account's AI passports, newest first: which agents, models and operators act for it (revoked ones too with include_revoked).",
    input: z.object({ include_revoked: z.boolean().default(false) }),
    annotations: READ_ONLY,
    async run(ctx, { include_revoked }) {
      const a = activeAccount(ctx);
      const r = await ctx.api.call<{ data: Passport[] }>('GET', '/v1/ai_passports', {
        key: a.api_key,
        query: { include_revoked: include_revoked ? 1 : 0 },
      });
      const text = r.data.length
        ? r.data.map((p) => `${p.id} ${p.status}: ${p.agent_name} (${p.model}), operator ${p.operator}`).join('\n')
        : 'No AI passport recorded yet; record_passport adds one.';
      return ok({ passports: r.data }, text);
    },
  }),
  defineLocalTool({
    name: 'record_deliverable',
    title: 'Record a shift deliverable',
    description:
      "Records what was delivered for a shift: a note and/or links (http or https, up to 10). The shift's shifter records once the shift is worked (clocked out); the business's owner or active teammates once it has its shifter.",
    input: z.object({
      shift_request_id: z.string().min(1).max(64),
      note: z.string().trim().max(4000).optional(),
      links: z
        .array(z.object({ url: z.string().trim().url().max(2048), label: z.string().trim().max(200).optional() }))
        .max(10)
        .default([]),
    }),
    annotations: WRITES,
    async run(ctx, { shift_request_id, ...body }) {
      const a = activeAccount(ctx);
      const d = await ctx.api.call<Deliverable>('POST', `/v1/shift_request/${encodeURIComponent(shift_request_id)}/deliverables`, {
        key: a.api_key,
        body,
      });
      return ok({ deliverable: d }, `Deliverable ${d.id} recorded on ${shift_request_id} (${d.links.length} link(s)).`);
    },
  }),
  defineLocalTool({
    name: 'list_deliverables',
    title: 'List shift deliverables',
    description: "What was delivered for a shift, oldest first, as recorded by its parties. Only the shift's parties may read them.",
    input: z.object({ shift_request_id: z.string().min(1).max(64) }),
    annotations: READ_ONLY,
    async run(ctx, { shift_request_id }) {
      const a = activeAccount(ctx);
      const r = await ctx.api.call<{ data: Deliverable[] }>(
        'GET',
        `/v1/shift_request/${encodeURIComponent(shift_request_id)}/deliverables`,
        { key: a.api_key },
      );
      const text = r.data.length
        ? r.data.map((d) => `${d.created_at} ${d.author_side}: ${d.note ?? ''} ${d.links.map((l) => l.url).join(' ')}`.trim()).join('\n')
        : 'No deliverable recorded for this shift yet.';
      return ok({ shift_request_id, deliverables: r.data }, text);
    },
  }),
  defineLocalTool({
    name: 'bulk_post_shifts',
    title: 'Post many shifts from rows',
    description: `Posts up to ${BULK_MAX_ROWS} shifts from rows (each row: the fields of post_shift), ${BULK_CONCURRENCY} requests at a time. Every row is answered on its own: posted with its shift id, or failed with the server's error code and message. Rows do not depend on each other; a failed row can be fixed and sent again alone.`,
    input: z.object({ rows: z.array(postShiftSpec.input).min(1).max(BULK_MAX_ROWS) }),
    annotations: WRITES,
    async run(ctx, { rows }) {
      const a = activeAccount(ctx);
      const results = await pooled(rows, BULK_CONCURRENCY, async (row, i) => {
        try {
          const s = await ctx.api.call<{ id: string; request_status: number }>('POST', '/v1/shift_request/send_request', {
            key: a.api_key,
            body: row,
          });
          return { row: i + 1, ok: true as const, shift_request_id: s.id, request_status: s.request_status };
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          return { row: i + 1, ok: false as const, error: { code: err.code, message: err.message } };
        }
      });
      const failed = results.filter((r) => !r.ok);
      const lines = results.map((r) =>
        r.ok ? `row ${r.row}: posted ${r.shift_request_id}` : `row ${r.row}: failed: ${r.error.code}: ${r.error.message}`,
      );
      return ok(
        { posted: results.length - failed.length, failed: failed.length, results },
        `${results.length - failed.length} of ${results.length} rows posted.\n${lines.join('\n')}`,
      );
    },
  }),
];
