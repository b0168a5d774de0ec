// inside: services/deliverables
import { eq } from 'drizzle-orm';
import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, shiftDeliverableFiles, shiftDeliverables, shiftRequests } from '../../src/db/schema';
import { MAX_DELIVERABLES_PER_SIDE, MAX_FILES_PER_DELIVERABLE } from '../../src/services/deliverables';
import { attachmentDisposition } from '../../src/lib/downloads';
import { cleanFileName } from '../../src/services/deliverables/files';
import { BASE, call, expectError } from '../helpers/api';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { DAY, HOUR, insertShift, makePair } from '../helpers/shifts';

const path = (id: string) => `/v1/shift_request/${id}/deliverables`;
const deliverable = {
  note: 'Inventory counted; report attached.',
  links: [{ url: 'https://files.example.com/count.pdf', label: 'Count sheet' }],
};

/** A business and its connected shifter with a shift worked yesterday between them. */
async function workedWorld() {
  const { biz, sh } = await makePair();
  const start = Date.now() - DAY;
  const worked = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId!,
    startsAt: start,
    set: { shift_start_at: start, shift_end_at: start + 4 * HOUR },
  });
  return { biz, sh, worked };
}

describe('shift deliverables', () => {
  it('the shifter records one on a worked shift; both parties list them, oldest first', async () => {
    const { biz, sh, worked } = await workedWorld();
    const a = await call('POST', path(worked.id), { key: sh.key, body: deliverable });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({
      shift_request_id: worked.id,
      author_user_id: sh.userId,
      author_side: 'shifter',
      note: deliverable.note,
      links: [{ url: deliverable.links[0]!.url, label: 'Count sheet' }],
      files: [],
    });
    expect(a.body.id).toMatch(/^dlv_/);
    const b = await call('POST', path(worked.id), { key: biz.key, body: { note: 'Received, thanks.' } });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ author_side: 'business', links: [] });
    for (const who of [sh, biz]) {
      const list = await call('GET', path(worked.id), { key: who.key });
      expect(list.status).toBe(200);
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([a.body.id, b.body.id]);
    }
  });

  it('the shifter cannot record before the shift is worked; the business can once it has its shifter', async () => {
    const { biz, sh } = await makePair();
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 2 * DAY });
    expectError(await call('POST', path(accepted.id), { key: sh.key, body: deliverable }), 409, 'SHFT-STATE-ERR');
    expect((await call('POST', path(accepted.id), { key: biz.key, body: deliverable })).status).toBe(201);
    const broadcast = await insertShift({ businessId: biz.businessId!, startsAt: Date.now() + 2 * DAY, status: 1, broadcast: true });
    expectError(await call('POST', path(broadcast.id), { key: biz.key, body: deliverable }), 409, 'SHFT-STATE-ERR');
    // The crew member sees the open broadcast but is no party of it: no deliverables for them.
    expectError(await call('GET', path(broadcast.id), { key: sh.key }), 404, 'SHFT-NOT-FND-ERR');
    const rows = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.shift_request_id, broadcast.id));
    expect(rows).toEqual([]);
  });

  it('strangers, suspended teammates and admins cannot write; strangers and suspended teammates cannot read', async () => {
    const { biz, worked } = await workedWorld();
    const stranger = await makeUser({ shifter: true, business: true });
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 0);
    const active = await makeUser();
    await addTeammate(biz.businessId!, active.userId, 1);
    const admin = await makeUser({ admin: true });
    for (const who of [stranger, suspended]) {
      expectError(await call('POST', path(worked.id), { key: who.key, body: deliverable }), 404, 'SHFT-NOT-FND-ERR');
      expectError(await call('GET', path(worked.id), { key: who.key }), 404, 'SHFT-NOT-FND-ERR');
    }
    expectError(await call('POST', path(worked.id), { key: admin.key, body: deliverable }), 403, 'FORBIDDEN-ERR');
    expect((await call('GET', path(worked.id), { key: admin.key })).status).toBe(200);
    expect((await call('POST', path(worked.id), { key: active.key, body: { note: 'Checked by the manager.' } })).status).toBe(201);
    const rows = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.shift_request_id, worked.id));
    expect(rows.map((r) => r.author_user_id)).toEqual([active.userId]);
  });

  it('validates: a note or a link, http(s) links only, bounded', async () => {
    const { sh, worked } = await workedWorld();
    const bad = [
      {},
      { note: '   ' },
      { links: [{ url: 'javascript:alert(1)' }] },
      { links: [{ url: 'ftp://files.example.com/x' }] },
      { note: 'x'.repeat(4001) },
      { links: Array.from({ length: 11 }, (_, i) => ({ url: `https://e.example.com/${i}` })) },
    ];
    for (const b of bad) expectError(await call('POST', path(worked.id), { key: sh.key, body: b }), 400, 'VALIDATION-ERR');
  });

  it('a shift cancelled between the state check and the write refuses the deliverable (the insert is guarded in SQL)', async () => {
    const { sh, worked } = await workedWorld();
    // The service reads the worked shift, then its batch runs: the shift is cancelled just before it.
    const real = env.DB.batch.bind(env.DB);
    vi.spyOn(env.DB, 'batch').mockImplementationOnce(async (statements) => {
      await db().update(shiftRequests).set({ request_status: 7, shift_end_at: null }).where(eq(shiftRequests.id, worked.id));
      return real(statements);
    });
    try {
      expectError(await call('POST', path(worked.id), { key: sh.key, body: deliverable }), 409, 'SHFT-STATE-ERR');
    } finally {
      vi.restoreAllMocks();
    }
    const stored = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.shift_request_id, worked.id));
    expect(stored).toEqual([]);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'shift_deliverable.record'));
    expect(audits.filter((a) => a.data?.includes(worked.id))).toEqual([]);
  });
});

describe('bounds and deletion', () => {
  it(`keeps at most ${MAX_DELIVERABLES_PER_SIDE} deliverables per shift and side, also when 14 arrive at once (422 DELIVERABLE-LIMIT-ERR)`, async () => {
    const { biz, sh, worked } = await workedWorld();
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) => call('POST', path(worked.id), { key: sh.key, body: { note: `Flood ${i}` } })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(MAX_DELIVERABLES_PER_SIDE);
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(expectError(r, 422, 'DELIVERABLE-LIMIT-ERR').details).toEqual({ limit: MAX_DELIVERABLES_PER_SIDE, side: 'shifter' });
    }
    const rows = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.shift_request_id, worked.id));
    expect(rows).toHaveLength(MAX_DELIVERABLES_PER_SIDE);
    // One side's flood does not take the other side's allowance.
    expect((await call('POST', path(worked.id), { key: biz.key, body: { note: 'Received.' } })).status).toBe(201);
  });

  it('lets its author delete a deliverable with its files (rows and R2 objects), and nobody else', async () => {
    const { biz, sh, worked } = await workedWorld();
    const mine = await call('POST', path(worked.id), { key: sh.key, body: { note: 'Wrong shift, sorry.' } });
    const theirs = await call('POST', path(worked.id), { key: biz.key, body: { note: 'Keep this one.' } });
    const url = filesPath(worked.id, mine.body.id);
    for (const name of ['a.png', 'b.png']) expect((await call('POST', url, { key: sh.key, body: form(PNG, name) })).status).toBe(201);
    const prefix = `deliverables/${worked.id}/${mine.body.id}/`;
    expect(await r2Keys(prefix)).toHaveLength(2);

    const del = (who: { key: string }, id = mine.body.id as string) => call('DELETE', `${path(worked.id)}/${id}`, { key: who.key });
    const [stranger, suspended, admin, mate] = await Promise.all([
      makeUser({ shifter: true, business: true }),
      makeUser(),
      makeUser({ admin: true }),
      makeUser(),
    ]);
    await addTeammate(biz.businessId!, suspended.userId, 0);
    await addTeammate(biz.businessId!, mate.userId, 1);
    for (const who of [stranger, suspended]) expectError(await del(who), 404, 'SHFT-NOT-FND-ERR');
    // The other party, a teammate and an admin see it but did not write it.
    for (const who of [biz, mate, admin]) expectError(await del(who), 403, 'FORBIDDEN-ERR');
    expectError(await del(sh, theirs.body.id), 403, 'FORBIDDEN-ERR');
    expect(await r2Keys(prefix)).toHaveLength(2);

    const ok = await del(sh);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ id: mine.body.id, deleted: true });
    const list = await call('GET', path(worked.id), { key: biz.key });
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([theirs.body.id]);
    expect(await fileRows(mine.body.id)).toEqual([]);
    expect(await r2Keys(prefix)).toEqual([]);
    const audits = await db().select().from(auditLog).where(eq(auditLog.subject_id, mine.body.id));
    expect(audits.map((a) => a.action)).toContain('shift_deliverable.delete');
    // Gone: a second delete and its files are not found.
    expectError(await del(sh), 404, 'SHFT-NOT-FND-ERR');
    expectError(await call('POST', url, { key: sh.key, body: form(PNG, 'late.png') }), 404, 'SHFT-NOT-FND-ERR');
    expect(await r2Keys(prefix)).toEqual([]);
  });

  it('a deletion frees its place under the cap', async () => {
    const { sh, worked } = await workedWorld();
    const made = [];
    for (let i = 0; i < MAX_DELIVERABLES_PER_SIDE; i++)
      made.push(await call('POST', path(worked.id), { key: sh.key, body: { note: `N${i}` } }));
    expectError(await call('POST', path(worked.id), { key: sh.key, body: { note: 'One more' } }), 422, 'DELIVERABLE-LIMIT-ERR');
    expect((await call('DELETE', `${path(worked.id)}/${made[0]!.body.id}`, { key: sh.key })).status).toBe(200);
    expect((await call('POST', path(worked.id), { key: sh.key, body: { note: 'One more' } })).status).toBe(201);
  });
});

describe('demo data', () => {
  it('seeds passports for the owner and Jordan and a brief and a handover (with a CSV file) on their latest worked bistro shift, readable by its parties only', async () => {
    // Forced: this file's other tests have made users already.
    const seeded = await call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' }, query: { force: 1 } });
    expect(seeded.status, JSON.stringify(seeded.body).slice(0, 300)).toBe(200);
    const keyOf = (local: string) =>
      (seeded.body.accounts as Array<{ email: string; api_key: string }>).find((a) => a.email.startsWith(`${local}@`))!.api_key;
    const [owner, jordan, alex] = [keyOf('owner'), keyOf('jordan'), keyOf('alex')];

    expect((await call('GET', '/v1/ai_passports', { key: owner })).body.data.map((p: { agent_name: string }) => p.agent_name)).toEqual([
      'Claude Desktop',
    ]);
    const jordanPassports = await call('GET', '/v1/ai_passports', { key: jordan, query: { include_revoked: 1 } });
    expect(jordanPassports.body.data.map((p: { status: string }) => p.status)).toEqual(['active', 'revoked']);

    const jordanId = (seeded.body.accounts as Array<{ email: string; user_id: string }>).find((a) =>
      a.email.startsWith('jordan@'),
    )!.user_id;
    const [row] = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.author_user_id, jordanId));
    const shiftId = row!.shift_request_id;
    for (const key of [owner, jordan]) {
      const list = await call('GET', path(shiftId), { key });
      expect(list.status).toBe(200);
      expect(list.body.data.map((d: { author_side: string }) => d.author_side)).toEqual(['business', 'shifter']);
      const [sheet] = list.body.data[1].files;
      expect(sheet).toMatchObject({ name: 'stock-sheet.csv', type: 'text/csv' });
      const got = await download(sheet.url, key);
      expect(got.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
      expect((await got.text()).split('\n')[0]).toBe('item,start,end,used');
    }
    expectError(await call('GET', path(shiftId), { key: alex }), 404, 'SHFT-NOT-FND-ERR');
  });
});

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0, 0, 0]);
const CSV = new TextEncoder().encode('item,count\ncups,120\nsaucers,80\n');

function form(bytes: Uint8Array, name = 'file.bin', type = 'application/octet-stream') {
  const fd = new FormData();
  fd.append('file', new File([bytes], name, { type }));
  return fd;
}
const filesPath = (shiftId: string, deliverableId: string) => `${path(shiftId)}/${deliverableId}/files`;
/** A GET whose answer is a file: read as bytes, never as text. */
const download = (url: string, key: string) =>
  exports.default.fetch(new Request(new URL(url, BASE), { headers: { Authorization: `Bearer ${key}` } }));
const r2Keys = async (prefix: string) => (await env.UPLOADS.list({ prefix })).objects.map((o) => o.key);
/**
 * Injected around the real local D1, on the next batch that writes a deliverable file only (other
 * batches, such as a queue consumer's running meanwhile, pass through untouched): `fail` refuses it
 * before anything commits; `lose` lets it commit, then loses its answer.
 */
function onNextFileBatch(mode: 'fail' | 'lose') {
  const real = env.DB.batch.bind(env.DB);
  let done = false;
  const spy = vi.spyOn(env.DB, 'batch').mockImplementation(async (statements) => {
    const sqlOf = (st: D1PreparedStatement) => (st as unknown as { statement?: string }).statement ?? '';
    if (done || !statements.some((st) => /insert into "shift_deliverable_files"/i.test(sqlOf(st)))) return real(statements);
    done = true;
    if (mode === 'lose') await real(statements);
    throw new Error(`injected: ${mode === 'fail' ? 'D1 refused the batch' : 'connection lost after the commit'}`);
  });
  /** Restores D1 and tells whether the failure was injected. */
  return () => {
    spy.mockRestore();
    return done;
  };
}
const fileRows = (deliverableId: string) =>
  db().select().from(shiftDeliverableFiles).where(eq(shiftDeliverableFiles.deliverable_id, deliverableId));

/** The worked shift with one deliverable recorded by its shifter. */
async function withDeliverable() {
  const world = await workedWorld();
  const d = await call('POST', path(world.worked.id), { key: world.sh.key, body: { note: 'Stocktake done.' } });
  expect(d.status, JSON.stringify(d.body)).toBe(201);
  return { ...world, dlv: d.body as { id: string } };
}

describe('deliverable files', () => {
  afterEach(() => vi.restoreAllMocks());

  it('the parties upload files, the list shows them, and both parties and admins download them as attachments with the sniffed type', async () => {
    const { biz, sh, worked, dlv } = await withDeliverable();
    const admin = await makeUser({ admin: true });
    const url = filesPath(worked.id, dlv.id);
    // The client's type claim is ignored: a PDF named .png is stored as a PDF, and named so.
    const a = await call('POST', url, { key: sh.key, body: form(PDF, 'count sheet.png', 'image/png') });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({ deliverable_id: dlv.id, name: 'count sheet.png.pdf', type: 'application/pdf', size: PDF.byteLength });
    expect(a.body.id).toMatch(/^upl_/);
    const b = await call('POST', url, { key: biz.key, body: form(CSV, 'counts.csv', 'application/vnd.ms-excel') });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(b.body).toMatchObject({ name: 'counts.csv', type: 'text/csv', size: CSV.byteLength });
    expect(await r2Keys(`deliverables/${worked.id}/${dlv.id}/`)).toEqual(
      [`deliverables/${worked.id}/${dlv.id}/${a.body.id}.pdf`, `deliverables/${worked.id}/${dlv.id}/${b.body.id}.csv`].sort(),
    );

    for (const who of [sh, biz, admin]) {
      const list = await call('GET', path(worked.id), { key: who.key });
      expect(list.status).toBe(200);
      const files = list.body.data.find((d: { id: string }) => d.id === dlv.id).files;
      expect(files).toEqual([
        {
          id: a.body.id,
          deliverable_id: dlv.id,
          name: 'count sheet.png.pdf',
          type: 'application/pdf',
          size: PDF.byteLength,
          url: a.body.url,
          created_at: a.body.created_at,
        },
        {
          id: b.body.id,
          deliverable_id: dlv.id,
          name: 'counts.csv',
          type: 'text/csv',
          size: CSV.byteLength,
          url: b.body.url,
          created_at: b.body.created_at,
        },
      ]);
      const got = await download(a.body.url, who.key);
      expect(got.status).toBe(200);
      expect(got.headers.get('Content-Type')).toBe('application/pdf');
      expect(got.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(got.headers.get('Content-Disposition')).toBe(
        `attachment; filename="count sheet.png.pdf"; filename*=UTF-8''count%20sheet.png.pdf`,
      );
      expect(new Uint8Array(await got.arrayBuffer())).toEqual(PDF);
    }
    const csv = await download(b.body.url, sh.key);
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe(new TextDecoder().decode(CSV));
    expect(b.body.url).toBe(`${url}/${b.body.id}`);
  });

  it('refuses strangers, suspended teammates and admins on upload, strangers and suspended teammates on download; a file named through another shift is not found', async () => {
    const { biz, sh, worked, dlv } = await withDeliverable();
    const url = filesPath(worked.id, dlv.id);
    const stored = await call('POST', url, { key: sh.key, body: form(PNG, 'photo.png') });
    expect(stored.status).toBe(201);
    const stranger = await makeUser({ shifter: true, business: true });
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 0);
    const admin = await makeUser({ admin: true });
    for (const who of [stranger, suspended]) {
      expectError(await call('POST', url, { key: who.key, body: form(PDF, 'forged.pdf') }), 404, 'SHFT-NOT-FND-ERR');
      expectError(await call('GET', stored.body.url, { key: who.key }), 404, 'SHFT-NOT-FND-ERR');
      expectError(await call('GET', path(worked.id), { key: who.key }), 404, 'SHFT-NOT-FND-ERR');
    }
    expectError(await call('POST', url, { key: admin.key, body: form(PDF, 'admin.pdf') }), 403, 'FORBIDDEN-ERR');
    expectError(await call('GET', stored.body.url, {}), 401, 'AUTH-REQ-ERR');
    // A file named through another shift or deliverable is not found, even by a party of that other shift.
    const other = await withDeliverable();
    expectError(
      await call('GET', `${filesPath(other.worked.id, other.dlv.id)}/${stored.body.id}`, { key: other.sh.key }),
      404,
      'UPLOAD-NOT-FND-ERR',
    );
    expectError(await call('POST', filesPath(worked.id, other.dlv.id), { key: sh.key, body: form(PDF) }), 404, 'SHFT-NOT-FND-ERR');
    expect((await fileRows(dlv.id)).map((r) => r.id)).toEqual([stored.body.id]);
    expect(await fileRows(other.dlv.id)).toEqual([]);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toHaveLength(1);
  });

  it('the shifter cannot attach before the shift is worked (same rule as recording); the business side can once it has its shifter', async () => {
    const { biz, sh } = await makePair();
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 2 * DAY });
    const d = await call('POST', path(accepted.id), { key: biz.key, body: { note: 'Brief' } });
    expectError(await call('POST', filesPath(accepted.id, d.body.id), { key: sh.key, body: form(PDF) }), 409, 'SHFT-STATE-ERR');
    expect((await call('POST', filesPath(accepted.id, d.body.id), { key: biz.key, body: form(PDF, 'brief.pdf') })).status).toBe(201);
    expect(await fileRows(d.body.id)).toHaveLength(1);
  });

  it('refuses a file over 8 MB (413) and types it cannot tell or does not take (415), storing nothing', async () => {
    const { sh, worked, dlv } = await withDeliverable();
    const url = filesPath(worked.id, dlv.id);
    const big = new Uint8Array(8 * 1024 * 1024 + 1);
    big.set(PDF);
    expectError(await call('POST', url, { key: sh.key, body: form(big, 'big.pdf', 'application/pdf') }), 413, 'PAYLOAD-TOO-LARGE-ERR');
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0]);
    expectError(await call('POST', url, { key: sh.key, body: form(exe, 'report.pdf', 'application/pdf') }), 415, 'UNSUPPORTED-MEDIA-ERR');
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café" in Latin-1: not UTF-8
    expectError(await call('POST', url, { key: sh.key, body: form(latin1, 'menu.txt', 'text/plain') }), 415, 'UNSUPPORTED-MEDIA-ERR');
    expectError(await call('POST', url, { key: sh.key, body: { file: 'JVBERi0xLjc=' } }), 415, 'UNSUPPORTED-MEDIA-ERR');
    expectError(await call('POST', url, { key: sh.key, body: new FormData() }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', url, { key: sh.key, body: form(new Uint8Array(0), 'empty.pdf') }), 400, 'VALIDATION-ERR');
    expect(await fileRows(dlv.id)).toEqual([]);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toEqual([]);
    // Within the limits: a zip and plain text are taken.
    expect((await call('POST', url, { key: sh.key, body: form(ZIP, 'photos.zip') })).body).toMatchObject({ type: 'application/zip' });
    expect((await call('POST', url, { key: sh.key, body: form(CSV, 'notes') })).body).toMatchObject({
      type: 'text/plain',
      name: 'notes.txt',
    });
  });

  it(`holds at most ${MAX_FILES_PER_DELIVERABLE} files per deliverable, also under concurrent uploads`, async () => {
    const { sh, worked, dlv } = await withDeliverable();
    const url = filesPath(worked.id, dlv.id);
    const results = await Promise.all(
      Array.from({ length: MAX_FILES_PER_DELIVERABLE + 4 }, (_, i) => call('POST', url, { key: sh.key, body: form(PNG, `p${i}.png`) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_FILES_PER_DELIVERABLE);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 409, 'CONFLICT-ERR');
    expect(await fileRows(dlv.id)).toHaveLength(MAX_FILES_PER_DELIVERABLE);
    // Every refused upload's object was removed: one object per row.
    expect(await r2Keys(`deliverables/${worked.id}/${dlv.id}/`)).toHaveLength(MAX_FILES_PER_DELIVERABLE);
  });

  it('a row write that fails leaves no object and no row; its retry stores the file once', async () => {
    const { sh, worked, dlv } = await withDeliverable();
    const url = filesPath(worked.id, dlv.id);
    const headers = { 'Idempotency-Key': `dlf-${crypto.randomUUID()}` };
    const injected = onNextFileBatch('fail');
    expectError(await call('POST', url, { key: sh.key, body: form(PDF, 'report.pdf'), headers }), 500, 'INTERNAL-ERR');
    expect(injected()).toBe(true);
    expect(await fileRows(dlv.id)).toEqual([]);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toEqual([]);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'shift_deliverable.file'));
    expect(audits.filter((a) => a.data?.includes(dlv.id))).toEqual([]);

    const retry = await call('POST', url, { key: sh.key, body: form(PDF, 'report.pdf'), headers });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect((await fileRows(dlv.id)).map((r) => r.id)).toEqual([retry.body.id]);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toEqual([`deliverables/${worked.id}/${dlv.id}/${retry.body.id}.pdf`]);
  });

  it('a row write whose answer is lost after the commit keeps the object and answers with the stored file', async () => {
    const { sh, worked, dlv } = await withDeliverable();
    const injected = onNextFileBatch('lose');
    const first = await call('POST', filesPath(worked.id, dlv.id), { key: sh.key, body: form(PDF, 'report.pdf') });
    expect(injected()).toBe(true);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const rows = await fileRows(dlv.id);
    expect(rows.map((r) => r.id)).toEqual([first.body.id]);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toEqual([rows[0]!.object_key]);
    const got = await download(first.body.url, sh.key);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PDF);
  });

  it('a shift cancelled between the check and the write refuses the file and removes its object', async () => {
    const { biz, worked, dlv } = await withDeliverable();
    const real = env.DB.batch.bind(env.DB);
    vi.spyOn(env.DB, 'batch').mockImplementationOnce(async (statements) => {
      await db().update(shiftRequests).set({ request_status: 7, shift_end_at: null }).where(eq(shiftRequests.id, worked.id));
      return real(statements);
    });
    expectError(await call('POST', filesPath(worked.id, dlv.id), { key: biz.key, body: form(PDF) }), 409, 'SHFT-STATE-ERR');
    expect(await fileRows(dlv.id)).toEqual([]);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toEqual([]);
  });

  it('a chunked upload over 8 MB without Content-Length is refused while it arrives (413), storing nothing', async () => {
    const { sh, worked, dlv } = await withDeliverable();
    const boundary = '----deliverable-test-boundary';
    const enc = new TextEncoder();
    const head = enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // An endless file: only the body limit can end it.
        const part = sent === 0 ? head : sent === head.byteLength ? PDF : chunk;
        sent += part.byteLength;
        controller.enqueue(part);
      },
    });
    const res = await exports.default.fetch(
      new Request(new URL(filesPath(worked.id, dlv.id), BASE), {
        method: 'POST',
        headers: { Authorization: `Bearer ${sh.key}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'PAYLOAD-TOO-LARGE-ERR',
      message: 'The deliverable file must be at most 8 MB.',
    });
    expect(sent).toBeLessThan(10 * 1024 * 1024);
    expect(await fileRows(dlv.id)).toEqual([]);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toEqual([]);
  });

  it('a retry with the same Idempotency-Key and body replays the upload instead of storing the file twice', async () => {
    const { sh, worked, dlv } = await withDeliverable();
    // One encoded body (one boundary), sent twice.
    const encoded = new Response(form(PDF, 'report.pdf'));
    const bytes = await encoded.arrayBuffer();
    const headers = { 'Content-Type': encoded.headers.get('Content-Type')!, 'Idempotency-Key': `dlf-${crypto.randomUUID()}` };
    const first = await call('POST', filesPath(worked.id, dlv.id), { key: sh.key, body: bytes, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await call('POST', filesPath(worked.id, dlv.id), { key: sh.key, body: bytes, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(await fileRows(dlv.id)).toHaveLength(1);
    expect(await r2Keys(`deliverables/${worked.id}/`)).toHaveLength(1);
  });

  it('names are cleaned and offered safely', () => {
    const pdf = { mime: 'application/pdf', ext: 'pdf' };
    expect(cleanFileName('../../etc/passwd', pdf)).toBe('passwd.pdf');
    expect(cleanFileName('C:\\Users\\x\\inv"oice\u202Efdp.exe', pdf)).toBe('invoicefdp.exe.pdf');
    expect(cleanFileName('...', pdf)).toBe('file.pdf');
    expect(cleanFileName('photo.JPEG', { mime: 'image/jpeg', ext: 'jpg' })).toBe('photo.jpeg');
    expect(cleanFileName('x'.repeat(500), pdf)).toHaveLength(120);
    expect(attachmentDisposition('café; "a".pdf')).toBe(
      `attachment; filename="caf__ _a_.pdf"; filename*=UTF-8''caf%C3%A9%3B%20%22a%22.pdf`,
    );
  });

  it('is in the OpenAPI document with its error codes and a multipart body', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const codes = (op: any, status: string) =>
      op.responses[status]?.content['application/json'].schema.properties.error.properties.code.enum ?? [];
    const up = doc.paths['/v1/shift_request/{id}/deliverables/{deliverable_id}/files'].post;
    const get = doc.paths['/v1/shift_request/{id}/deliverables/{deliverable_id}/files/{file_id}'].get;
    expect(up.operationId).toBe('uploadShiftDeliverableFile');
    expect(get.operationId).toBe('getShiftDeliverableFile');
    expect(up.requestBody.content['multipart/form-data']).toBeDefined();
    expect(codes(up, '413')).toContain('PAYLOAD-TOO-LARGE-ERR');
    expect(codes(up, '415')).toContain('UNSUPPORTED-MEDIA-ERR');
    expect(codes(get, '404')).toEqual(expect.arrayContaining(['SHFT-NOT-FND-ERR', 'UPLOAD-NOT-FND-ERR']));
    const del = doc.paths['/v1/shift_request/{id}/deliverables/{deliverable_id}'].delete;
    expect(del.operationId).toBe('deleteShiftDeliverable');
    expect(codes(del, '404')).toContain('SHFT-NOT-FND-ERR');
    expect(codes(del, '403')).toContain('FORBIDDEN-ERR');
    expect(codes(doc.paths['/v1/shift_request/{id}/deliverables'].post, '422')).toContain('DELIVERABLE-LIMIT-ERR');
  });
});
