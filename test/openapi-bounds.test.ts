import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from './helpers/api';
import { makeUser } from './helpers/factory';

// Security 10: every input has a documented bound. The walk runs over /v1/openapi.json itself, so a
// route added tomorrow with an unbounded string, array or page size fails here the day it is added.

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Formats whose values are short by construction (a file's size is bounded by the upload guard). */
const BOUNDED_FORMATS = new Set(['binary', 'date', 'date-time', 'time', 'uuid']);
/** D1 binds at most 100 parameters per statement; an array filter must stay well under it. */
const D1_BOUND_PARAMETERS = 100;

let doc: Json;

beforeAll(async () => {
  const res = await call('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});

function resolve(d: Json, node: Json): Json {
  let cur = node;
  for (let i = 0; cur?.$ref && i < 10; i++) {
    cur = (cur.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((o, k) => o?.[k.replaceAll('~1', '/').replaceAll('~0', '~')], d);
  }
  return cur;
}

const typesOf = (s: Json): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** Every unbounded input under `schema`, as "where: what" lines. */
function unbounded(d: Json, schema: Json, where: string, name: string, seen = new Set<Json>()): string[] {
  const s = resolve(d, schema);
  if (!s || seen.has(s)) return [];
  seen.add(s);
  const out: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, sub] of (s[key] ?? []).entries()) out.push(...unbounded(d, sub, `${where}/${key}[${i}]`, name, seen));
  }
  const types = typesOf(s);
  const closed = Array.isArray(s.enum) || 'const' in s;
  if (types.includes('string') && !closed && !BOUNDED_FORMATS.has(s.format) && typeof s.maxLength !== 'number') {
    out.push(`${where}: string without maxLength`);
  }
  if (types.includes('array')) {
    if (typeof s.maxItems !== 'number') out.push(`${where}: array without maxItems`);
    else if (s.maxItems >= D1_BOUND_PARAMETERS)
      out.push(`${where}: maxItems ${s.maxItems} is not under D1's ${D1_BOUND_PARAMETERS} bound parameters`);
    if (s.items) out.push(...unbounded(d, s.items, `${where}[]`, name, seen));
  }
  if (name === 'limit' && (types.includes('integer') || types.includes('number')) && typeof s.maximum !== 'number') {
    out.push(`${where}: limit without maximum`);
  }
  for (const [prop, sub] of Object.entries<Json>(s.properties ?? {})) out.push(...unbounded(d, sub, `${where}.${prop}`, prop, seen));
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    out.push(...unbounded(d, s.additionalProperties, `${where}.*`, '*', seen));
  }
  return out;
}

/** Walks the request side of every operation: parameters (path, query, header) and request bodies. */
function requestFindings(d: Json): { findings: string[]; inputs: number } {
  const findings: string[] = [];
  let inputs = 0;
  for (const [path, item] of Object.entries<Json>(d.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const id = `${method.toUpperCase()} ${path}`;
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x: Json) => resolve(d, x))) {
        inputs++;
        findings.push(...unbounded(d, p.schema ?? {}, `${id} ${p.in} ${p.name}`, p.name));
      }
      const body = op.requestBody ? resolve(d, op.requestBody) : undefined;
      for (const [type, media] of Object.entries<Json>(body?.content ?? {})) {
        inputs++;
        findings.push(...unbounded(d, media.schema ?? {}, `${id} body (${type})`, ''));
      }
    }
  }
  return { findings, inputs };
}

describe('bounded inputs in /v1/openapi.json', () => {
  it('bounds every request string, array and page size', () => {
    const { findings, inputs } = requestFindings(doc);
    expect(inputs).toBeGreaterThan(50);
    expect(findings).toEqual([]);
  });

  it('is a walk that does catch an unbounded input', () => {
    const broken = structuredClone(doc);
    const op = broken.paths['/v1/shift_request/list_of_requests'].post;
    const schema = resolve(broken, op.requestBody.content['application/json'].schema);
    const cursor = resolve(broken, schema.properties.cursor);
    delete cursor.maxLength;
    for (const alt of cursor.anyOf ?? []) delete alt.maxLength;
    delete resolve(broken, schema.properties.limit).maximum;
    const statusArray = resolve(broken, schema.properties.status).anyOf.find((s: Json) => s.type === 'array');
    statusArray.maxItems = 500;
    const conflicts = broken.paths['/v1/shift_request/conflicts'].get.parameters.find((p: Json) => p.name === 'shifter_id');
    delete conflicts.schema.maxLength;
    const found = requestFindings(broken).findings.join('\n');
    expect(found).toContain('limit without maximum');
    expect(found).toContain('POST /v1/shift_request/list_of_requests body (application/json).cursor: string without maxLength');
    expect(found).toContain("maxItems 500 is not under D1's 100 bound parameters");
    expect(found).toContain('GET /v1/shift_request/conflicts query shifter_id: string without maxLength');
  });

  it('documents the list filters under the D1 bound-parameter limit', () => {
    const schema = resolve(doc, doc.paths['/v1/shift_request/list_of_requests'].post.requestBody.content['application/json'].schema);
    const statusArray = resolve(doc, schema.properties.status).anyOf.find((s: Json) => s.type === 'array');
    expect(statusArray.maxItems).toBeLessThan(D1_BOUND_PARAMETERS);
    expect(resolve(doc, schema.properties.limit).maximum).toBe(200);
  });
});

describe('bounded inputs at the edge', () => {
  it('refuses an over-long path id, query string and array filter with VALIDATION-ERR', async () => {
    const user = await makeUser({ shifter: true });
    const longId = `sr_${'x'.repeat(200)}`;
    expectError(await call('GET', `/v1/shift_request/${longId}`, { key: user.key }), 400, 'VALIDATION-ERR');
    expectError(
      await call('GET', '/v1/shift_request/conflicts', {
        key: user.key,
        query: { shifter_id: longId, date: '2030-01-01', shift_in: '09:00', shift_out: '17:00' },
      }),
      400,
      'VALIDATION-ERR',
    );
    expectError(
      await call('POST', '/v1/shift_request/list_of_requests', { key: user.key, body: { status: Array.from({ length: 101 }, () => 1) } }),
      400,
      'VALIDATION-ERR',
    );
  });
});
