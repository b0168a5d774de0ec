import { exports } from 'cloudflare:workers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readToolError } from '@shiftmarket/tool-specs';
import { toBase64Url } from '../../src/lib/crypto';
import { randomIp } from './auth';
import { TEST_PASSWORD } from './factory';
import { WebClient } from './web';

/**
 * The agent tool server from a client's side, in-process: an https origin (the OAuth provider serves
 * MCP only on https or loopback), a public client registered dynamically, the authorization code flow
 * with S256 PKCE through the consent page as a signed-in person, and SDK clients of both served
 * protocol revisions talking to the Worker's fetch.
 */

export const MCP_ORIGIN = 'https://mcp.test';
export const MCP_URL = `${MCP_ORIGIN}/v1/mcp/`;
export const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

/**
 * The Worker as a fetch function (what the SDK transports and the OAuth calls use). A request without
 * CF-Connecting-IP gets an address of its own, as callers spread over the internet would: the OAuth
 * endpoints count per address, and the tests that check those budgets send theirs.
 */
export const workerFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const req = input instanceof Request ? input : new Request(input, init);
  if (req.headers.has('CF-Connecting-IP')) return exports.default.fetch(req);
  const addressed = new Request(req);
  addressed.headers.set('CF-Connecting-IP', randomIp());
  return exports.default.fetch(addressed);
};

export interface RegisteredClient {
  clientId: string;
  redirectUri: string;
}

/** Dynamic client registration of a public client (no secret), as older MCP clients do. */
export async function registerPublicClient(
  redirectUri = REDIRECT_URI,
  name = 'Test agent',
  origin = MCP_ORIGIN,
): Promise<RegisteredClient> {
  const res = await workerFetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { client_id: string };
  return { clientId: body.client_id, redirectUri };
}

export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = toBase64Url(crypto.getRandomValues(new Uint8Array(48)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: toBase64Url(digest) };
}

export interface AuthorizeOptions {
  /** What the client asks for (the `scope` parameter). */
  request?: string[];
  /** What the person leaves ticked on the consent page; default: what was asked. */
  tick?: string[];
  client?: RegisteredClient;
  /** A browser already signed in (else one signs in as `email`). */
  web?: WebClient;
  resource?: string;
  decision?: 'approve' | 'deny';
  /** Another origin of the same Worker (its own resource): default MCP_ORIGIN. */
  origin?: string;
}

export function authorizePath(
  client: RegisteredClient,
  challenge: string,
  state: string,
  scopes: string[],
  resource = MCP_URL,
  method = 'S256',
) {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_challenge: challenge,
    code_challenge_method: method,
    state,
    scope: scopes.join(' '),
    resource,
  });
  return `/oauth/authorize?${q}`;
}

/** Signs `email` in on the MCP origin's pages (the consent page uses the cookie session). */
export async function signedInBrowser(email: string, origin = MCP_ORIGIN): Promise<WebClient> {
  const web = new WebClient(origin);
  const res = await web.signIn(email, TEST_PASSWORD);
  if (res.status !== 303 && res.status !== 302) throw new Error(`sign-in failed: ${res.status}`);
  return web;
}

export interface AuthorizedCode {
  code: string;
  verifier: string;
  client: RegisteredClient;
  state: string;
  /** The redirect back to the client, as the browser got it. */
  location: URL;
  origin: string;
}

/** The consent page, answered: returns the code from the redirect to the client. */
export async function authorize(email: string, opts: AuthorizeOptions = {}): Promise<AuthorizedCode> {
  const origin = opts.origin ?? MCP_ORIGIN;
  const client = opts.client ?? (await registerPublicClient(REDIRECT_URI, 'Test agent', origin));
  const web = opts.web ?? (await signedInBrowser(email, origin));
  const { verifier, challenge } = await pkcePair();
  const state = crypto.randomUUID();
  const request = opts.request ?? ['read', 'write', 'payment'];
  const page = await web.get(authorizePath(client, challenge, state, request, opts.resource ?? `${origin}/v1/mcp/`));
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${page.location ?? page.html.slice(0, 300)}`);
  const handle = /name="handle" value="([^"]+)"/.exec(page.html)?.[1];
  if (!handle) throw new Error('consent page without a handle');
  const tick = opts.tick ?? request;
  const form = new URLSearchParams({ _csrf: web.token, handle, decision: opts.decision ?? 'approve' });
  for (const s of tick) form.append('scope', s);
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', Cookie: web.cookieHeader() });
  const res = await workerFetch(
    new Request(`${origin}/oauth/authorize`, { method: 'POST', headers, body: form.toString(), redirect: 'manual' }),
  );
  const location = res.headers.get('Location');
  if (res.status !== 302 || !location) throw new Error(`consent answer: ${res.status} ${await res.text()}`);
  const url = new URL(location);
  return { code: url.searchParams.get('code') ?? '', verifier, client, state, location: url, origin };
}

export interface TokenAnswer {
  status: number;
  body: { access_token?: string; refresh_token?: string; scope?: string; error?: string; token_type?: string; expires_in?: number };
}

export async function tokenRequest(
  fields: Record<string, string>,
  origin = MCP_ORIGIN,
  headers: Record<string, string> = {},
): Promise<TokenAnswer & { headers: Headers }> {
  const res = await workerFetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as TokenAnswer['body'], headers: res.headers };
}

export function exchangeCode(a: AuthorizedCode, overrides: Record<string, string> = {}): Promise<TokenAnswer> {
  return tokenRequest(
    {
      grant_type: 'authorization_code',
      code: a.code,
      redirect_uri: a.client.redirectUri,
      client_id: a.client.clientId,
      code_verifier: a.verifier,
      resource: `${a.origin}/v1/mcp/`,
      ...overrides,
    },
    a.origin,
  );
}

export interface OAuthSession {
  accessToken: string;
  refreshToken: string;
  scope: string;
  client: RegisteredClient;
}

/** The whole flow: register, sign in, consent, exchange the code with its verifier. */
export async function oauthTokens(email: string, opts: AuthorizeOptions = {}): Promise<OAuthSession> {
  const a = await authorize(email, opts);
  const t = await exchangeCode(a);
  if (t.status !== 200 || !t.body.access_token || !t.body.refresh_token)
    throw new Error(`token exchange failed: ${t.status} ${JSON.stringify(t.body)}`);
  return { accessToken: t.body.access_token, refreshToken: t.body.refresh_token, scope: t.body.scope ?? '', client: a.client };
}

const bearerFetch = (token: string) => (input: string | URL | Request, init?: RequestInit) => {
  const req = new Request(input instanceof Request ? input : new Request(input, init));
  req.headers.set('Authorization', `Bearer ${token}`);
  return exports.default.fetch(req);
};

export interface ModernClientOptions {
  /** Declare form elicitation and answer each form with this (default: no elicitation capability). */
  elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  /** Declare URL-mode elicitation and answer each URL request with this. */
  openUrl?: (url: string, message: string) => 'accept' | 'decline' | 'cancel';
}

/** An SDK v2 client pinned to the 2026-07-28 revision (stateless: server/discover, no initialize). */
export async function connectModern(token: string, opts: ModernClientOptions = {}): Promise<Client> {
  const elicitation = { ...(opts.elicit ? { form: {} } : {}), ...(opts.openUrl ? { url: {} } : {}) };
  const client = new Client(
    { name: 'modern-test-client', version: '1.0.0' },
    {
      capabilities: opts.elicit || opts.openUrl ? { elicitation } : {},
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  if (opts.elicit || opts.openUrl) {
    const { elicit, openUrl } = opts;
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode?: string; message?: string; url?: string };
      if (params.mode === 'url' && openUrl) return { action: openUrl(String(params.url), String(params.message ?? '')) };
      if (!elicit) return { action: 'decline' as const };
      const { action, content } = elicit(String(params.message ?? ''));
      return content ? { action, content: content as Record<string, string | number | boolean> } : { action };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch: bearerFetch(token), onInsufficientScope: 'throw' }));
  return client;
}

/** A 1.x SDK client (protocol 2025-11-25: initialize, then requests without a session). */
export async function connectLegacy(token: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'legacy-test-client', version: '1.0.0' });
  await client.connect(new LegacyTransport(new URL(MCP_URL), { fetch: bearerFetch(token) }));
  return client;
}

/** A JSON-RPC request straight to the endpoint (no SDK), for the HTTP-level answers. */
export function rawMcp(token: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const h = new Headers({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers });
  if (token) h.set('Authorization', `Bearer ${token}`);
  return workerFetch(MCP_URL, { method: 'POST', headers: h, body: JSON.stringify(body) });
}

/**
 * An OAuth client provider for the SDK clients (both SDKs take the same shape): the SDK discovers the
 * metadata from the 401, registers, builds the authorization URL with PKCE and exchanges the code; this
 * provider plays the person's browser on the consent page (signed in as `web`) and keeps what the SDK
 * asks it to.
 */
export class ConsentingAuthProvider {
  private info: unknown;
  private saved: unknown;
  private verifier = '';
  /** The redirect back to the client after consent (code, state, iss). */
  callback: URL | null = null;

  constructor(
    private readonly web: WebClient,
    /** What the person leaves ticked on the consent page (default: what was asked); change it between consents. */
    public tick?: string[],
  ) {}

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata() {
    return {
      client_name: 'SDK agent',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info as never;
  }
  saveClientInformation(info: unknown) {
    this.info = info;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(tokens: unknown) {
    this.saved = tokens;
  }
  /** As real clients do: the SDK drops what the server refused (a refused refresh: the tokens) before it authorizes again. */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    const page = await this.web.get(`${url.pathname}${url.search}`);
    const handle = /name="handle" value="([^"]+)"/.exec(page.html)?.[1];
    if (!handle) throw new Error(`consent page: ${page.status} ${page.location ?? ''}`);
    const requested = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
    const form = new URLSearchParams({ _csrf: this.web.token, handle, decision: 'approve' });
    for (const s of this.tick ?? (requested.length ? requested : ['read', 'write', 'payment'])) form.append('scope', s);
    const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', Cookie: this.web.cookieHeader() });
    const res = await workerFetch(
      new Request(`${MCP_ORIGIN}/oauth/authorize`, { method: 'POST', headers, body: form.toString(), redirect: 'manual' }),
    );
    this.callback = new URL(res.headers.get('Location') ?? '');
  }
  /** The access token the SDK ended up with. */
  get accessToken(): string | undefined {
    return (this.saved as { access_token?: string } | undefined)?.access_token;
  }
}

/**
 * The error a tool answered, read from its JSON text block (`readToolError`, the shape both tool
 * servers send: no `structuredContent` on an error); `details` typed loosely for the assertions.
 */
export function toolErrorOf(result: { isError?: boolean; content?: unknown }) {
  return readToolError(result) as { code: string; message: string; details?: any } | null;
}
