import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { deliverableFileSchema, deliverableSchema, passportSchema, postShiftSpec } from '@shiftmarket/tool-specs';
import { ApiError } from '../api';
import { activeAccount, defineLocalTool, type LocalTool, ok, READ_ONLY, type ToolContext, WRITES } from './kit';

/** AI passports, shift deliverables (with local files uploaded) and bulk posting, over the REST API with the active account's key. */

type Passport = z.infer<typeof passportSchema>;
type DeliverableFile = z.infer<typeof deliverableFileSchema>;
type Deliverable = z.infer<typeof deliverableSchema>;

/** A service refusal as the tools show it: its code and message. */
const refusalSchema = z.object({ code: z.string(), message: z.string() });

/** Each local file of record_deliverable: attached, or not with the reason. */
const fileResultSchema = z.discriminatedUnion('ok', [
  z.object({ path: z.string(), ok: z.literal(true), file: deliverableFileSchema }),
  z.object({ path: z.string(), ok: z.literal(false), error: refusalSchema }),
]);

/** Each row of bulk_post_shifts, numbered from 1: posted with its shift id, or refused. */
const rowResultSchema = z.discriminatedUnion('ok', [
  z.object({ row: z.number().int(), ok: z.literal(true), shift_request_id: z.string(), request_status: z.number().int() }),
  z.object({ row: z.number().int(), ok: z.literal(false), error: refusalSchema }),
]);

/** Local files record_deliverable attaches: as many as the service keeps per deliverable, each at most its upload cap. */
export const DELIVERABLE_MAX_FILES = 10;
export const DELIVERABLE_FILE_MAX_BYTES = 8 * 1024 * 1024;

type FileResult = z.infer<typeof fileResultSchema>;

/**
 * Reads one local file and uploads it to the deliverable (multipart field "file"; the service tells its
 * type from the bytes). A file that cannot be read, or is over the cap, is not sent; a refused upload
 * keeps the server's code and message.
 */
async function attachFile(ctx: ToolContext, key: string, shiftId: string, deliverableId: string, path: string): Promise<FileResult> {
  const full = resolve(path);
  let bytes: Buffer;
  try {
    const st = await stat(full);
    if (!st.isFile()) return { path, ok: false, error: { code: 'LOCAL-FILE-ERR', message: `${full} is not a file.` } };
    if (st.size > DELIVERABLE_FILE_MAX_BYTES) {
      return {
        path,
        ok: false,
        error: { code: 'LOCAL-FILE-ERR', message: `${full} is larger than 8 MB; the service takes files of at most 8 MB.` },
      };
    }
    bytes = await readFile(full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    return { path, ok: false, error: { code: 'LOCAL-FILE-ERR', message: `${full}: ${why}.` } };
  }
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), basename(full));
  try {
    const file = await ctx.api.call<DeliverableFile>(
      'POST',
      `/v1/shift_request/${encodeURIComponent(shiftId)}/deliverables/${encodeURIComponent(deliverableId)}/files`,
      { key, form },
    );
    return { path, ok: true, file };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { path, ok: false, error: { code: err.code, message: err.message } };
  }
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
      agent_name: z.string().trim().min(1).max(100).describe('The agent acting for the account, e.g. "Claude Desktop".'),
      model: z.string().trim().min(1).max(100).describe('The model behind it, e.g. "claude-sonnet-4".'),
      operator: z.string().trim().min(1).max(200).describe('The person or company answerable for the agent.'),
      purpose: z.string().trim().max(500).optional().describe('What the agent does for the account.'),
    }),
    output: z.object({ passport: passportSchema }),
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
    input: z.object({ include_revoked: z.boolean().default(false).describe('true: list revoked passports too.') }),
    output: z.object({ passports: z.array(passportSchema) }),
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
    description: `Records what was delivered for a shift: a note and/or links (http or https, up to 10), and local files attached to it (paths on this computer, up to ${DELIVERABLE_MAX_FILES}, each at most 8 MB: PDF, images, zip archives or UTF-8 text/CSV; the service tells the type from the content). The shift's shifter records once the shift is worked (clocked out); the business's owner or active teammates once it has its shifter. A note or a link is needed. Each file is answered on its own: attached, or not with the reason (a missing file, or the service's message for a refused upload).`,
    input: z.object({
      shift_request_id: z.string().min(1).max(64).describe('The shift (sr_…).'),
      note: z.string().trim().max(4000).optional().describe('What was delivered, in words.'),
      links: z
        .array(
          z.object({
            url: z.string().trim().url().max(2048).describe('An http or https address.'),
            label: z.string().trim().max(200).optional().describe('What the link is.'),
          }),
        )
        .max(10)
        .default([])
        .describe('Links to what was delivered (up to 10).'),
      files: z
        .array(z.string().trim().min(1).max(4096))
        .max(DELIVERABLE_MAX_FILES)
        .default([])
        .describe('Paths of local files to attach (absolute, or relative to where the tool server runs).'),
    }),
    output: z.object({
      deliverable: deliverableSchema.describe('The recorded deliverable with the files attached by this call.'),
      files: z.array(fileResultSchema).describe('Each path given, in order: attached, or not with the reason.'),
    }),
    annotations: WRITES,
    async run(ctx, { shift_request_id, files, ...body }) {
      const a = activeAccount(ctx);
      const d = await ctx.api.call<Deliverable>('POST', `/v1/shift_request/${encodeURIComponent(shift_request_id)}/deliverables`, {
        key: a.api_key,
        body,
      });
      // One at a time: the service keeps at most 10 files per deliverable and counts them in order.
      const results: FileResult[] = [];
      for (const path of files) results.push(await attachFile(ctx, a.api_key, shift_request_id, d.id, path));
      const attached = results.flatMap((r) => (r.ok ? [r.file] : []));
      const lines = results.map((r) =>
        r.ok
          ? `${r.path}: attached as ${r.file.name} (${r.file.type}, ${r.file.size} bytes)`
          : `${r.path}: not attached: ${r.error.code}: ${r.error.message}`,
      );
      return ok(
        { deliverable: { ...d, files: attached }, files: results },
        [
          `Deliverable ${d.id} recorded on ${shift_request_id} (${d.links.length} link(s), ${attached.length} of ${files.length} file(s) attached).`,
          ...lines,
        ].join('\n'),
      );
    },
  }),
  defineLocalTool({
    name: 'list_deliverables',
    title: 'List shift deliverables',
    description:
      "What was delivered for a shift, oldest first, as recorded by its parties: notes, links and attached files (name, type, size and the download address). Only the shift's parties may read them.",
    input: z.object({ shift_request_id: z.string().min(1).max(64).describe('The shift (sr_…).') }),
    output: z.object({ shift_request_id: z.string(), deliverables: z.array(deliverableSchema) }),
    annotations: READ_ONLY,
    async run(ctx, { shift_request_id }) {
      const a = activeAccount(ctx);
      const r = await ctx.api.call<{ data: Deliverable[] }>(
        'GET',
        `/v1/shift_request/${encodeURIComponent(shift_request_id)}/deliverables`,
        { key: a.api_key },
      );
      const text = r.data.length
        ? r.data
            .map((d) =>
              `${d.created_at} ${d.author_side}: ${d.note ?? ''} ${d.links.map((l) => l.url).join(' ')} ${d.files.map((f) => `[${f.name}, ${f.type}, ${f.size} bytes]`).join(' ')}`.trim(),
            )
            .join('\n')
        : 'No deliverable recorded for this shift yet.';
      return ok({ shift_request_id, deliverables: r.data }, text);
    },
  }),
  defineLocalTool({
    name: 'bulk_post_shifts',
    title: 'Post many shifts from rows',
    description: `Posts up to ${BULK_MAX_ROWS} shifts from rows (each row: the fields of post_shift), ${BULK_CONCURRENCY} requests at a time. Every row is answered on its own: posted with its shift id, or failed with the server's error code and message. Rows do not depend on each other; a failed row can be fixed and sent again alone.`,
    input: z.object({
      rows: z
        .array(postShiftSpec.input)
        .min(1)
        .max(BULK_MAX_ROWS)
        .describe(`The shifts to post, 1–${BULK_MAX_ROWS} rows, each with the fields of post_shift.`),
    }),
    output: z.object({
      posted: z.number().int(),
      failed: z.number().int(),
      results: z.array(rowResultSchema).describe('One per row, in the order given.'),
    }),
    annotations: WRITES,
    async run(ctx, { rows }, { progress }) {
      const a = activeAccount(ctx);
      let done = 0;
      let refused = 0;
      const results = await pooled(rows, BULK_CONCURRENCY, async (row, i): Promise<z.infer<typeof rowResultSchema>> => {
        let result: z.infer<typeof rowResultSchema>;
        try {
          const s = await ctx.api.call<{ id: string; request_status: number }>('POST', '/v1/shift_request/send_request', {
            key: a.api_key,
            body: row,
          });
          result = { row: i + 1, ok: true, shift_request_id: s.id, request_status: s.request_status };
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          refused++;
          result = { row: i + 1, ok: false, error: { code: err.code, message: err.message } };
        }
        // Counted and sent in the order rows finish, so the client sees progress only grow.
        done++;
        await progress(done, rows.length, `${done} of ${rows.length} rows sent${refused ? ` (${refused} refused)` : ''}`);
        return result;
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
