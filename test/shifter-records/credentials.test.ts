// inside: services/shifter-records
import { env, exports } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, credentials } from '../../src/db/schema';
import { chunk } from '../../src/lib/chunk';
import { attachmentDisposition, storedFileHeaders } from '../../src/lib/downloads';
import { newId } from '../../src/lib/ids';
import { MAX_CREDENTIALS_PER_SHIFTER } from '../../src/services/shifter-records/credentials';
import { BASE, call, expectError } from '../helpers/api';
import { db, makeUser } from '../helpers/factory';
import { failNextBatch, loseNextBatchAnswer } from '../helpers/failures';
import { daysFromToday } from '../helpers/rows';
import { expectDenied, itRejectsBadCredentials } from '../helpers/security';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function form(bytes: Uint8Array, name = 'doc.bin', type = 'application/octet-stream') {
  const fd = new FormData();
  fd.append('file', new File([bytes], name, { type }));
  return fd;
}

const base = (shifterId: string) => `/v1/shifter/${shifterId}/credentials`;
/** A GET whose answer is a file: read as bytes, never as text. */
function getFile(path: string, key: string) {
  return exports.default.fetch(new Request(new URL(path, BASE), { headers: { Authorization: `Bearer ${key}` } }));
}

const r2Keys = async (prefix: string) => (await env.UPLOADS.list({ prefix })).objects.map((o) => o.key);

describe('credentials', () => {
  it('CRUD by the owner, with expiry flags and soonest expiry first', async () => {
    const s = await makeUser({ shifter: true }); // UTC: "today" is the UTC date
    const path = base(s.shifterId!);
    const make = async (body: Record<string, unknown>) => {
      const res = await call('POST', path, { key: s.key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const food = await make({
      label: 'Food handler',
      issuer: 'County',
      issued_on: daysFromToday(-700),
      expires_on: daysFromToday(31),
      notes: 'card in wallet',
    });
    const alcohol = await make({ label: 'Alcohol server', expires_on: daysFromToday(30) });
    const first = await make({ label: 'First aid', expires_on: daysFromToday(0), is_visible: false });
    const forklift = await make({ label: 'Forklift', expires_on: daysFromToday(-1) });
    const cpr = await make({ label: 'CPR' });

    expect(food).toMatchObject({
      issuer: 'County',
      notes: 'card in wallet',
      is_visible: true,
      expiring: false,
      expired: false,
      has_document: false,
      document_type: null,
      document_size: null,
      document_url: null,
    });
    expect(alcohol).toMatchObject({ expiring: true, expired: false });
    expect(first).toMatchObject({ expiring: true, expired: false, is_visible: false });
    expect(forklift).toMatchObject({ expiring: false, expired: true });
    expect(cpr).toMatchObject({ expires_on: null, issued_on: null, issuer: null, expiring: false, expired: false });

    const list = await call('GET', path, { key: s.key });
    expect(list.body.data.map((c: any) => c.label)).toEqual(['Forklift', 'First aid', 'Alcohol server', 'Food handler', 'CPR']);
    expect((await call('GET', `${path}/${food.id}`, { key: s.key })).body).toEqual(food);

    const upd = await call('PATCH', `${path}/${food.id}`, {
      key: s.key,
      body: { issuer: null, expires_on: daysFromToday(10), label: 'Food handler card' },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body).toMatchObject({ label: 'Food handler card', issuer: null, notes: 'card in wallet', expiring: true });

    expect((await call('DELETE', `${path}/${cpr.id}`, { key: s.key })).body).toEqual({ id: cpr.id, deleted: true });
    expectError(await call('GET', `${path}/${cpr.id}`, { key: s.key }), 404, 'CREDENTIAL-NOT-FND-ERR');
    expectError(await call('PATCH', `${path}/${cpr.id}`, { key: s.key, body: { label: 'x' } }), 404, 'CREDENTIAL-NOT-FND-ERR');
    expectError(await call('DELETE', `${path}/${cpr.id}`, { key: s.key }), 404, 'CREDENTIAL-NOT-FND-ERR');
  });

  it('refuses invalid dates, an expiry before the issue date and unknown fields (400)', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    for (const body of [
      { label: 'x', issued_on: '2026-02-30' },
      { label: 'x', expires_on: '2026-1-5' },
      { label: 'x', issued_on: '2026-05-01', expires_on: '2026-04-30' },
      { label: '' },
      { issuer: 'no label' },
      { label: 'x', is_visible: 'yes' },
      { label: 'x', document_key: 'credentials/elsewhere.pdf' },
    ]) {
      expectError(await call('POST', path, { key: s.key, body }), 400, 'VALIDATION-ERR');
    }
    const ok = await call('POST', path, { key: s.key, body: { label: 'ok', issued_on: '2026-05-01', expires_on: '2027-05-01' } });
    expect(ok.status).toBe(201);
    for (const body of [{}, { expires_on: '2026-04-01' }, { issued_on: '2027-06-01' }, { expires_on: '2027-02-29' }]) {
      expectError(await call('PATCH', `${base(s.shifterId!)}/${ok.body.id}`, { key: s.key, body }), 400, 'VALIDATION-ERR');
    }
  });

  it('shows every row to the owner and admins, visible rows to anyone else; only the owner writes', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const shown = (await call('POST', path, { key: s.key, body: { label: 'Shown' } })).body;
    const hidden = (await call('POST', path, { key: s.key, body: { label: 'Hidden', is_visible: false } })).body;
    const admin = await makeUser({ admin: true });
    const biz = await makeUser({ business: true });
    const other = await makeUser({ shifter: true });

    expect((await call('GET', path, { key: admin.key })).body.data.map((c: any) => c.label)).toEqual(['Hidden', 'Shown']);
    expect((await call('GET', `${path}/${hidden.id}`, { key: admin.key })).status).toBe(200);
    for (const key of [biz.key, other.key]) {
      expect((await call('GET', path, { key })).body.data.map((c: any) => c.id)).toEqual([shown.id]);
      expect((await call('GET', `${path}/${shown.id}`, { key })).status).toBe(200);
      expectError(await call('GET', `${path}/${hidden.id}`, { key }), 404, 'CREDENTIAL-NOT-FND-ERR');
    }
    for (const key of [biz.key, other.key, admin.key]) {
      await expectDenied(await call('POST', path, { key, body: { label: 'x' } }), [403]);
      await expectDenied(await call('PATCH', `${path}/${shown.id}`, { key, body: { label: 'x' } }), [403]);
      await expectDenied(await call('PATCH', `${path}/${hidden.id}`, { key, body: { label: 'x' } }), [403]);
      await expectDenied(await call('DELETE', `${path}/${shown.id}`, { key }), [403]);
      await expectDenied(await call('POST', `${path}/${shown.id}/document`, { key, body: form(PDF) }), [403]);
    }
    expect((await call('GET', `${path}/${shown.id}`, { key: s.key })).body.label).toBe('Shown');
    expectError(await call('GET', base('shf_nobody'), { key: biz.key }), 404, 'SHIFTER-NOT-FND-ERR');
    // Another shifter's credential id under one's own path is not found.
    expectError(await call('GET', `${base(other.shifterId!)}/${shown.id}`, { key: other.key }), 404, 'CREDENTIAL-NOT-FND-ERR');
  });

  it('stores a document by its content type, serves it to those who may see the row, replaces and deletes it in R2', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'License' } })).body;
    const prefix = `credentials/${s.shifterId}/${cred.id}/`;

    // The client claims PNG; the bytes say PDF, and the bytes win.
    const up = await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PDF, 'scan.png', 'image/png') });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({
      has_document: true,
      document_type: 'application/pdf',
      document_size: PDF.byteLength,
      document_url: `${path}/${cred.id}/document`,
    });
    const [firstKey, ...rest] = await r2Keys(prefix);
    expect(rest).toEqual([]);
    expect(firstKey).toMatch(new RegExp(`^${prefix}upl_[0-9A-Za-z]+\\.pdf$`));

    const biz = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });
    for (const key of [s.key, biz.key, admin.key]) {
      const got = await getFile(up.body.document_url, key);
      expect(got.status).toBe(200);
      expect(got.headers.get('Content-Type')).toBe('application/pdf');
      expect(got.headers.get('Content-Disposition')).toBe(attachmentDisposition(`credential-${cred.id}.pdf`));
      expect(got.headers.get('Cache-Control')).toBe('private, no-store');
      expect(got.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(new Uint8Array(await got.arrayBuffer())).toEqual(PDF);
    }

    // Replacing: the row points at the new object and the old one is gone.
    const again = await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PNG, 'photo.png', 'image/png') });
    expect(again.body).toMatchObject({ document_type: 'image/png', document_size: PNG.byteLength });
    const keys = await r2Keys(prefix);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(firstKey);
    expect(keys[0]).toMatch(/\.png$/);
    expect((await call('GET', `${path}/${cred.id}`, { key: biz.key })).body).toMatchObject({
      has_document: true,
      document_type: 'image/png',
    });

    // Hidden: the document is served to the owner and admins only.
    await call('PATCH', `${path}/${cred.id}`, { key: s.key, body: { is_visible: false } });
    expectError(await call('GET', up.body.document_url, { key: biz.key }), 404, 'CREDENTIAL-NOT-FND-ERR');
    const asAdmin = await getFile(up.body.document_url, admin.key);
    expect(asAdmin.headers.get('Content-Type')).toBe('image/png');
    expect(asAdmin.headers.get('Content-Disposition')).toBe(attachmentDisposition(`credential-${cred.id}.png`));
    expect(new Uint8Array(await asAdmin.arrayBuffer())).toEqual(PNG);
    expectError(await call('GET', up.body.document_url, {}), 401, 'AUTH-REQ-ERR');

    // Deleting the credential deletes its object.
    expect((await call('DELETE', `${path}/${cred.id}`, { key: s.key })).status).toBe(200);
    expect(await r2Keys(prefix)).toEqual([]);
    expectError(await call('GET', up.body.document_url, { key: s.key }), 404, 'CREDENTIAL-NOT-FND-ERR');
  });

  it('a document is never rendered as a page of ours: an attachment, sandboxed by its Content-Security-Policy, nosniff, not stored, with its length', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'Certificate' } })).body;
    // A PDF may carry script; served inline on our origin without a sandbox it would run as us.
    const scripted = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n');
    const up = await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(scripted, 'cert.pdf', 'application/pdf') });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const got = await getFile(up.body.document_url, s.key);
    expect(got.status).toBe(200);
    expect(got.headers.get('Content-Security-Policy')).toBe("default-src 'none'; sandbox");
    expect(got.headers.get('Content-Disposition')).toMatch(/^attachment; /);
    expect(got.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(got.headers.get('Cache-Control')).toBe('private, no-store');
    expect(got.headers.get('Content-Length')).toBe(String(scripted.byteLength));
    // The same headers as a deliverable file's download: one helper writes both.
    const served = storedFileHeaders({ content_type: 'application/pdf', filename: `credential-${cred.id}.pdf`, size: scripted.byteLength });
    for (const [name, value] of Object.entries(served)) expect(got.headers.get(name), name).toBe(value);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(scripted);
  });

  it('removes just the document on request', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'Badge' } })).body;
    expectError(await call('GET', `${path}/${cred.id}/document`, { key: s.key }), 404, 'UPLOAD-NOT-FND-ERR');
    expectError(await call('DELETE', `${path}/${cred.id}/document`, { key: s.key }), 404, 'UPLOAD-NOT-FND-ERR');
    await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PNG) });
    const res = await call('DELETE', `${path}/${cred.id}/document`, { key: s.key });
    expect(res.body).toMatchObject({ id: cred.id, has_document: false, document_type: null, document_size: null, document_url: null });
    expect(await r2Keys(`credentials/${s.shifterId}/${cred.id}/`)).toEqual([]);
  });

  it('refuses wrong types (415), oversized files (413) and malformed uploads (400), storing nothing', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'License' } })).body;
    const url = `${path}/${cred.id}/document`;
    const text = new TextEncoder().encode('definitely not a PDF, whatever the name says');
    expectError(await call('POST', url, { key: s.key, body: form(text, 'license.pdf', 'application/pdf') }), 415, 'UNSUPPORTED-MEDIA-ERR');
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
    expectError(await call('POST', url, { key: s.key, body: form(zip, 'license.zip') }), 415, 'UNSUPPORTED-MEDIA-ERR');
    expectError(await call('POST', url, { key: s.key, body: { file: 'JVBERi0xLjc=' } }), 415, 'UNSUPPORTED-MEDIA-ERR');
    const big = new Uint8Array(8 * 1024 * 1024 + 1);
    big.set(PDF);
    expectError(await call('POST', url, { key: s.key, body: form(big, 'big.pdf', 'application/pdf') }), 413, 'PAYLOAD-TOO-LARGE-ERR');
    expectError(await call('POST', url, { key: s.key, body: new FormData() }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', url, { key: s.key, body: form(new Uint8Array(0), 'empty.pdf') }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', `${path}/crd_missing/document`, { key: s.key, body: form(PDF) }), 404, 'CREDENTIAL-NOT-FND-ERR');
    expect(await r2Keys(`credentials/${s.shifterId}/`)).toEqual([]);
    expect((await call('GET', `${path}/${cred.id}`, { key: s.key })).body).toMatchObject({ has_document: false });
  });

  describe('list', () => itRejectsBadCredentials({ method: 'GET', path: '/v1/shifter/shf_x/credentials' }));
  describe('create', () => itRejectsBadCredentials({ method: 'POST', path: '/v1/shifter/shf_x/credentials', body: { label: 'x' } }));
  describe('upload', () =>
    itRejectsBadCredentials({ method: 'POST', path: '/v1/shifter/shf_x/credentials/crd_x/document', body: form(PDF) }));

  it('is in the OpenAPI document with its error codes', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const codes = (op: any, status: string) =>
      op.responses[status]?.content['application/json'].schema.properties.error.properties.code.enum ?? [];
    const list = doc.paths['/v1/shifter/{id}/credentials'];
    const one = doc.paths['/v1/shifter/{id}/credentials/{credential_id}'];
    const document = doc.paths['/v1/shifter/{id}/credentials/{credential_id}/document'];
    for (const op of [list.get, list.post, one.get, one.patch, one.delete, document.post, document.get, document.delete]) {
      expect(op).toBeDefined();
      expect(codes(op, '401')).toContain('AUTH-REQ-ERR');
      expect(codes(op, '403')).toContain('FORBIDDEN-ERR');
    }
    for (const op of [one.get, one.patch, one.delete, document.post, document.get])
      expect(codes(op, '404')).toContain('CREDENTIAL-NOT-FND-ERR');
    expect(codes(document.post, '413')).toContain('PAYLOAD-TOO-LARGE-ERR');
    expect(codes(document.post, '415')).toContain('UNSUPPORTED-MEDIA-ERR');
    expect(document.post.requestBody.content['multipart/form-data']).toBeDefined();
  });
});

const rowsOf = (shifterId: string) => db().select().from(credentials).where(eq(credentials.shifter_id, shifterId));
const auditsOf = async (credentialId: string, action: string) =>
  db()
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.subject_type, 'credential'), eq(auditLog.subject_id, credentialId), eq(auditLog.action, action)));

describe('credentials: guarded writes', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a create whose answer is lost after the commit: the retry with the same Idempotency-Key answers 201 with the same credential, written once', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const body = { label: 'Food handler', expires_on: daysFromToday(90) };
    const headers = { 'Idempotency-Key': `crd-${crypto.randomUUID()}` };
    loseNextBatchAnswer({ writes: 'credentials' });
    expectError(await call('POST', path, { key: s.key, body, headers }), 500, 'INTERNAL-ERR');
    const stored = await rowsOf(s.shifterId!);
    expect(stored).toHaveLength(1);

    const retry = await call('POST', path, { key: s.key, body, headers });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body).toMatchObject({ id: stored[0]!.id, label: 'Food handler', expires_on: body.expires_on });
    const replay = await call('POST', path, { key: s.key, body, headers });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.id).toBe(stored[0]!.id);
    expect(await rowsOf(s.shifterId!)).toHaveLength(1);
    expect(await auditsOf(stored[0]!.id, 'credential.create')).toHaveLength(1);
  });

  it('a create whose batch fails writes nothing, and its retry creates one', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const headers = { 'Idempotency-Key': `crd-${crypto.randomUUID()}` };
    failNextBatch({ writes: 'credentials' });
    expectError(await call('POST', path, { key: s.key, body: { label: 'CPR' }, headers }), 500, 'INTERNAL-ERR');
    expect(await rowsOf(s.shifterId!)).toHaveLength(0);
    const retry = await call('POST', path, { key: s.key, body: { label: 'CPR' }, headers });
    expect(retry.status).toBe(201);
    expect(await rowsOf(s.shifterId!)).toHaveLength(1);
  });

  it(`concurrent creates cannot pass the cap of ${MAX_CREDENTIALS_PER_SHIFTER}`, async () => {
    const s = await makeUser({ shifter: true });
    const now = Date.now();
    const seeded = Array.from({ length: MAX_CREDENTIALS_PER_SHIFTER - 2 }, (_, i) => ({
      id: newId('credential'),
      shifter_id: s.shifterId!,
      label: `seeded ${i}`,
      created_at: now,
      updated_at: now,
    }));
    // D1 binds at most 100 parameters a statement.
    for (const rows of chunk(seeded, 15)) await db().insert(credentials).values(rows);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call('POST', base(s.shifterId!), { key: s.key, body: { label: `race ${i}` } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT-ERR');
    expect(await rowsOf(s.shifterId!)).toHaveLength(MAX_CREDENTIALS_PER_SHIFTER);
  });

  it('concurrent changes of one credential: each answered change is kept, and audited once', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'License' } })).body;
    const changes = [
      { label: 'Driving license' },
      { issuer: 'DMV' },
      { notes: 'class B' },
      { expires_on: daysFromToday(400) },
      { is_visible: false },
    ];
    const results = await Promise.all(changes.map((body) => call('PATCH', `${path}/${cred.id}`, { key: s.key, body })));
    const [row] = await db().select().from(credentials).where(eq(credentials.id, cred.id));
    const kept = results.filter((r) => r.status === 200);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const [i, r] of results.entries()) {
      if (r.status !== 200) {
        expectError(r, 409, 'CONFLICT-ERR');
        continue;
      }
      for (const [k, v] of Object.entries(changes[i]!)) expect(row![k as keyof typeof row]).toEqual(v);
    }
    expect(await auditsOf(cred.id, 'credential.update')).toHaveLength(kept.length);
  });

  it('concurrent deletes: one deletes and is audited, the others find nothing', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'Badge' } })).body;
    const results = await Promise.all(Array.from({ length: 5 }, () => call('DELETE', `${path}/${cred.id}`, { key: s.key })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 404, 'CREDENTIAL-NOT-FND-ERR');
    expect(await auditsOf(cred.id, 'credential.delete')).toHaveLength(1);
  });

  it('an upload whose D1 write fails leaves no object in R2 and the row as it was', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'License' } })).body;
    const prefix = `credentials/${s.shifterId}/${cred.id}/`;
    // First without a document, then over an existing one.
    failNextBatch({ writes: 'credentials' });
    expectError(await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PDF) }), 500, 'INTERNAL-ERR');
    expect(await r2Keys(prefix)).toEqual([]);
    expect((await call('GET', `${path}/${cred.id}`, { key: s.key })).body).toMatchObject({ has_document: false, document_url: null });

    expect((await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PDF) })).status).toBe(201);
    const [kept] = await r2Keys(prefix);
    failNextBatch({ writes: 'credentials' });
    expectError(await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PNG) }), 500, 'INTERNAL-ERR');
    expect(await r2Keys(prefix)).toEqual([kept]);
    const doc = await getFile(`${path}/${cred.id}/document`, s.key);
    expect(doc.headers.get('Content-Type')).toBe('application/pdf');
    expect(new Uint8Array(await doc.arrayBuffer())).toEqual(PDF);
    expect(await auditsOf(cred.id, 'credential.document')).toHaveLength(1);
  });

  it('an upload whose answer is lost after the commit is kept: the row points at the new object, the old one is gone', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const cred = (await call('POST', path, { key: s.key, body: { label: 'License' } })).body;
    const prefix = `credentials/${s.shifterId}/${cred.id}/`;
    expect((await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PDF) })).status).toBe(201);
    const [first] = await r2Keys(prefix);
    const lost = loseNextBatchAnswer({ writes: 'credentials' });
    const up = await call('POST', `${path}/${cred.id}/document`, { key: s.key, body: form(PNG) });
    expect(lost.fired()).toBe(true);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ document_type: 'image/png', document_size: PNG.byteLength });
    const keys = await r2Keys(prefix);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(first);
    const [row] = await db().select().from(credentials).where(eq(credentials.id, cred.id));
    expect(row!.document_key).toBe(keys[0]);
  });
});
