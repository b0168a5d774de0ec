import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import type { AppEnv, WebUser } from '../../src/http/app-types';
import { notFound, onError } from '../../src/http/error-handler';
import { assignRequestId, requestContext } from '../../src/http/middleware/request-context';
import { assetPaths, assetsRouter } from '../../src/web/assets';
import { CLIENT_SCRIPT } from '../../src/web/client-script';
import { CopyField, Card, Notice, PostButtonForm, SubmitButton, TextField } from '../../src/web/components';
import { type AppCookie, clearAppCookie, cookieName, readAppCookie, setAppCookie } from '../../src/http/cookies';
import { CSRF_FIELD, csrf } from '../../src/web/csrf';
import { Layout } from '../../src/web/layout';
import { renderError, renderPage } from '../../src/web/render';
import { APP_STYLES as STYLES } from '../../generated/web/assets';
import { appUrl, authUrl, safeNextPath } from '../../src/web/urls';

// The real pages are written elsewhere; this app uses the shared blocks the way they will.
const HTTP = 'http://pages.test';
const HTTPS = 'https://pages.test';
const APP = 'https://app.shiftmarket.test';
const AUTH = 'https://auth.shiftmarket.test';
const KINDS: AppCookie[] = ['session', 'csrf', 'device'];

const hostileUser: WebUser = {
  userId: 'usr_1',
  sessionId: 'ses_1',
  email: 'mallory@example.com',
  displayName: '<script>alert("x")</script><img src=x onerror=alert(1)>',
};

function buildApp() {
  const app = new Hono<AppEnv>();
  // As in src/app.ts: the API defaults, which must not overwrite a page's own headers.
  app.use('*', secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] }, overwrite: false }));
  app.use('*', assignRequestId);
  app.use('*', requestContext);
  app.route('/', assetsRouter);

  app.get('/cookies/set', (c) => {
    for (const kind of KINDS) setAppCookie(c, kind, `v-${kind}`, kind === 'csrf' ? {} : { maxAgeSeconds: 3600 });
    return c.json({ names: KINDS.map((k) => cookieName(c, k)) });
  });
  app.get('/cookies/clear', (c) => {
    for (const kind of KINDS) clearAppCookie(c, kind);
    return c.body(null, 204);
  });
  app.get('/cookies/read', (c) => c.json(Object.fromEntries(KINDS.map((k) => [k, readAppCookie(c, k) ?? null]))));

  const pages = new Hono<AppEnv>();
  pages.use('*', csrf);
  pages.get('/form', (c) =>
    renderPage(
      c,
      Layout({
        title: 'Form',
        children: PostButtonForm({ action: '/p/form', csrfToken: c.get('csrfToken'), label: 'Send', hidden: { note: 'a"b<c' } }),
      }),
    ),
  );
  pages.post('/form', async (c) => {
    // The handler can still read the form csrf already parsed.
    const body = await c.req.parseBody();
    return c.json({ accepted: true, note: body.note ?? null });
  });
  pages.delete('/form', (c) => c.json({ accepted: true }));
  pages.get('/account', (c) =>
    renderPage(
      c,
      Layout({
        title: 'Profile <b>',
        user: hostileUser,
        csrfToken: c.get('csrfToken'),
        current: '/account/sessions',
        children: Card({
          title: `Hello ${hostileUser.displayName}`,
          children: Notice({ kind: 'info', children: hostileUser.displayName }),
        }),
      }),
    ),
  );
  pages.get('/signed-out', (c) => renderPage(c, Layout({ title: 'Sign in', children: 'x' })));
  pages.get('/missing', (c) => renderError(c, 404, 'Page not found', 'There is no page at this address.'));
  pages.get('/urls', (c) => c.json({ app: appUrl(c, '/account'), auth: authUrl(c, '/login') }));
  app.route('/p', pages);
  app.notFound(notFound);
  app.onError(onError);
  return app;
}

const app = buildApp();
const configured = { ...env, APP_URL: `${APP}/`, AUTH_URL: AUTH };

function request(url: string, init: RequestInit = {}, bindings: object = env) {
  return app.request(url, init, bindings);
}

function setCookies(res: Response): string[] {
  return res.headers.getSetCookie();
}

function cookieValue(res: Response, name: string): string | undefined {
  for (const line of setCookies(res)) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    if (pair!.slice(0, eq) === name) return pair!.slice(eq + 1);
  }
  return undefined;
}

function attributes(line: string): string[] {
  return line
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
}

/** A form GET, then what the browser would post back: the cookie header and the page's token. */
async function formSession(base = HTTPS) {
  const res = await request(`${base}/p/form`);
  expect(res.status).toBe(200);
  const name = base.startsWith('https') ? '__Host-sm_csrf' : 'sm_csrf';
  const token = cookieValue(res, name);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const html = await res.text();
  return { cookie: `${name}=${token}`, token: token!, html };
}

function form(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams(fields);
}

async function post(url: string, opts: { cookie?: string; body?: BodyInit; headers?: Record<string, string> }, bindings?: object) {
  const headers = new Headers(opts.headers);
  if (opts.cookie) headers.set('Cookie', opts.cookie);
  return request(url, { method: 'POST', headers, body: opts.body ?? null }, bindings);
}

async function expectRefused(res: Response) {
  expect(res.status).toBe(403);
  expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
  const html = await res.text();
  expect(html).toContain('Form not accepted');
  expect(html).not.toContain('accepted":true');
}

describe('cookies', () => {
  it('on plain HTTP: bare names, HttpOnly, SameSite=Lax, Path=/, never Secure', async () => {
    const res = await request(`${HTTP}/cookies/set`);
    expect(await res.json()).toEqual({ names: ['sm_session', 'sm_csrf', 'sm_device'] });
    const lines = setCookies(res);
    expect(lines).toHaveLength(3);
    for (const kind of KINDS) {
      const line = lines.find((l) => l.startsWith(`sm_${kind}=v-${kind};`));
      expect(line, kind).toBeDefined();
      const attrs = attributes(line!);
      expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      expect(attrs).not.toContain('secure');
      expect(attrs.some((a) => a.startsWith('domain'))).toBe(false);
      expect(attrs.includes('max-age=3600')).toBe(kind !== 'csrf');
    }
  });

  it('on HTTPS: __Host- names, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain', async () => {
    const res = await request(`${HTTPS}/cookies/set`);
    expect(await res.json()).toEqual({ names: ['__Host-sm_session', '__Host-sm_csrf', '__Host-sm_device'] });
    const lines = setCookies(res);
    expect(lines).toHaveLength(3);
    for (const kind of KINDS) {
      const line = lines.find((l) => l.startsWith(`__Host-sm_${kind}=v-${kind};`));
      expect(line, kind).toBeDefined();
      const attrs = attributes(line!);
      expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'secure']));
      expect(attrs.some((a) => a.startsWith('domain'))).toBe(false);
    }
  });

  it('clearing sends the same name and attributes with Max-Age=0', async () => {
    for (const [base, prefix, secure] of [
      [HTTP, '', false],
      [HTTPS, '__Host-', true],
    ] as const) {
      const lines = setCookies(await request(`${base}/cookies/clear`));
      expect(lines).toHaveLength(3);
      for (const kind of KINDS) {
        const line = lines.find((l) => l.startsWith(`${prefix}sm_${kind}=;`));
        expect(line, `${base} ${kind}`).toBeDefined();
        const attrs = attributes(line!);
        expect(attrs).toEqual(expect.arrayContaining(['max-age=0', 'httponly', 'samesite=lax', 'path=/']));
        expect(attrs.includes('secure')).toBe(secure);
      }
    }
  });

  it('on HTTPS reads only the __Host- cookie: a bare one (settable by a subdomain) is ignored', async () => {
    const res = await request(`${HTTPS}/cookies/read`, { headers: { Cookie: 'sm_session=planted; __Host-sm_device=real; sm_csrf=x' } });
    expect(await res.json()).toEqual({ session: null, csrf: null, device: 'real' });
    const plain = await request(`${HTTP}/cookies/read`, { headers: { Cookie: 'sm_session=s1; __Host-sm_device=d' } });
    expect(await plain.json()).toEqual({ session: 's1', csrf: null, device: null });
  });
});

describe('CSRF', () => {
  it('a GET sets the token cookie and the page carries the same token in its form', async () => {
    const { token, html } = await formSession();
    expect(html).toContain(`name="${CSRF_FIELD}" value="${token}"`);
    // Attribute values are escaped too.
    expect(html).toContain('name="note" value="a&quot;b&lt;c"');
  });

  it('a GET with the cookie keeps the token and sets no new cookie', async () => {
    const { cookie, token } = await formSession();
    const again = await request(`${HTTPS}/p/form`, { headers: { Cookie: cookie } });
    expect(setCookies(again)).toHaveLength(0);
    expect(await again.text()).toContain(`value="${token}"`);
  });

  it('two browsers get different tokens', async () => {
    const a = await formSession();
    const b = await formSession();
    expect(a.token).not.toBe(b.token);
  });

  it('a form posted without the cookie is refused (and a fresh cookie comes with the refusal)', async () => {
    const { token } = await formSession();
    const res = await post(`${HTTPS}/p/form`, { body: form({ [CSRF_FIELD]: token }) });
    const fresh = cookieValue(res, '__Host-sm_csrf');
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(token);
    await expectRefused(res);
  });

  it('a form posted without the field is refused', async () => {
    const { cookie } = await formSession();
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie, body: form({ note: 'hi' }) }));
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie }));
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: '' }) }));
  });

  it('a form posted with a wrong token is refused', async () => {
    const { cookie, token } = await formSession();
    const other = await formSession();
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: other.token }) }));
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: token.slice(0, -1) }) }));
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie, headers: { 'X-CSRF-Token': other.token } }));
  });

  it('an attacker who knows a token cannot plant it: a malformed or bare-named cookie does not count', async () => {
    const { token } = await formSession();
    // A sibling subdomain can set `sm_csrf` (no __Host- prefix) but not `__Host-sm_csrf`.
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie: `sm_csrf=${token}`, body: form({ [CSRF_FIELD]: token }) }));
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie: '__Host-sm_csrf=abc', body: form({ [CSRF_FIELD]: 'abc' }) }));
  });

  it('a form posted from a foreign Origin is refused even with a matching token', async () => {
    const { cookie, token } = await formSession();
    for (const origin of ['https://evil.test', 'null', 'http://pages.test', 'https://pages.test.evil.test']) {
      await expectRefused(await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: token }), headers: { Origin: origin } }));
    }
  });

  it('other unsafe methods are checked too', async () => {
    const { cookie } = await formSession();
    await expectRefused(await request(`${HTTPS}/p/form`, { method: 'DELETE', headers: { Cookie: cookie } }));
  });

  it('matching cookie and field pass, with or without an Origin of our own, as a form or multipart or header', async () => {
    const { cookie, token } = await formSession();
    const ok = await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: token, note: 'kept' }) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ accepted: true, note: 'kept' });

    const sameOrigin = await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: token }), headers: { Origin: HTTPS } });
    expect(sameOrigin.status).toBe(200);

    const multipart = new FormData();
    multipart.set(CSRF_FIELD, token);
    multipart.set('note', 'multi');
    const mp = await post(`${HTTPS}/p/form`, { cookie, body: multipart });
    expect(await mp.json()).toEqual({ accepted: true, note: 'multi' });

    const scripted = await request(`${HTTPS}/p/form`, { method: 'DELETE', headers: { Cookie: cookie, 'X-CSRF-Token': token } });
    expect(scripted.status).toBe(200);

    // Local development over plain HTTP works the same with the bare cookie name.
    const local = await formSession(HTTP);
    const localOk = await post(`${HTTP}/p/form`, { cookie: local.cookie, body: form({ [CSRF_FIELD]: local.token }) });
    expect(localOk.status).toBe(200);
  });

  it('accepts the configured {app_url} and {auth_url} origins, and only those', async () => {
    const { cookie, token } = await formSession();
    for (const origin of [APP, AUTH]) {
      const res = await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: token }), headers: { Origin: origin } }, configured);
      expect(res.status, origin).toBe(200);
    }
    await expectRefused(
      await post(
        `${HTTPS}/p/form`,
        { cookie, body: form({ [CSRF_FIELD]: token }), headers: { Origin: 'https://other.shiftmarket.test' } },
        configured,
      ),
    );
    // Without configuration neither is ours.
    await expectRefused(await post(`${HTTPS}/p/form`, { cookie, body: form({ [CSRF_FIELD]: token }), headers: { Origin: APP } }));
  });
});

describe('urls', () => {
  it('appUrl and authUrl use the configured origins, else the request origin', async () => {
    expect(await (await request(`${HTTPS}/p/urls`)).json()).toEqual({ app: `${HTTPS}/account`, auth: `${HTTPS}/login` });
    expect(await (await request(`${HTTPS}/p/urls`, {}, configured)).json()).toEqual({ app: `${APP}/account`, auth: `${AUTH}/login` });
    const empty = { ...env, APP_URL: '', AUTH_URL: '' };
    expect(await (await request(`${HTTP}/p/urls`, {}, empty)).json()).toEqual({ app: `${HTTP}/account`, auth: `${HTTP}/login` });
  });

  it('safeNextPath refuses every open-redirect form', () => {
    const attacks = [
      '//evil.test',
      '///evil.test',
      '//evil.test/account',
      '/\\evil.test',
      '\\\\evil.test',
      '/\\/evil.test',
      '\\/evil.test',
      'https://evil.test',
      'HTTPS://evil.test/account',
      'http:evil.test',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'evil.test',
      'account',
      '',
      ' /account',
      '/\t/evil.test',
      '/\n/evil.test',
      '/\r\n/evil.test',
      '\t//evil.test',
      '/\u0000/evil.test',
      '/\u007f/evil.test',
      '/\u0085/evil.test',
      '/\u3000/evil.test',
      '/\u00a0/evil.test',
      `/${'a'.repeat(512)}`,
    ];
    for (const raw of attacks) expect(safeNextPath(raw), JSON.stringify(raw)).toBe('/dashboard');
    expect(safeNextPath(undefined)).toBe('/dashboard');
    expect(safeNextPath('//evil.test', '/login')).toBe('/login');
  });

  it('safeNextPath keeps a same-site path with its query and fragment', () => {
    for (const ok of [
      '/',
      '/account',
      '/account/sessions?page=2#list',
      '/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fx.test%2Fcb',
      '/a%2F%2Fb',
    ]) {
      expect(safeNextPath(ok)).toBe(ok);
    }
    expect(safeNextPath(`/${'a'.repeat(511)}`)).toHaveLength(512);
  });
});

describe('rendering', () => {
  it('pages carry the page CSP (the manifest and the service worker from this origin only), no-store, HTML type and a same-origin referrer policy', async () => {
    const res = await request(`${HTTPS}/p/form`);
    expect(res.headers.get('Content-Security-Policy')).toBe(
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('Referrer-Policy')).toBe('same-origin');
    // secureHeaders' other defaults still apply.
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });

  it("the CSP's form-action names {app_url} and {auth_url} when they are other origins", async () => {
    const res = await request(`${HTTPS}/p/form`, {}, configured);
    expect(res.headers.get('Content-Security-Policy')).toContain(`form-action 'self' ${APP} ${AUTH};`);
    const atApp = await request(`${APP}/p/form`, {}, configured);
    expect(atApp.headers.get('Content-Security-Policy')).toContain(`form-action 'self' ${AUTH};`);
  });

  it('the layout escapes user-controlled text: a script in a display name is text, never a tag', async () => {
    const res = await request(`${HTTPS}/p/account`);
    const html = await res.text();
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).toContain('<title>Profile &lt;b&gt; · Shiftmarket</title>');
    // The only script tag is our own asset.
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('the layout: doctype, lang, head, skip link, main, account navigation and a POST sign-out with the token', async () => {
    const { cookie, token } = await formSession();
    const html = await (await request(`${HTTPS}/p/account`, { headers: { Cookie: cookie } })).text();
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8"/>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain('<meta name="color-scheme" content="light dark"/>');
    expect(html).toContain('<a class="skip-link" href="#main">');
    expect(html).toContain('<main id="main"');
    expect(html).toContain('<a class="brand" href="/dashboard">Shiftmarket</a>');
    for (const href of ['/account', '/account/api-key', '/account/password', '/account/sessions', '/account/security']) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toContain('<a href="/account/sessions" aria-current="page">Sessions</a>');
    expect(html.match(/aria-current/g)).toHaveLength(1);
    expect(html).toMatch(new RegExp(`<form method="post" action="/logout"[^>]*><input type="hidden" name="_csrf" value="${token}"/>`));
    expect(html).toContain('Sign out');
  });

  it('signed out, the header leads to the front door and shows no navigation', async () => {
    const html = await (await request(`${HTTPS}/p/signed-out`)).text();
    expect(html).toContain('<a class="brand" href="/">Shiftmarket</a>');
    expect(html).not.toContain('/logout');
    expect(html).not.toContain('<nav');
  });

  it('renderError renders the status with a generic page in the layout', async () => {
    const res = await request(`${HTTPS}/p/missing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<title>Page not found · Shiftmarket</title>');
    expect(html).toContain('<h1>Page not found</h1>');
    expect(html).toContain('lang="en"');
  });
});

describe('components', () => {
  const render = async (node: ReturnType<typeof TextField>) => (await node).toString();

  it('TextField ties its label, hint and error to the input', async () => {
    const html = await render(
      TextField({
        label: 'Code',
        name: 'code',
        inputMode: 'numeric',
        autocomplete: 'one-time-code',
        maxLength: 6,
        hint: 'Six digits',
        error: 'Wrong <code>',
        required: true,
      }),
    );
    expect(html).toContain('<label for="field-code">Code</label>');
    expect(html).toContain('id="field-code"');
    expect(html).toContain('aria-describedby="field-code-hint field-code-error"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('inputmode="numeric"');
    expect(html).toContain('maxlength="6"');
    expect(html).toContain('required=""');
    expect(html).toContain('<p class="hint" id="field-code-hint">Six digits</p>');
    expect(html).toContain('<p class="field-error" id="field-code-error">Wrong &lt;code&gt;</p>');
    const plain = await render(TextField({ label: 'Email', name: 'email', type: 'email', value: '"><x' }));
    expect(plain).not.toContain('aria-invalid');
    expect(plain).not.toContain('aria-describedby');
    expect(plain).toContain('value="&quot;&gt;&lt;x"');
  });

  it('CopyField, Notice, SubmitButton and PostButtonForm', async () => {
    const copy = await render(CopyField({ label: 'Your new key', value: 'smk_abc', id: 'new-key' }));
    expect(copy).toContain('<input id="new-key" type="text" value="smk_abc" readonly=""');
    expect(copy).toMatch(
      /<button type="button"[^>]* data-copy-target="new-key" data-copy-status="new-key-status" hidden="">Copy<\/button>/,
    );
    expect(copy).toContain('id="new-key-status" aria-live="polite"');
    expect(await render(Notice({ kind: 'error', children: 'x' }))).toContain('role="alert"');
    expect(await render(Notice({ kind: 'success', children: 'x' }))).toContain('role="status"');
    expect(await render(SubmitButton({ children: 'Delete', variant: 'danger', name: 'op', value: 'delete' }))).toBe(
      '<button type="submit" class="button button-danger" name="op" value="delete">Delete</button>',
    );
    const revoke = await render(
      PostButtonForm({ action: '/account/sessions/revoke', csrfToken: 'tok', label: 'Revoke', hidden: { id: 'ses_1' } }),
    );
    expect(revoke).toContain('<form method="post" action="/account/sessions/revoke"');
    expect(revoke).toContain('<input type="hidden" name="_csrf" value="tok"/>');
    expect(revoke).toContain('<input type="hidden" name="id" value="ses_1"/>');
  });
});

describe('assets', () => {
  it('serves the stylesheet and script at hashed paths with a year of immutable caching', async () => {
    expect(assetPaths.css).toMatch(/^\/assets\/app\.[0-9a-f]{10}\.css$/);
    expect(assetPaths.js).toMatch(/^\/assets\/app\.[0-9a-f]{8}\.js$/);
    for (const [path, type, body] of [
      [assetPaths.css, 'text/css; charset=utf-8', STYLES],
      [assetPaths.js, 'text/javascript; charset=utf-8', CLIENT_SCRIPT],
    ] as const) {
      const res = await request(`${HTTPS}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe(type);
      expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
      expect(await res.text()).toBe(body);
    }
  });

  it('anything else under /assets is 404', async () => {
    for (const path of ['/assets/app.00000000.css', '/assets/app.css', '/assets/constructor', '/assets/__proto__', '/assets/']) {
      expect((await request(`${HTTPS}${path}`)).status, path).toBe(404);
    }
  });

  it('the layout references the hashed paths and loads nothing from another host', async () => {
    const html = await (await request(`${HTTPS}/p/account`)).text();
    expect(html).toContain(`<link rel="stylesheet" href="${assetPaths.css}"/>`);
    expect(html).toContain(`<script src="${assetPaths.js}" defer=""></script>`);
    for (const [, url] of html.matchAll(/(?:src|href|action)="([^"]*)"/g)) expect(url, url).toMatch(/^[/#]/);
    expect(STYLES).not.toMatch(/url\(|@import/);
    expect(CLIENT_SCRIPT).not.toMatch(/https?:/);
  });

  it('the stylesheet has both themes and a visible focus outline', () => {
    expect(STYLES).toMatch(/@media ?\(prefers-color-scheme: ?dark\)/);
    expect(STYLES).toMatch(/:focus-visible\s*\{\s*outline: ?3px solid/);
  });
});
