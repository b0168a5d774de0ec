import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { type Api, ApiError } from '../src/api';
import { createServer } from '../src/server';
import { SessionStore } from '../src/sessions';
import type { ToolContext } from '../src/tools/kit';
import { BULK_CONCURRENCY, RECORD_TOOLS } from '../src/tools/records';

// biome-ignore lint/suspicious/noExplicitAny: the answer is read field by field in the assertions
type Loose = any;

/** A stand-in HTTP API that counts requests in flight; a row whose note is "bad" is refused. */
function standIn() {
  const seen = { inFlight: 0, most: 0 };
  const api: Api = {
    baseUrl: 'http://stand-in',
    async call<T>(_method: string, _path: string, opts: { body?: unknown } = {}) {
      seen.inFlight++;
      seen.most = Math.max(seen.most, seen.inFlight);
      await new Promise((r) => setTimeout(r, 20));
      seen.inFlight--;
      const row = opts.body as { note?: string };
      if (row.note === 'bad') throw new ApiError(400, 'VALIDATION-ERR', 'shift_date: must be a calendar date YYYY-MM-DD');
      return { id: `sr_${row.note}`, request_status: 1 } as T;
    },
  };
  return { api, seen };
}

async function contextWithAccount(api: Api): Promise<ToolContext> {
  const store = new SessionStore('/nonexistent', { kind: 'none' });
  await store.upsert({
    user_id: 'usr_1',
    email: 'a@example.test',
    display_name: 'A',
    base_url: 'http://stand-in',
    api_key: 'smk_x',
    shifter_id: null,
    business_ids: [],
    added_at: '',
  });
  return { api, store, pending: new Map(), remote: async () => ({ content: [] }) };
}

const rowsOf = (n: number, bad: number[] = []) =>
  Array.from({ length: n }, (_, i) => ({
    shift_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    shift_in: '09:00',
    shift_out: '17:00',
    shiftrole_id: 1,
    hourly_rate: 20,
    note: bad.includes(i) ? 'bad' : String(i),
  }));

const tool = RECORD_TOOLS.find((t) => t.name === 'bulk_post_shifts')!;

/** bulk_post_shifts against a stand-in HTTP API. */
describe('bulk_post_shifts', () => {
  it(`keeps ${BULK_CONCURRENCY} requests in flight, answers every row in order, shows each failed row's server message, and reports each row done`, async () => {
    const { api, seen } = standIn();
    const ctx = await contextWithAccount(api);
    const rows = rowsOf(23, [7, 15]);
    const reported: Array<[number, number, string | undefined]> = [];
    const r = (await tool.run(ctx, tool.input.parse({ rows }), {
      progress: async (done, total, message) => {
        reported.push([done, total, message]);
      },
    })) as { structuredContent: Loose; content: Array<{ text: string }> };
    expect(seen.most).toBe(BULK_CONCURRENCY);
    expect(r.structuredContent).toMatchObject({ posted: 21, failed: 2 });
    expect(r.structuredContent.results.map((x: { row: number }) => x.row)).toEqual(rows.map((_, i) => i + 1));
    expect(r.structuredContent.results[7]).toEqual({
      row: 8,
      ok: false,
      error: { code: 'VALIDATION-ERR', message: 'shift_date: must be a calendar date YYYY-MM-DD' },
    });
    expect(r.content[0]!.text).toContain('row 16: failed: VALIDATION-ERR: shift_date: must be a calendar date YYYY-MM-DD');
    expect(tool.output.safeParse(r.structuredContent).success).toBe(true);
    // One report per row as it finishes: 1..23 of 23, the refusals counted as they come.
    expect(reported.map(([done, total]) => [done, total])).toEqual(rows.map((_, i) => [i + 1, 23]));
    expect(reported.at(-1)![2]).toBe('23 of 23 rows sent (2 refused)');
  });

  it('sends notifications/progress with the request progressToken through the MCP server, and none when the client asked for none', async () => {
    const { api } = standIn();
    const server = createServer(await contextWithAccount(api));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'progress-check', version: '1.0.0' });
    await client.connect(clientSide);
    // Every progress notification that reaches the client, asked for or not.
    let notified = 0;
    const deliver = clientSide.onmessage;
    clientSide.onmessage = (msg, extra) => {
      if ((msg as { method?: string }).method === 'notifications/progress') notified++;
      deliver?.(msg, extra);
    };
    try {
      const rows = rowsOf(12, [4]);
      const progress: Array<{ progress: number; total?: number; message?: string }> = [];
      const r = (await client.callTool(
        { name: 'bulk_post_shifts', arguments: { rows } },
        { onprogress: (p) => void progress.push(p) },
      )) as Loose;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ posted: 11, failed: 1 });
      expect(progress.map((p) => [p.progress, p.total])).toEqual(rows.map((_, i) => [i + 1, 12]));
      expect(progress.at(-1)!.message).toBe('12 of 12 rows sent (1 refused)');
      expect(notified).toBe(12);

      // Without onprogress the client sends no token, and the server no notification.
      const again = (await client.callTool({ name: 'bulk_post_shifts', arguments: { rows: rowsOf(6) } })) as Loose;
      expect(again.structuredContent).toMatchObject({ posted: 6, failed: 0 });
      expect(notified).toBe(12);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
