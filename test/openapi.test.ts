import { $RefParser } from '@apidevtools/json-schema-ref-parser';
// swagger-parser's entry point is CommonJS that require()s the ES-module-only ref parser, which the
// workerd test runtime cannot load. Its validators load fine, so `validateOpenApi` below runs
// exactly what `SwaggerParser.validate` runs for OpenAPI 3.x: dereference (circular refs ignored),
// then the JSON-schema check against the official OpenAPI 3.0/3.1 schemas (its spec validator only
// covers Swagger 2.0). The extra structural checks swagger-parser leaves out are asserted below.
// @ts-expect-error: the validator module ships without type declarations
import validateSchema from '@apidevtools/swagger-parser/lib/validators/schema.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/lib/errors';
import { CONNECTION_STATUSES } from '../src/services/connections';
import { SHIFT_STATUS } from '../src/services/kernel';
import { call, expectError } from './helpers/api';

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** The only operations open without credentials. */
const PUBLIC_OPERATIONS = new Set([
  'POST /v1/auth/register',
  'POST /v1/auth/verify_email',
  'POST /v1/auth/resend_verification',
  'POST /v1/auth/login',
  'POST /v1/auth/login/two_factor',
  'POST /v1/auth/login/two_factor/cancel',
  'POST /v1/auth/password_reset/request',
  'POST /v1/auth/password_reset/confirm',
  // The help center's content is readable without an account (docs/decisions/help-center.md).
  'POST /v1/help/search',
  'GET /v1/help/articles',
  'GET /v1/help/articles/{id}',
  'GET /v1/help/videos',
  'GET /v1/help/videos/{id}',
  // Stripe calls it; the Stripe-Signature header is its authentication (docs/decisions/payments.md).
  'POST /v1/finance/stripe/webhook',
]);

/** The partner OAuth token route: client credentials (HTTP Basic or the form), and RFC 6749 errors for 400/401. */
const OAUTH_TOKEN_OPERATIONS = new Set(['POST /v1/partner/oauth/token']);

let doc: Json;

interface Operation {
  id: string;
  path: string;
  method: string;
  op: Json;
}

function operations(d: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(d.paths ?? {})) {
    for (const method of METHODS) {
      if (item[method]) out.push({ id: `${method.toUpperCase()} ${path}`, path, method, op: item[method] });
    }
  }
  return out;
}

/** Follows a local `$ref` (`#/components/...`) to the object it names. */
function deref(d: Json, node: Json | undefined): Json | undefined {
  let cur = node;
  for (let i = 0; cur?.$ref && i < 10; i++) {
    const ref: string = cur.$ref;
    expect(ref.startsWith('#/')).toBe(true);
    cur = ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>((o, k) => o?.[k.replaceAll('~1', '/').replaceAll('~0', '~')], d);
  }
  return cur;
}

/** SwaggerParser.validate for an OpenAPI 3.x object: throws on a dangling $ref or a schema violation. */
async function validateOpenApi(api: Json): Promise<Json> {
  const parser = new $RefParser();
  await parser.dereference(structuredClone(api), { dereference: { circular: 'ignore' } });
  (validateSchema as (api: unknown) => void)(parser.schema);
  return parser.schema as Json;
}

beforeAll(async () => {
  const res = await call('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  doc = res.body;
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.x document', async () => {
    expect(doc.openapi).toMatch(/^3\.[01]\.\d+$/);
    const api = await validateOpenApi(doc);
    expect(api.info.title).toBe('Shiftmarket API');
  });

  it('is checked by a validator that does reject broken documents', async () => {
    const badResponses = structuredClone(doc);
    badResponses.paths['/v1/user/details'].get.responses = { ok: 'yes' };
    await expect(validateOpenApi(badResponses)).rejects.toThrow();
    const danglingRef = structuredClone(doc);
    danglingRef.paths['/v1/user/details'].get.responses['200'] = { $ref: '#/components/responses/Nope' };
    await expect(validateOpenApi(danglingRef)).rejects.toThrow();
  });

  it('declares every path template parameter as a required path parameter, and no operation id twice', () => {
    const ids = new Set<string>();
    for (const { id, path, op } of operations(doc)) {
      const declared = [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])]
        .map((p: Json) => deref(doc, p)!)
        .filter((p) => p.in === 'path');
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(declared.map((p) => p.name).sort(), `${id}: path parameters`).toEqual(templated.sort());
      for (const p of declared) expect(p.required, `${id}: path parameter ${p.name} must be required`).toBe(true);
      if (op.operationId) {
        expect(ids.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        ids.add(op.operationId);
      }
    }
  });

  it('gives every operation a stable camelCase operationId, unique across the document', () => {
    const seen = new Map<string, string>();
    for (const { id, op } of operations(doc)) {
      expect(typeof op.operationId, `${id} has no operationId`).toBe('string');
      expect(op.operationId, `${id}: operationId must be camelCase`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(seen.get(op.operationId), `${id} and ${seen.get(op.operationId)} share operationId ${op.operationId}`).toBeUndefined();
      seen.set(op.operationId, id);
    }
    expect(seen.size).toBe(operations(doc).length);
  });

  it('keeps the operationIds generated clients are already named from', () => {
    const byId = new Map(operations(doc).map((o) => [o.id, o.op.operationId]));
    expect(Object.fromEntries([...byId].filter(([id]) => id.includes('/shift_request/') || id.includes('/labor_costs')))).toMatchObject({
      'POST /v1/shift_request/send_request': 'sendShiftRequest',
      'POST /v1/shift_request/list_of_requests': 'listShiftRequests',
      'POST /v1/shift_request/list_of_broadcast_requests': 'listBroadcastRequests',
      'GET /v1/shift_request/conflicts': 'getShiftConflicts',
      'POST /v1/shift_request/{id}/claim': 'claimShiftRequest',
      'GET /v1/business/{id}/labor_costs': 'getLaborCosts',
    });
  });

  it('gives response fields their closed sets, from the constants the code uses', () => {
    const schema = (name: string) => doc.components.schemas[name];
    /** A property of a named schema, also when it is an extension (allOf of the base and the extra fields). */
    const prop = (s: Json, field: string): Json | undefined =>
      s.properties?.[field] ?? (s.allOf ?? []).map((part: Json) => prop(deref(doc, part)!, field)).find(Boolean);
    const enumOf = (name: string, field: string) => deref(doc, prop(schema(name), field))?.enum;
    expect(enumOf('ShiftRequest', 'request_status')).toEqual(Object.values(SHIFT_STATUS));
    expect(schema('ShiftRequest').properties.request_status.description).toContain('4 superseded');
    expect(enumOf('ShiftRequest', 'status')).toEqual(Object.keys(SHIFT_STATUS));
    for (const flag of ['is_broadcast', 'is_flexible', 'is_noshow']) expect(enumOf('ShiftRequest', flag), flag).toEqual([0, 1]);
    expect(enumOf('ShiftRequest', 'cancelled_by')).toEqual(['business', 'shifter', 'system', null]);
    for (const flag of ['is_broadcast', 'is_flexible', 'is_active']) expect(enumOf('ShiftTemplate', flag), flag).toEqual([0, 1]);
    expect(enumOf('Connection', 'status')).toEqual([...CONNECTION_STATUSES]);
    expect(enumOf('ListedConnection', 'side')).toEqual(['business', 'shifter']);
  });

  it('keeps request fields with a default optional for generated clients (no `default` on a request-only component)', () => {
    // openapi-typescript makes a property with `default` required, except in inline request bodies:
    // a named request body keeps its default in `x-default` and its description instead.
    const schemas = doc.components.schemas as Record<string, Json>;
    const moved: string[] = [];
    for (const [name, schema] of Object.entries(schemas)) {
      const required = new Set<string>(schema.required ?? []);
      for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
        if ('x-default' in prop) {
          moved.push(`${name}.${key}`);
          expect(prop.default, `${name}.${key}`).toBeUndefined();
          expect(prop.description, `${name}.${key}`).toContain(`Default: ${JSON.stringify(prop['x-default'])}.`);
        }
        if ('default' in prop && !required.has(key)) {
          // Only a schema a response (or a parameter, or a webhook) also uses keeps its `default`.
          expect(JSON.stringify({ paths: doc.paths, webhooks: doc.webhooks }), `${name}.${key}`).toContain(
            `"#/components/schemas/${name}"`,
          );
        }
      }
    }
    for (const field of [
      'ListShiftRequests.limit',
      'ListBroadcasts.sort_by_relevance',
      'CreateCounterRule.is_active',
      'HelpSearchRequest.limit',
    ])
      expect(moved).toContain(field);
    expect(schemas.ListShiftRequests!.properties.limit['x-default']).toBe(50);
  });

  it('declares the bearer security scheme', () => {
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes the API routes and only versioned paths', () => {
    const ids = operations(doc).map((o) => o.id);
    for (const expected of [
      ...PUBLIC_OPERATIONS,
      'POST /v1/auth/logout',
      'GET /v1/user/details',
      'GET /v1/user/api_key',
      'POST /v1/user/api_key/regenerate',
      'GET /v1/shifter/of_user',
      'POST /v1/shifter/create',
      'GET /v1/business/of_user',
      'POST /v1/business/create',
      'GET /v1/business/{id}/teammates',
      'POST /v1/business/{id}/teammates',
      'PUT /v1/business/{id}/teammates/{user_id}',
      'POST /v1/admin/admins',
      // Spec 4.2, 4.3, 4.4, 4.5 (the paths the spec names, exactly as written)
      'POST /v1/shift_request/list_of_requests',
      'POST /v1/shift_request/list_of_broadcast_requests',
      'GET /v1/shift_request/conflicts',
      'POST /v1/shift_request/send_request',
      'PUT /v1/shift_request/change_request',
      'POST /v1/shift_request/{id}/clock_photo',
      'POST /v1/shift_request/{id}/clock_in',
      'POST /v1/shift_request/{id}/clock_out',
      'POST /v1/shift_request/{id}/claim',
      'POST /v1/shift_request/{id}/cancel',
      'PUT /v1/business/update_settings',
      'GET /v1/business/{id}/labor_costs',
      'PUT /v1/business/{id}/weekly_labor_budget',
      'GET /v1/business/{business_id}/crew/analytics',
      'POST /v1/request_authorization/list_of_requests',
      'GET /v1/going_rate',
      'GET /v1/shift_templates/by_business/{id}',
      'POST /v1/shift_templates/create',
      'PUT /v1/shift_templates/{id}',
      'DELETE /v1/shift_templates/{id}',
      'POST /v1/shift_templates/{id}/generate',
      'GET /v1/shifter/{id}/earnings',
      'PUT /v1/shifter/{id}/earnings_goal',
      'GET /v1/shifter/{id}/mileage',
      'POST /v1/shifter/{id}/mileage',
      'GET /v1/shifter/{id}/counter_rules',
      'POST /v1/shifter/{id}/counter_rules',
      'GET /v1/shifter/{id}/credentials',
      'POST /v1/shifter/{id}/credentials',
    ]) {
      expect(ids).toContain(expected);
    }
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/v1\//);
    expect(Object.keys(doc.paths)).not.toContain('/internal/demo/seed');
  });

  it('gives every operation a summary', () => {
    for (const { id, op } of operations(doc)) {
      expect(typeof op.summary === 'string' && op.summary.trim().length > 0, `${id} has no summary`).toBe(true);
    }
  });

  it('secures every operation with bearerAuth except the public routes and the partner routes', () => {
    for (const { id, path, op } of operations(doc)) {
      const schemes = (op.security ?? doc.security ?? []).flatMap((req: Json) => Object.keys(req));
      if (PUBLIC_OPERATIONS.has(id)) {
        // Declared, not inherited: generators read an absent `security` as "use the global default".
        expect(op.security, `${id} should declare security: []`).toEqual([]);
      } else if (OAUTH_TOKEN_OPERATIONS.has(id)) {
        expect(schemes, id).toEqual(['partnerClientBasic']);
      } else if (schemes.includes('partnerApiKey')) {
        // Partner routes take partner credentials only: an x-api-key or a partner OAuth token.
        expect(path.startsWith('/v1/partner/'), `${id}: partner credentials outside /v1/partner/`).toBe(true);
        expect(schemes, id).toEqual(['partnerApiKey', 'partnerOAuth']);
        expect(op.responses['401'], `${id} is secured but does not document 401`).toBeDefined();
      } else {
        expect(schemes, `${id} should require bearerAuth`).toContain('bearerAuth');
        expect(op.responses['401'], `${id} is secured but does not document 401`).toBeDefined();
      }
    }
  });

  it('documents 400 and 500 on every operation', () => {
    for (const { id, op } of operations(doc)) {
      expect(op.responses['400'], `${id} does not document 400`).toBeDefined();
      expect(op.responses['500'], `${id} does not document 500`).toBeDefined();
    }
  });

  it('lists, for every documented error response, exactly codes the code table answers with that status', () => {
    let checked = 0;
    for (const { id, op } of operations(doc)) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (Number(status) < 400) continue;
        const where = `${id} → ${status}`;
        const res = deref(doc, response)!;
        if (OAUTH_TOKEN_OPERATIONS.has(id) && (status === '400' || status === '401')) {
          // RFC 6749 §5.2: { error, error_description } with the RFC's error codes.
          const oauth = deref(doc, res.content?.['application/json']?.schema);
          expect(deref(doc, oauth?.properties?.error)?.enum, where).toEqual(expect.arrayContaining(['invalid_request', 'invalid_client']));
          expect(oauth?.required ?? [], where).toEqual(expect.arrayContaining(['error', 'error_description']));
          continue;
        }
        const schema = deref(doc, res.content?.['application/json']?.schema);
        expect(schema, `${where} has no JSON schema`).toBeDefined();
        const errorObj = deref(doc, schema!.properties?.error);
        const code = deref(doc, errorObj?.properties?.code);
        expect(Array.isArray(code?.enum) && code!.enum.length > 0, `${where}: error.code is not an enum`).toBe(true);
        for (const c of code!.enum as string[]) {
          expect(c in ERROR_CODES, `${where}: ${c} is not in the code table`).toBe(true);
          expect(ERROR_CODES[c as keyof typeof ERROR_CODES].status, `${where}: ${c} is answered with another status`).toBe(Number(status));
        }
        expect(schema!.required ?? []).toEqual(expect.arrayContaining(['error', 'request_id']));
        expect(errorObj!.required ?? []).toEqual(expect.arrayContaining(['code', 'message']));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('documents the auth error codes where they can occur', () => {
    for (const { id, op } of operations(doc)) {
      const codesOf = (status: string) =>
        (deref(doc, deref(doc, op.responses[status])?.content?.['application/json']?.schema)?.properties?.error?.properties?.code?.enum ??
          []) as string[];
      expect(codesOf('500'), id).toContain('INTERNAL-ERR');
      if (OAUTH_TOKEN_OPERATIONS.has(id)) continue; // its 400 and 401 are RFC 6749's (above)
      expect(codesOf('400'), id).toContain('VALIDATION-ERR');
      if (!PUBLIC_OPERATIONS.has(id)) expect(codesOf('401'), id).toContain('AUTH-REQ-ERR');
    }
  });
});

describe('the references', () => {
  it('serves the interactive reference at /v1/docs', async () => {
    const res = await call('GET', '/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.body).toContain('/v1/openapi.json');
  });

  it('serves the read-only reference at /v1/redoc', async () => {
    const res = await call('GET', '/v1/redoc');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.body).toContain('/v1/openapi.json');
  });

  /** Every URL an HTML page loads or links (src, href, CSS url(), bare absolute URLs in inline code). */
  function urlsIn(page: string): string[] {
    const attrs = [...page.matchAll(/\b(?:src|href|spec-url|action)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]!);
    const css = [...page.matchAll(/url\(\s*["']?([^"')]+)/gi)].map((m) => m[1]!);
    const bare = [...page.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*/gi)].map((m) => m[0]);
    return [...attrs, ...css, ...bare].filter((u) => /^(?:[a-z]+:)?\/\//i.test(u) || u.startsWith('/'));
  }

  for (const path of ['/v1/docs', '/v1/redoc']) {
    it(`${path} loads its viewer from this origin only, with a policy that says so`, async () => {
      const res = await call('GET', path);
      expect(res.status).toBe(200);
      const page = res.body as string;
      const urls = urlsIn(page);
      const scripts = [...page.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/^\/v1\/docs\/assets\/[\w.@-]+\.js$/);
      for (const u of urls) expect(u, `${path} references ${u}`).toMatch(/^\/(?!\/)/);
      const csp = res.headers.get('Content-Security-Policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'(;|$)/);
      expect(csp).toContain("connect-src 'self'");
    });
  }

  it('serves each viewer bundle as JavaScript with a year-long immutable cache', async () => {
    const bundles: string[] = [];
    for (const path of ['/v1/docs', '/v1/redoc']) {
      const page = (await call('GET', path)).body as string;
      bundles.push(...[...page.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!));
    }
    expect(bundles.find((b) => b.includes('scalar'))).toBeDefined();
    expect(bundles.find((b) => b.includes('redoc'))).toBeDefined();
    for (const url of bundles) {
      const res = await call('GET', url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('Content-Type'), url).toMatch(/^text\/javascript/);
      expect(res.headers.get('Cache-Control'), url).toBe('public, max-age=31536000, immutable');
      const js = res.body as string;
      expect(js.length, url).toBeGreaterThan(500_000);
      // The viewer itself, not an HTML error page.
      expect(js.trimStart().startsWith('<'), url).toBe(false);
      expect(js).toMatch(url.includes('scalar') ? /createApiReference/ : /redoc/i);
    }
  });

  it('serves nothing else from the assets folder', async () => {
    for (const path of ['/v1/docs/assets/manifest.json', '/v1/docs/assets/redoc.standalone.js', '/v1/docs/assets/..%2Fwrangler.toml']) {
      expectError(await call('GET', path), 404, 'NOT-FOUND-ERR');
    }
  });

  it('no longer serves the retired root paths', async () => {
    for (const path of ['/docs', '/redoc', '/openapi.json']) {
      expectError(await call('GET', path), 404, 'NOT-FOUND-ERR');
    }
  });
});
