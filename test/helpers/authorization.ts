import { env, exports } from 'cloudflare:workers';
import { ERROR_CODES } from '../../src/lib/errors';
import { type ApiResult, BASE } from './api';
import type { TestUser } from './factory';
import type { VictimWorld } from './fixtures';

/** The parts of an OpenAPI 3 document this walk reads. */
interface Ref {
  $ref?: string;
}
interface SchemaNode extends Ref {
  properties?: Record<string, unknown>;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
}
interface ParameterNode extends Ref {
  name: string;
  in: string;
}
type SecurityRequirement = Record<string, string[]>;
interface OperationNode {
  operationId?: string;
  security?: SecurityRequirement[];
  parameters?: ParameterNode[];
  requestBody?: Ref & { content?: Record<string, { schema?: SchemaNode }> };
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type PathItem = { parameters?: ParameterNode[] } & Partial<Record<(typeof METHODS)[number], OperationNode>>;
export interface OpenApiDoc {
  security?: SecurityRequirement[];
  paths: Record<string, PathItem>;
}

/** The three callers every operation that takes an id must turn away (unless a case allows one). */
export const CALLERS = ['stranger', 'suspendedTeammate', 'otherParty'] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * Whose resource a case attacks. business: the victim business (its owner acts; the other party is
 * the connected crew member). shifter: the crew member's (they act; the other party is the owner
 * of the business they are connected to).
 */
export type Side = 'business' | 'shifter';

export interface Req {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  form?: () => FormData;
}

export interface Reread {
  as: (w: VictimWorld) => TestUser;
  method: string;
  path: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

export interface Case {
  /** What is attacked, in words (shown in failures). */
  target: string;
  side: Side;
  /** Fills the operation's ids and body for one caller; null skips that caller (e.g. no own profile to mix in). */
  req: (w: VictimWorld, caller: TestUser) => Req | null;
  /** Callers with a legitimate right: on a read they are called and must succeed (without `hide`); on a write they are not called. */
  allow?: Caller[];
  /** Replaces the default owner (e.g. the invitee of an invitation). */
  owner?: (w: VictimWorld) => TestUser;
  /** Replaces the default other party (e.g. the applicant of a pending connection request). */
  other?: (w: VictimWorld) => TestUser;
  /** Text an allowed caller's answer must contain (what they are entitled to see is still there). */
  show?: (w: VictimWorld, caller: Caller) => string[];
  /** Text no answer to this caller may contain (hidden rows, other businesses' shifts). */
  hide?: (w: VictimWorld, caller: Caller) => string[];
  /**
   * A list filter naming someone else's business or shifter: an empty answer (nothing of `hide` in
   * it) is accepted besides 403/404, since a filter only narrows the caller's own view.
   */
  filter?: boolean;
  /** False where no one in the fixture may succeed (admin-only operations). */
  control?: boolean;
  /** Read before and after the attempts (with the owner's key) and compared: nothing may have changed. */
  reread?: (w: VictimWorld) => Reread;
}

export type Access =
  /** No credentials needed (the document declares no bearer requirement). */
  | 'public'
  /** Acts only on the caller's own account. */
  | 'self'
  /** Any signed-in user, about no one in particular (market figures). */
  | 'signed-in'
  /** Only an admin. */
  | 'admin'
  /** Acts on a business or a shifter's records: every id-taking case is attacked. */
  | 'resource'
  /**
   * A partner route (/v1/partner/*, partner credentials only), run by `runPartnerCase`: no person's
   * key reaches it, a partner client linked elsewhere is turned away from the victim business, and
   * the client the victim business linked succeeds on reads.
   */
  | 'partner';

export interface Entry {
  access: Access;
  /** A POST/PUT that only reads (lists); GET operations are reads anyway. */
  read?: boolean;
  cases?: Case[];
  /** Id-like fields deliberately not attacked, with the reason. */
  notAttacked?: Record<string, string>;
}

export interface Operation {
  key: string;
  method: string;
  path: string;
  operationId: string | undefined;
  op: OperationNode;
}

export function operations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) out.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operationId: op.operationId, op });
    }
  }
  return out;
}

/** Follows a local `$ref` (`#/components/...`) to the node it names. */
export function deref<T extends Ref>(doc: OpenApiDoc, node: T | undefined): T | undefined {
  let cur: unknown = node;
  for (let i = 0; i < 10; i++) {
    const ref = (cur as Ref | undefined)?.$ref;
    if (typeof ref !== 'string') break;
    cur = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  }
  return cur as T | undefined;
}

/** True when the operation needs no bearer credential (security: [] or none declared anywhere). */
export function isPublic(doc: OpenApiDoc, o: Operation): boolean {
  const security = o.op.security ?? doc.security;
  return !security || security.length === 0 || security.some((s) => Object.keys(s).length === 0);
}

/** Reference data keeps small integer ids (roles, places, currencies): naming one reaches no one's data. */
const REFERENCE_IDS = new Set(['city_id', 'state_id', 'country_id', 'shiftrole_id', 'currency_id']);
const isIdLike = (name: string) => name === 'id' || (name.endsWith('_id') && !REFERENCE_IDS.has(name));

function propertyNames(doc: OpenApiDoc, schema: SchemaNode | undefined, depth = 0): string[] {
  const s = deref(doc, schema);
  if (!s || depth > 5) return [];
  const nested = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((x) => propertyNames(doc, x, depth + 1));
  return [...Object.keys(s.properties ?? {}), ...nested];
}

/** The id-like inputs of an operation: every path parameter, and id-like query parameters and body fields. */
export function idFields(doc: OpenApiDoc, o: Operation): string[] {
  const params = [...(doc.paths[o.path]?.parameters ?? []), ...(o.op.parameters ?? [])].flatMap((p) => deref(doc, p) ?? []);
  const fields = params.filter((p) => p.in === 'path' || (p.in === 'query' && isIdLike(p.name))).map((p) => p.name);
  for (const media of Object.values(deref(doc, o.op.requestBody)?.content ?? {})) {
    fields.push(...propertyNames(doc, media.schema).filter(isIdLike));
  }
  return [...new Set(fields)];
}

/** The input names a request fills. */
export function filledFields(r: Req): string[] {
  return [
    ...Object.keys(r.params ?? {}),
    ...Object.keys(r.query ?? {}),
    ...(r.body && typeof r.body === 'object' ? Object.keys(r.body) : []),
  ];
}

export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`${template}: the case does not fill the path parameter {${name}}`);
    return encodeURIComponent(v);
  });
}

/**
 * Calls the Worker like a client. JSON answers are parsed; any other answer (a document, a photo) is
 * summed up as its type, size and SHA-256, so binary bodies are compared without decoding them as text.
 */
export async function request(
  method: string,
  path: string,
  opts: { key: string; query?: Req['query']; body?: unknown; as?: 'person' | 'partner' },
): Promise<ApiResult> {
  const url = new URL(path, BASE);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers = new Headers(opts.as === 'partner' ? { 'x-api-key': opts.key } : { Authorization: `Bearer ${opts.key}` });
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set('Content-Type', 'application/json');
  }
  const raw = await exports.default.fetch(new Request(url, { method, headers, body }));
  const type = raw.headers.get('Content-Type') ?? '';
  let parsed: unknown = null;
  if (type.startsWith('application/json')) parsed = await raw.json();
  else {
    const bytes = await raw.arrayBuffer();
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
    parsed = bytes.byteLength ? `${type} ${bytes.byteLength} bytes sha256:${digest}` : null;
  }
  return { status: raw.status, headers: raw.headers, body: parsed, raw };
}

/** Sends a case's request with a person's key, or (`as: 'partner'`) with a partner client's x-api-key. */
export async function send(o: Operation, r: Req, key: string, as: 'person' | 'partner' = 'person'): Promise<ApiResult> {
  return request(o.method, buildPath(o.path, r.params), { key, query: r.query, body: r.form ? r.form() : r.body, as });
}

const snippet = (res: ApiResult) => `${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;

/** Why an answer is not a proper denial (403 or 404 in the one error envelope), or null. */
export function notDenied(res: ApiResult): string | null {
  if (res.status !== 403 && res.status !== 404) return `answered ${snippet(res)}`;
  const err = res.body?.error;
  const code = err?.code as keyof typeof ERROR_CODES | undefined;
  if (!code || !(code in ERROR_CODES) || typeof err.message !== 'string' || typeof res.body.request_id !== 'string') {
    return `not the error envelope: ${snippet(res)}`;
  }
  if (ERROR_CODES[code].status !== res.status) return `code ${code} belongs to ${ERROR_CODES[code].status}, answered ${res.status}`;
  return null;
}

export const isSuccess = (res: ApiResult) => res.status >= 200 && res.status < 300;

/** The texts of `hide` an answer contains. */
export function leaked(res: ApiResult, hide: string[]): string[] {
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  return hide.filter((h) => text?.includes(h));
}

export async function reread(w: VictimWorld, spec: Reread): Promise<{ status: number; body: unknown }> {
  const res = await request(spec.method, spec.path, { key: spec.as(w).key, query: spec.query, body: spec.body });
  return { status: res.status, body: res.body };
}

/** Victim-side tables and R2 objects, to show that no attempt changed anything. */
const SNAPSHOT_TABLES = [
  'users',
  'admins',
  'shifters',
  'businesses',
  'teammates',
  'request_authorizations',
  'shift_requests',
  'shift_templates',
  'mileage_entries',
  'counter_rules',
  'credentials',
  'sessions',
  'teammate_invitations',
  'partner_clients',
  'partner_business_links',
];

export async function snapshotStorage(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const existing = new Set(
    (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>()).results.map((r) => r.name),
  );
  for (const table of SNAPSHOT_TABLES.filter((t) => existing.has(t))) {
    out[table] = (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;
  }
  const objects = await env.UPLOADS.list();
  out.r2 = objects.objects.map((o) => `${o.key} ${o.size} ${o.etag}`).sort();
  return out;
}

/**
 * Runs a case of a partner route. People never reach a partner route: each caller's personal key,
 * the owner's included, must be 401 AUTH-REQ-ERR. The outside partner (a client linked to the
 * stranger's business only) must be turned away (403/404 in the envelope), or on a list filter see
 * nothing of `hide`. The client the victim business linked is the positive control on reads (it must
 * succeed and show `show`). With `reread`, the owner's view must be unchanged by the attempts.
 */
export async function runPartnerCase(o: Operation, read: boolean, k: Case, w: VictimWorld): Promise<string[]> {
  const problems: string[] = [];
  const say = (who: string, m: string) => problems.push(`${k.target} / ${who}: ${m}`);
  const before = k.reread ? await reread(w, k.reread(w)) : null;
  const people: Array<[string, TestUser]> = [
    ['owner', w.owner],
    ['stranger', w.stranger],
    ['suspendedTeammate', w.suspendedTeammate],
    ['otherParty', w.crew],
  ];
  let attempts = 0;
  const personal = people.map(async ([who, user]) => {
    const r = k.req(w, user);
    if (!r) return;
    attempts++;
    const res = await send(o, r, user.key);
    if (res.status !== 401 || res.body?.error?.code !== 'AUTH-REQ-ERR') say(`${who}'s personal key`, `answered ${snippet(res)}`);
  });
  const outsider = (async () => {
    const r = k.req(w, w.stranger);
    if (!r) return;
    attempts++;
    const res = await send(o, r, w.partners.outsider.apiKey, 'partner');
    const leaks = leaked(res, k.hide?.(w, 'stranger') ?? []);
    if (leaks.length) say('outside partner', `the answer reveals ${leaks.join(', ')}`);
    if (k.filter && read && isSuccess(res)) return;
    const why = notDenied(res);
    if (why) say('outside partner', why);
  })();
  const control =
    read && k.control !== false
      ? (async () => {
          const r = k.req(w, w.owner);
          if (!r) return;
          const res = await send(o, r, w.partners.linked.apiKey, 'partner');
          if (!isSuccess(res)) say('linked partner (control)', `answered ${snippet(res)}`);
          const text = JSON.stringify(res.body);
          const absent = (k.show?.(w, 'otherParty') ?? []).filter((t) => !text.includes(t));
          if (absent.length) say('linked partner (control)', `the answer lacks ${absent.join(', ')}`);
        })()
      : Promise.resolve();
  await Promise.all([...personal, outsider, control]);
  if (attempts === 0) problems.push(`${k.target}: no caller attempted it`);
  if (k.reread && before) {
    const after = await reread(w, k.reread(w));
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      problems.push(
        `${k.target}: the owner's view changed after the attempts:\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`,
      );
    }
  }
  return problems;
}
