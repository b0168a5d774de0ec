import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, credentials, idempotencyKeys, users } from '../src/db/schema';
import type { AppBindings } from '../src/env';
import worker from '../src';
import { MULTIPART_OVERHEAD_BYTES } from '../src/lib/uploads';
import { BASE, type ApiResult, expectError } from './helpers/api';
import { db, makeUser } from './helpers/factory';
import { insertShift, makePair, MINUTE } from './helpers/shifts';

const KB = 1024;
const MB = 1024 * KB;
const JSON_LIMIT = 64 * KB; // BODY_LIMIT_BYTES's default
const FILE_LIMIT = 8 * MB; // clock photos and credential documents
const UPLOAD_CAP = FILE_LIMIT + MULTIPART_OVERHEAD_BYTES;
const CHUNK = 64 * KB;

/** A body produced chunk by chunk (so it has no length), counting what the Worker pulled. */
function counted(bytes: Uint8Array | null, chunk = CHUNK) {
  const seen = { pulled: 0 };
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (bytes === null) {
        // Endless: a client that never stops sending.
        seen.pulled += chunk;
        controller.enqueue(new Uint8Array(chunk).fill(0x20));
        return;
      }
      if (offset >= bytes.byteLength) return controller.close();
      const part = bytes.subarray(offset, offset + chunk);
      offset += part.byteLength;
      seen.pulled += part.byteLength;
      controller.enqueue(part);
    },
  });
  return { stream, seen };
}

const BOUNDARY = '----shiftmarket-test-boundary';

/** The bytes of a multipart body with one `file` field. */
function multipart(file: Uint8Array, name = 'doc.pdf', type = 'application/pdf'): Uint8Array {
  const enc = new TextEncoder();
  const head = enc.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${BOUNDARY}--\r\n`);
  const out = new Uint8Array(head.byteLength + file.byteLength + tail.byteLength);
  out.set(head);
  out.set(file, head.byteLength);
  out.set(tail, head.byteLength + file.byteLength);
  return out;
}

/** A PDF of exactly `size` bytes (the signature, then padding). */
function pdf(size: number): Uint8Array {
  const b = new Uint8Array(size).fill(0x20);
  b.set(new TextEncoder().encode('%PDF-1.7\n'));
  return b;
}

/** A PNG of exactly `size` bytes. */
function png(size: number): Uint8Array {
  const b = new Uint8Array(size);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return b;
}

interface Send {
  key?: string;
  body: BodyInit;
  headers?: Record<string, string>;
  vars?: Record<string, string>;
}

/** A POST straight to the Worker's fetch handler, with any body and headers (Content-Length included). */
async function post(path: string, opts: Send): Promise<ApiResult> {
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set('Authorization', `Bearer ${opts.key}`);
  const init = { method: 'POST', headers, body: opts.body, duplex: 'half' } as RequestInit;
  const ctx = createExecutionContext();
  const raw = await worker.fetch(new Request(new URL(path, BASE), init), { ...env, ...opts.vars } as AppBindings, ctx);
  await waitOnExecutionContext(ctx);
  const text = await raw.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: raw.status, headers: raw.headers, body, raw };
}

const json = { 'Content-Type': 'application/json' };
const form = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };

/** A business/create body of about `size` bytes (its name is the padding). */
function businessBody(size: number): string {
  const shell = JSON.stringify({ name: '', timezone: 'America/New_York', city_id: 1 });
  return JSON.stringify({ name: 'n'.repeat(size - shell.length), timezone: 'America/New_York', city_id: 1 });
}

async function businessCount(userId: string) {
  return (await db().select({ id: businesses.id }).from(businesses).where(eq(businesses.user_id, userId))).length;
}

async function credentialCase() {
  const s = await makeUser({ shifter: true });
  const base = `/v1/shifter/${s.shifterId}/credentials`;
  const created = await post(base, { key: s.key, body: JSON.stringify({ label: 'License' }), headers: json });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = (created.body as { id: string }).id;
  return { s, id, url: `${base}/${id}/document`, prefix: `credentials/${s.shifterId}/` };
}

const r2Keys = async (prefix: string) => (await env.UPLOADS.list({ prefix })).objects.map((o) => o.key);

/**
 * A GET or HEAD carrying a body, as the runtime's HTTP server delivers one from the network. The Fetch
 * API refuses to build such a request, so a POST with the body stands in for it, seen by the app
 * through a proxy that reports the method; everything else (URL, headers, body) is the real request's.
 */
async function bodied(method: 'GET' | 'HEAD', path: string, body: string, opts: { key?: string; headers?: Record<string, string> } = {}) {
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set('Authorization', `Bearer ${opts.key}`);
  const real = new Request(new URL(path, BASE), { method: 'POST', headers, body });
  const req = new Proxy(real, {
    get(target, prop) {
      if (prop === 'method') return method;
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const ctx = createExecutionContext();
  const raw = await worker.fetch(req, env as AppBindings, ctx);
  await waitOnExecutionContext(ctx);
  const text = await raw.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* an HTML page */
  }
  return { status: raw.status, headers: raw.headers, body: parsed, raw } as ApiResult;
}

describe('GET and HEAD with a body', () => {
  it('is 400 VALIDATION-ERR in the envelope (not a 500) on a public API route, a signed-in API route, the OpenAPI document and a page', async () => {
    const u = await makeUser();
    const cases: Array<[string, string | undefined]> = [
      ['/v1/help/articles', undefined],
      ['/v1/user/details', u.key],
      ['/v1/openapi.json', undefined],
      ['/login', undefined],
    ];
    for (const [path, key] of cases) {
      const get = await bodied('GET', path, '{"filter":"x"}', { key, headers: json });
      expect(expectError(get, 400, 'VALIDATION-ERR').message, path).toBe(
        'A GET request takes no body: send its input in the query string.',
      );
      const head = await bodied('HEAD', path, 'x'.repeat(10), { key });
      expect(head.status, path).toBe(400);
      expect(head.body, path).toBeNull();
    }
  });

  it('an empty body (Content-Length: 0) is no body: the route answers as usual', async () => {
    const u = await makeUser();
    const empty = { 'Content-Length': '0' };
    const res = await bodied('GET', '/v1/user/details', '', { key: u.key, headers: empty });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await bodied('GET', '/login', '', { headers: empty })).status).toBe(200);
  });
});

describe('JSON bodies: BODY_LIMIT_BYTES (64 KB)', () => {
  it('a body over the limit is 413 PAYLOAD-TOO-LARGE-ERR in the error envelope, and nothing runs', async () => {
    const u = await makeUser();
    const res = await post('/v1/business/create', { key: u.key, body: businessBody(JSON_LIMIT + 1), headers: json });
    expect(expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR').message).toBe('The request body must be at most 64 KB.');
    expect(await businessCount(u.userId)).toBe(0);
  });

  it('a body at the limit is read and validated as usual', async () => {
    const u = await makeUser();
    const res = await post('/v1/business/create', { key: u.key, body: businessBody(JSON_LIMIT), headers: json });
    expectError(res, 400, 'VALIDATION-ERR');
  });

  it('a chunked body with no Content-Length is counted as it arrives and reading stops at the cap', async () => {
    const u = await makeUser();
    const { stream, seen } = counted(null);
    const res = await post('/v1/business/create', { key: u.key, body: stream, headers: json });
    expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR');
    // The endless body was read only up to the limit (plus what was in flight).
    expect(seen.pulled).toBeLessThanOrEqual(JSON_LIMIT + 4 * CHUNK);
    expect(await businessCount(u.userId)).toBe(0);
  });

  it('a Content-Length that understates the body does not let it through', async () => {
    const u = await makeUser();
    const body = businessBody(200 * KB);
    const res = await post('/v1/business/create', { key: u.key, body, headers: { ...json, 'Content-Length': '100' } });
    expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR');
    expect(await businessCount(u.userId)).toBe(0);
  });

  it('a declared length over the limit is refused without reading the body', async () => {
    const u = await makeUser();
    const { stream, seen } = counted(null, KB);
    const res = await post('/v1/business/create', { key: u.key, body: stream, headers: { ...json, 'Content-Length': String(10 * MB) } });
    expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR');
    expect(seen.pulled).toBeLessThan(JSON_LIMIT / 4);
  });

  it('applies to anonymous callers on public routes', async () => {
    const email = `big-${crypto.randomUUID()}@example.test`;
    const body = JSON.stringify({ email, password: 'a long enough password', display_name: 'x'.repeat(JSON_LIMIT), shifter: {} });
    expectError(await post('/v1/auth/register', { body, headers: json }), 413, 'PAYLOAD-TOO-LARGE-ERR');
    const { stream } = counted(null);
    expectError(await post('/v1/auth/register', { body: stream, headers: json }), 413, 'PAYLOAD-TOO-LARGE-ERR');
    expect(await db().select({ id: users.id }).from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('is refused before the idempotency layer reads it: no record is written', async () => {
    const u = await makeUser();
    const key = `idem-${crypto.randomUUID()}`;
    const { stream } = counted(null);
    const res = await post('/v1/business/create', { key: u.key, body: stream, headers: { ...json, 'Idempotency-Key': key } });
    expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR');
    expect(await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.idem_key, key))).toHaveLength(0);
  });

  it('the limit is the operator setting BODY_LIMIT_BYTES', async () => {
    const u = await makeUser();
    const vars = { BODY_LIMIT_BYTES: '2048' };
    const over = await post('/v1/business/create', { key: u.key, body: businessBody(2049), headers: json, vars });
    expect(expectError(over, 413, 'PAYLOAD-TOO-LARGE-ERR').message).toBe('The request body must be at most 2 KB.');
    const under = await post('/v1/business/create', {
      key: u.key,
      body: JSON.stringify({ name: 'Small', timezone: 'America/New_York', city_id: 1 }),
      headers: json,
      vars,
    });
    expect(under.status, JSON.stringify(under.body)).toBe(201);
  });
});

describe('uploads: the file limit plus multipart overhead, counted as the body arrives', () => {
  it('an 8 MB document streamed without Content-Length is accepted', async () => {
    const { s, url, prefix } = await credentialCase();
    const { stream } = counted(multipart(pdf(FILE_LIMIT)));
    const res = await post(url, { key: s.key, body: stream, headers: form });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ has_document: true, document_type: 'application/pdf', document_size: FILE_LIMIT });
    expect(await r2Keys(prefix)).toHaveLength(1);
  });

  it('a chunked upload over the cap is 413, and nothing reaches R2 or the row', async () => {
    const { s, id, url, prefix } = await credentialCase();
    const body = multipart(pdf(9 * MB));
    const { stream, seen } = counted(body);
    const res = await post(url, { key: s.key, body: stream, headers: form });
    expect(expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR').message).toBe('The credential document must be at most 8 MB.');
    expect(seen.pulled).toBeLessThan(body.byteLength);
    expect(await r2Keys(prefix)).toEqual([]);
    const [row] = await db().select().from(credentials).where(eq(credentials.id, id));
    expect(row!.document_key).toBeNull();
  });

  it('an endless upload is cut at the cap', async () => {
    const { s, url, prefix } = await credentialCase();
    const { stream, seen } = counted(null);
    const res = await post(url, { key: s.key, body: stream, headers: form });
    expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR');
    expect(seen.pulled).toBeGreaterThan(FILE_LIMIT);
    expect(seen.pulled).toBeLessThanOrEqual(UPLOAD_CAP + 4 * CHUNK);
    expect(await r2Keys(prefix)).toEqual([]);
  });

  it('a lying Content-Length is caught', async () => {
    const { s, url, prefix } = await credentialCase();
    const body = multipart(pdf(9 * MB));
    const { stream, seen } = counted(body);
    const res = await post(url, { key: s.key, body: stream, headers: { ...form, 'Content-Length': '1000' } });
    expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR');
    // Refused by counting, not by the file check after a full read.
    expect(seen.pulled).toBeLessThanOrEqual(UPLOAD_CAP + 4 * CHUNK);
    expect(await r2Keys(prefix)).toEqual([]);
  });

  it('a clock photo streamed over the cap is 413, and nothing is stored', async () => {
    const { biz, sh } = await makePair({ business: { require_clock_photo: true } });
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 30 * MINUTE });
    const { stream } = counted(multipart(png(9 * MB), 'photo.png', 'image/png'));
    const res = await post(`/v1/shift_request/${shift.id}/clock_photo?side=in`, { key: sh.key, body: stream, headers: form });
    expect(expectError(res, 413, 'PAYLOAD-TOO-LARGE-ERR').message).toBe('The clock photo must be at most 8 MB.');
    expect(await r2Keys(`clock-photos/${shift.id}/`)).toEqual([]);
  });

  it('an oversized upload never reaches the idempotency layer', async () => {
    const { s, url } = await credentialCase();
    const key = `idem-${crypto.randomUUID()}`;
    const { stream } = counted(multipart(pdf(9 * MB)));
    expectError(await post(url, { key: s.key, body: stream, headers: { ...form, 'Idempotency-Key': key } }), 413, 'PAYLOAD-TOO-LARGE-ERR');
    expect(await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.idem_key, key))).toHaveLength(0);
  });

  it('the upload cap is only for upload routes and signed-in callers; everything else gets the JSON limit', async () => {
    const u = await makeUser();
    const bigForm = multipart(pdf(1 * MB));
    // A multipart body to a route without an upload guard.
    expectError(
      await post('/v1/business/create', { key: u.key, body: counted(bigForm).stream, headers: form }),
      413,
      'PAYLOAD-TOO-LARGE-ERR',
    );
    // An anonymous body to an upload route is never read past the general limit.
    const { url } = await credentialCase();
    const { stream, seen } = counted(bigForm);
    expectError(await post(url, { body: stream, headers: form }), 413, 'PAYLOAD-TOO-LARGE-ERR');
    expect(seen.pulled).toBeLessThanOrEqual(JSON_LIMIT + 4 * CHUNK);
  });
});
