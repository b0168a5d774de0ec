import { afterEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import readme from '../../docs/partner-api.md?raw';
import { type ApiResult, call } from '../helpers/api';
import { makeUser } from '../helpers/factory';
import { callWithEnv, dateAhead } from '../helpers/shifts';
import { captureQueues, drain, receivers } from '../helpers/webhooks';

/*
 * The partner quick start, run as written: each curl of steps 1 to 4 is read from docs/partner-api.md
 * and sent in order with the same method, path, headers and body. Only the
 * placeholders become the values earlier answers gave (`smk_…` is the partner developer's key in
 * step 1 and the business owner's in step 2), and shift dates move to days ahead of today, so the
 * walk never goes stale. The webhooks queue runs after each request, as it would; the endpoint's host
 * is the only one answering. If the README's walk stops delivering business events, this fails.
 */

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

interface Curl {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** JSON (one `-d`) or a form (several `-d`), as curl would send it. */
  body?: string;
}

/**
 * Words of a shell command line as the shell reads them: single and double quotes, pieces written
 * next to each other joined into one word, and the walk's shell variables (`$DAY`) expanded outside
 * single quotes.
 */
function shellWords(line: string, vars: Record<string, string> = SHELL_VARS): string[] {
  const expand = (t: string) => t.replace(/\$([A-Z_]+)/g, (_, name: string) => vars[name] ?? `$${name}`);
  const words: string[] = [];
  const word = /(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]+)+/g;
  const piece = /'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)/g;
  for (const w of line.matchAll(word)) {
    let out = '';
    for (const p of w[0].matchAll(piece)) out += p[1] ?? expand(p[2]?.replace(/\\(.)/g, '$1') ?? p[3]!);
    words.push(out);
  }
  return words;
}

/** The quick start's shell variables, as its commands set them: `DAY` is tomorrow. */
const SHELL_VARS: Record<string, string> = { DAY: dateAhead(1) };

function parseCurl(line: string): Curl {
  const words = shellWords(line);
  expect(words[0]).toBe('curl');
  const headers: Record<string, string> = {};
  const data: string[] = [];
  let method: string | undefined;
  let url: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-s') continue;
    if (w === '-X') method = words[++i];
    else if (w === '-H') {
      const [k, ...v] = words[++i]!.split(':');
      headers[k!.trim()] = v.join(':').trim();
    } else if (w === '-d') data.push(words[++i]!);
    else if (w === '-u') headers.Authorization = `Basic ${btoa(words[++i]!)}`;
    else if (/^https?:/.test(w)) url = w;
    else throw new Error(`an option this walk does not know: ${w} in ${line}`);
  }
  if (data.length > 1 || (data.length === 1 && !data[0]!.startsWith('{'))) {
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  }
  return {
    method: method ?? (data.length ? 'POST' : 'GET'),
    url: new URL(url!),
    headers,
    ...(data.length ? { body: data.join('&') } : {}),
  };
}

/** The curl commands of each numbered step of the quick start (docs/partner-api.md), in order. */
function quickStart(): Map<number, string[]> {
  const start = readme.indexOf('# Partner API\n');
  const end = readme.indexOf('\n## Partner webhooks\n');
  expect(start).toBe(0);
  expect(end).toBeGreaterThan(start);
  const section = readme.slice(start, end);
  const steps = new Map<number, string[]>();
  for (const part of section.split(/\n(?=\d+\. )/)) {
    const n = /^(\d+)\. /.exec(part)?.[1];
    if (!n) continue;
    const commands: string[] = [];
    for (const block of part.matchAll(/```sh\n([\s\S]*?)```/g)) {
      const joined = block[1]!.replace(/\\\n\s*/g, ' ');
      for (const line of joined.split('\n').map((l) => l.trim())) if (line.startsWith('curl ')) commands.push(line);
    }
    steps.set(Number(n), commands);
  }
  return steps;
}

/** A README request with its placeholders filled, sent to the Worker (with the test's queue capture). */
async function send(line: string, values: Record<string, string>, daysAhead: () => number): Promise<ApiResult> {
  const filled = Object.entries(values).reduce((l, [placeholder, value]) => l.split(placeholder).join(value), line);
  expect(filled, `a placeholder left unfilled in: ${filled}`).not.toMatch(/[a-z]+_…/);
  const curl = parseCurl(filled);
  let body = curl.body;
  if (body?.includes('"shift_date"')) body = body.replace(/"shift_date": "\d{4}-\d{2}-\d{2}"/, `"shift_date": "${dateAhead(daysAhead())}"`);
  const path = `${curl.url.pathname}${curl.url.search}`;
  return callWithEnv(curl.method, path, { headers: curl.headers, ...(body === undefined ? {} : { body }) }, {});
}

describe('docs/partner-api.md: the partner quick start', () => {
  it('steps 1 to 4 as written deliver a business event to the partner’s endpoint, verifiable as Standard Webhooks and Shiftmarket-Signature', async () => {
    const steps = quickStart();
    expect([...steps.keys()]).toEqual([1, 2, 3, 4]);
    const developer = await makeUser({ name: 'Acme developer' });
    const owner = await makeUser({ business: true });
    const queues = captureQueues();
    const endpointHost = new URL(/"url": "([^"]+)"/.exec(steps.get(4)!.join('\n'))![1]!).host;
    const http = receivers(undefined, (url) => url.host === endpointHost);
    const values: Record<string, string> = { 'biz_…': owner.businessId! };
    let day = 3;
    const next = () => day++;
    const run = async (step: number, line: string) => {
      const res = await send(line, values, next);
      expect(res.status, `step ${step}: ${line}\n${JSON.stringify(res.body)}`).toBeLessThan(300);
      await drain(queues);
      return res;
    };

    // 1. The developer registers the client; its id, key and secret come back once.
    values['smk_…'] = developer.key;
    const [register] = steps.get(1)!;
    const client = (await run(1, register!)).body;
    Object.assign(values, { 'pc_…': client.id, 'smp_…': client.api_key, 'smcs_…': client.client_secret });
    expect(client.scopes).toContain('webhooks:manage');

    // 2. The business's owner links it (and the README's PATCH changes what the link grants).
    values['smk_…'] = owner.key;
    for (const line of steps.get(2)!) await run(2, line);
    const links = await call('GET', `/v1/business/${owner.businessId}/partners`, { key: owner.key });
    expect(links.body.data[0].scopes).toEqual(expect.arrayContaining(['shifts:read', 'webhooks:manage']));

    // 3. The partner's calls, with its key and with a client-credentials token.
    for (const line of steps.get(3)!) {
      const res = await run(3, line);
      if (res.body?.access_token) values['smpt_…'] = res.body.access_token;
    }
    expect(http.seen).toHaveLength(0); // no endpoint yet: nothing was sent

    // 4. The endpoint, then another shift: its event is delivered.
    const [createEndpoint, postShift] = steps.get(4)!;
    const endpoint = (await run(4, createEndpoint!)).body;
    expect(endpoint.secret).toMatch(/^whsec_/);
    const posted = (await run(4, postShift!)).body;

    expect(http.unexpected).toEqual([]);
    const business = http.seen.filter((r) => r.headers.get('Shiftmarket-Event-Type') !== 'webhook.test');
    expect(business).toHaveLength(1);
    const got = business[0]!;
    const event = JSON.parse(got.body);
    expect(event).toMatchObject({ type: 'broadcast.created', business_id: owner.businessId, data: { shift_request: { id: posted.id } } });
    // What a receiver following "Partner webhooks" checks: the Standard Webhooks verifier accepts it.
    const headers = Object.fromEntries(got.headers);
    expect(new Webhook(endpoint.secret).verify(got.body, headers)).toEqual(event);
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['shiftmarket-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('a link without webhooks:manage delivers only test events; PATCHing the scopes in brings the business’s events', async () => {
    const owner = await makeUser({ business: true });
    const queues = captureQueues();
    const http = receivers();
    const client = (
      await call('POST', '/v1/partner/clients', {
        key: owner.key,
        body: { name: 'Acme Scheduling', scopes: ['shifts:read', 'shifts:write', 'webhooks:manage'] },
      })
    ).body;
    const partner = { 'x-api-key': client.api_key };
    const linked = await call('POST', `/v1/business/${owner.businessId}/partners`, {
      key: owner.key,
      body: { client_id: client.id, scopes: ['shifts:read', 'shifts:write'] },
    });
    expect(linked.status).toBe(201);
    const endpoint = await callWithEnv(
      'POST',
      '/v1/partner/webhooks/endpoints',
      { headers: partner, body: { url: 'https://receiver.example.com/in', event_types: ['broadcast.created'] } },
      {},
    );
    expect(endpoint.status).toBe(201);
    const post = async (key: string) => {
      const res = await callWithEnv(
        'POST',
        `/v1/partner/businesses/${owner.businessId}/shift_requests`,
        {
          headers: { ...partner, 'Idempotency-Key': key },
          body: { shift_date: dateAhead(4), shift_in: '09:00', shift_out: '17:00', shiftrole_id: 1, hourly_rate: 20, is_broadcast: 1 },
        },
        {},
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await drain(queues);
      return res.body;
    };

    await post('before');
    const tested = await callWithEnv('POST', `/v1/partner/webhooks/endpoints/${endpoint.body.id}/test`, { headers: partner }, {});
    expect(tested.status).toBe(202);
    await drain(queues);
    expect(http.seen.map((r) => r.headers.get('Shiftmarket-Event-Type'))).toEqual(['webhook.test']);

    const patched = await call('PATCH', `/v1/business/${owner.businessId}/partners/${client.id}`, {
      key: owner.key,
      body: { scopes: ['shifts:read', 'shifts:write', 'webhooks:manage'] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const after = await post('after');
    expect(http.seen.map((r) => r.headers.get('Shiftmarket-Event-Type'))).toEqual(['webhook.test', 'broadcast.created']);
    expect(JSON.parse(http.seen[1]!.body).data.shift_request.id).toBe(after.id);
  });
});
