import { env, exports } from 'cloudflare:workers';
import { AUTHORIZATION_CLASSES, type AuthorizationClass } from '../../src/http/openapi';
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
  required?: boolean;
}
type SecurityRequirement = Record<string, string[]>;
interface OperationNode {
  operationId?: string;
  /** The operation's authorization class, declared in its route contract (src/http/openapi.ts). */
  'x-authorization'?: string;
  security?: SecurityRequirement[];
  parameters?: ParameterNode[];
  requestBody?: Ref & { required?: boolean; content?: Record<string, { schema?: SchemaNode }> };
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type PathItem = { parameters?: ParameterNode[] } & Partial<Record<(typeof METHODS)[number], OperationNode>>;
export interface OpenApiDoc {
  security?: SecurityRequirement[];
  paths: Record<string, PathItem>;
}

/** The three callers every operation that takes an id must turn away (unless a case allows one). */
export const CALLERS = ['stranger', 'suspendedTeammate', 'otherParty'] as const;
/**
 * A caller of a case: one of CALLERS, or the victim business's active teammate, whom a business-side
 * case of a `business-owner` operation must turn away and one of a `business-member` operation must
 * let read.
 */
export type Caller = (typeof CALLERS)[number] | 'activeTeammate';

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
  reread?: (w: VictimWorld) => Reread | Reread[];
}

export { AUTHORIZATION_CLASSES, type AuthorizationClass };

/** The class an operation declares (`x-authorization`), or null when it declares none or an unknown one. */
export function classOf(o: Operation): AuthorizationClass | null {
  const c = o.op['x-authorization'];
  return typeof c === 'string' && c in AUTHORIZATION_CLASSES ? (c as AuthorizationClass) : null;
}

/** The security schemes of partner routes (src/http/middleware/partner-auth.ts, the token route). */
const PARTNER_SCHEMES = new Set(['partnerApiKey', 'partnerOAuth', 'partnerClientBasic']);

/** Why the document's security requirement does not fit the operation's class, or null. */
export function securityMismatch(doc: OpenApiDoc, o: Operation, c: AuthorizationClass): string | null {
  const security = o.op.security ?? doc.security ?? [];
  const schemes = new Set(security.flatMap((s) => Object.keys(s)));
  if (isPublic(doc, o)) return c === 'public' ? null : `the class is ${c}, the document says public (no credentials)`;
  if (c === 'public') return `the class is public, the document requires ${[...schemes].join(' or ')}`;
  const partner = [...schemes].every((s) => PARTNER_SCHEMES.has(s));
  if (c === 'partner') return partner ? null : `the class is partner, the document requires ${[...schemes].join(' or ')}`;
  return schemes.size === 1 && schemes.has('bearerAuth') ? null : `the class is ${c}, the document requires ${[...schemes].join(' or ')}`;
}

export interface Entry {
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

/** The owner's reads of a case (one or several), each as status and body. */
export async function reread(w: VictimWorld, spec: Reread | Reread[]): Promise<Array<{ path: string; status: number; body: unknown }>> {
  return Promise.all(
    [spec].flat().map(async (r) => {
      const res = await request(r.method, r.path, { key: r.as(w).key, query: r.query, body: r.body });
      return { path: r.path, status: res.status, body: res.body };
    }),
  );
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
  'crew_invites',
  'crew_join_links',
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

/**
 * Where the victim's records are, for the cases an operation's class implies: keyed by the id's name
 * (`entry_id`, `business_id`), or for a path's `{id}` by the segment before it (`business`, `shifter`).
 */
export interface Target {
  /** The victim's record (or the victim business, the crew member's shifter id). */
  pick: (w: VictimWorld) => string;
  /** In words, for failures. */
  what: string;
  /**
   * `business` / `shifter`: the id names the victim business or the crew member's shifter profile.
   * `record`: a record of the business or shifter the path names first; the case is repeated through
   * the caller's own business or shifter profile, and the record must belong to the path's owner.
   */
  kind?: 'business' | 'shifter' | 'record';
}

const parametersOf = (doc: OpenApiDoc, o: Operation): ParameterNode[] =>
  [...(doc.paths[o.path]?.parameters ?? []), ...(o.op.parameters ?? [])].flatMap((p) => deref(doc, p) ?? []);

/** The key of an id in the targets: a path's `{id}` by the segment before it, anything else by its name. */
function targetKey(path: string, name: string): string {
  if (name !== 'id') return name;
  const segments = path.split('/');
  return segments[segments.indexOf('{id}') - 1] ?? name;
}

/**
 * The owner's reads around an operation: the GET operations of the document on its own path and on
 * each shorter path it starts with (`/v1/shifter/{id}/mileage` for `/v1/shifter/{id}/mileage/{entry_id}`),
 * those that take nothing beyond the path's ids.
 */
function readsAround(doc: OpenApiDoc, o: Operation, params: Record<string, string>, as: Reread['as']): Reread[] {
  const segments = o.path.split('/');
  const reads: Reread[] = [];
  for (let n = segments.length; n > 2; n--) {
    const path = segments.slice(0, n).join('/');
    const get = doc.paths[path]?.get;
    if (!get) continue;
    const extra = [...(doc.paths[path]?.parameters ?? []), ...(get.parameters ?? [])]
      .flatMap((p) => deref(doc, p) ?? [])
      .some((p) => p.required && p.in !== 'path');
    if (!extra && deref(doc, get.requestBody)?.required !== true) reads.push({ as, method: 'GET', path: buildPath(path, params) });
  }
  return reads;
}

/**
 * The cases an operation's class implies, for an operation that takes nothing but ids the targets
 * know (no required body, no other required input); an empty list otherwise (then the operation needs
 * cases in the test's table, or it fails for the ids no case attacks).
 * - `business-owner`, `business-member`, `self`, `partner`: the victim business's (the owner's) records;
 *   `party`: the same, and the other party (the connected crew member) may act; `shifter`: the crew
 *   member's records, the owner of the connected business refused.
 * - A `record` id is also tried through the caller's own business or shifter profile.
 * - Each case rereads, as the owner, the GET operations on the operation's path and above it.
 * - `admin`: an operation that takes no ids is called by every caller, none an admin.
 */
export function generatedCases(doc: OpenApiDoc, o: Operation, c: AuthorizationClass, targets: Record<string, Target>): Case[] {
  if (deref(doc, o.op.requestBody)?.required) return [];
  const parameters = parametersOf(doc, o);
  if (parameters.some((p) => p.required && p.in !== 'path' && !isIdLike(p.name))) return [];
  const fields = idFields(doc, o);
  if (c === 'admin') {
    return fields.length === 0 ? [{ target: 'an operation for admins only', side: 'business', control: false, req: () => ({}) }] : [];
  }
  const side: Side | null = c === 'shifter' ? 'shifter' : c === 'public' || c === 'signed-in' ? null : 'business';
  if (!side || fields.length === 0) return [];
  const inputs = fields.map((name) => {
    const where = parameters.find((p) => p.name === name)?.in;
    return { name, where, target: targets[where === 'path' ? targetKey(o.path, name) : name] };
  });
  // Only path and query ids are filled here; an id in a body, or one the targets don't know, needs a case.
  if (inputs.some((i) => !i.target || (i.where !== 'path' && i.where !== 'query'))) return [];

  const fill = (w: VictimWorld, owner?: { name: string; id: string }): Req => {
    const r: Req = {};
    for (const i of inputs) {
      const v = owner?.name === i.name ? owner.id : i.target!.pick(w);
      if (i.where === 'path') r.params = { ...r.params, [i.name]: v };
      else r.query = { ...r.query, [i.name]: v };
    }
    return r;
  };
  const ownerOf = (w: VictimWorld) => (side === 'shifter' ? w.crew : w.owner);
  const reread = c === 'partner' ? undefined : (w: VictimWorld) => readsAround(doc, o, fill(w).params ?? {}, ownerOf);
  const what = inputs.at(-1)!.target!.what;
  const base: Case = {
    target: what,
    side,
    ...(c === 'party' ? { allow: ['otherParty'] as Caller[] } : {}),
    req: (w) => fill(w),
    ...(reread ? { reread } : {}),
  };
  const owner = inputs.find((i) => i.where === 'path' && (i.target!.kind === 'business' || i.target!.kind === 'shifter'));
  const record = inputs.some((i) => i.target!.kind === 'record');
  if (!owner || !record) return [base];
  const kind = owner.target!.kind;
  const mix: Case = {
    ...base,
    target: `${what} under the caller's own ${kind === 'business' ? 'business' : 'shifter profile'}`,
    req: (w, caller) => {
      const own = kind === 'business' ? caller.businessId : caller.shifterId;
      return own && own !== owner.target!.pick(w) ? fill(w, { name: owner.name, id: own }) : null;
    },
  };
  return [base, mix];
}
