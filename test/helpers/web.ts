import { exports } from 'cloudflare:workers';
import type { WorkerFetch } from './api';

/**
 * A browser for the pages, in-process: keeps cookies (by name, as the Worker sets them), follows
 * nothing by itself (tests look at each redirect), and posts forms with the CSRF token of the last
 * page it read, as a browser submitting that page's form would.
 */
/** One answer as the client saw it. */
export interface Page {
  status: number;
  location: string | null;
  headers: Headers;
  html: string;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The `_csrf` value of the last page that had a form. */
  token = '';

  constructor(
    readonly origin = 'https://app.example.com',
    readonly headers: Record<string, string> = {},
    /** The Worker to talk to; another one runs the same app with other operator settings. */
    readonly worker: WorkerFetch = (req) => exports.default.fetch(req),
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** The raw Set-Cookie lines of a response are applied to the jar (Max-Age=0 deletes). */
  private keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers = new Headers({ ...this.headers, ...init.headers });
    if (this.cookies.size) headers.set('Cookie', this.cookieHeader());
    let body: string | undefined;
    if (init.form) {
      headers.set('Content-Type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const res = await this.worker(new Request(new URL(path, this.origin), { method, headers, body, redirect: 'manual' }));
    this.keep(res);
    const html = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.token = token;
    return { status: res.status, headers: res.headers, html, location: res.headers.get('Location') } satisfies Page;
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /**
   * Posts a form with the CSRF token a page would carry now (pages print the csrf cookie's token,
   * which sign-in rotates), unless `_csrf` is given or `csrf: false`.
   */
  post(path: string, form: Record<string, string> = {}, opts: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    const token = this.cookies.get('__Host-sm_csrf') ?? this.cookies.get('sm_csrf') ?? this.token;
    const withToken = opts.csrf === false || '_csrf' in form ? form : { _csrf: token, ...form };
    return this.request('POST', path, { form: withToken, headers: opts.headers ?? {} });
  }

  /** Signs in through the pages (GET /login for the token, POST /login); returns the POST's answer. */
  async signIn(email: string, password: string, next?: string) {
    await this.get(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
    return this.post('/login', { email, password, ...(next ? { next } : {}) });
  }

  /** The session cookie's value (the session token), whatever its name on this origin. */
  get session(): string | undefined {
    return this.cookies.get('__Host-sm_session') ?? this.cookies.get('sm_session');
  }

  deviceCookie(): string | undefined {
    return this.cookies.get('__Host-sm_device') ?? this.cookies.get('sm_device');
  }
}
