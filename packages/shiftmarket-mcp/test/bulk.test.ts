import { describe, expect, it } from 'vitest';
import { type Api, ApiError } from '../src/api';
import { SessionStore } from '../src/sessions';
import type { ToolContext } from '../src/tools/kit';
import { BULK_CONCURRENCY, RECORD_TOOLS } from '../src/tools/records';

// biome-ignore lint/suspicious/noExplicitAny: the answer is read field by field in the assertions
type Loose = any;

/** bulk_post_shifts against a stand-in HTTP API that counts requests in flight. */
describe('bulk_post_shifts', () => {
  it(`keeps ${BULK_CONCURRENCY} requests in flight, answers every row in order, and shows each failed row's server message`, async () => {
    let inFlight = 0;
    let most = 0;
    const api: Api = {
      baseUrl: 'http://stand-in',
      async call<T>(_method: string, _path: string, opts: { body?: unknown } = {}) {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        const row = opts.body as { note?: string };
        if (row.note === 'bad') throw new ApiError(400, 'VALIDATION-ERR', 'shift_date: must be a calendar date YYYY-MM-DD');
        return { id: `sr_${row.note}`, request_status: 1 } as T;
      },
    };
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
    const ctx: ToolContext = { api, store, pending: new Map(), remote: async () => ({ content: [] }) };
    const tool = RECORD_TOOLS.find((t) => t.name === 'bulk_post_shifts')!;
    const rows = Array.from({ length: 23 }, (_, i) => ({
      shift_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      shift_in: '09:00',
      shift_out: '17:00',
      shiftrole_id: 1,
      hourly_rate: 20,
      note: i === 7 || i === 15 ? 'bad' : String(i),
    }));
    const r = (await tool.run(ctx, tool.input.parse({ rows }))) as { structuredContent: Loose; content: Array<{ text: string }> };
    expect(most).toBe(BULK_CONCURRENCY);
    expect(r.structuredContent).toMatchObject({ posted: 21, failed: 2 });
    expect(r.structuredContent.results.map((x: { row: number }) => x.row)).toEqual(rows.map((_, i) => i + 1));
    expect(r.structuredContent.results[7]).toEqual({
      row: 8,
      ok: false,
      error: { code: 'VALIDATION-ERR', message: 'shift_date: must be a calendar date YYYY-MM-DD' },
    });
    expect(r.content[0]!.text).toContain('row 16: failed: VALIDATION-ERR: shift_date: must be a calendar date YYYY-MM-DD');
  });
});
