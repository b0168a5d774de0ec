import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { WIDGET_BUNDLES } from '../../../generated/widgets/bundles';
import type { AppEnv } from '../../http/app-types';
import { fnv1a } from '../assets';
import { requestOrigin } from '../../http/origin';
import { FrameDocument, type Theme } from './frame';
import { FRAME_CSS } from './styles';

export type Version = keyof typeof WIDGET_BUNDLES;
const FRAME_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The script's cache: an hour fresh, then a day served stale while revalidating (with its ETag). */
export const SCRIPT_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';
/** Hashed addresses (frame stylesheet and script) change with their content: a year, immutable. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export const CSS_FILE = `frame.${fnv1a(FRAME_CSS)}.css`;

/** The frame's asset paths for a version. */
export function frameAssets(v: Version) {
  return { css: `/embed/${v}/assets/${CSS_FILE}`, js: `/embed/${v}/assets/${WIDGET_BUNDLES[v].frameScript.file}` };
}

/**
 * The frame page policy: only this origin's stylesheet and script (named by origin as well as
 * 'self': a sandboxed document has an opaque origin), nothing else loaded, no forms, no <base>, and
 * framing by WIDGET_FRAME_ANCESTORS (default `*`: public widgets go on any site).
 */
export function frameCsp(c: Context<AppEnv>): string {
  const self = requestOrigin(c);
  return [
    "default-src 'none'",
    `style-src 'self' ${self}`,
    `script-src 'self' ${self}`,
    "img-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors(c.get('settings').WIDGET_FRAME_ANCESTORS)}`,
  ].join('; ');
}

/** The operator's sources; a value that would end the directive fails closed ('none'). */
function frameAncestors(raw: string): string {
  const v = raw.trim();
  if (!v) return '*';
  return /[;,\r\n]/.test(v) ? "'none'" : v;
}

/** The host page's origin from the frame address, or '' when absent or not an http(s) origin. */
function hostOrigin(raw: string | undefined): string {
  if (!raw || raw.length > 300) return '';
  try {
    const u = new URL(raw);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === raw ? u.origin : '';
  } catch {
    return '';
  }
}

/** Renders a frame page with the frame headers; `status` 404 for an unknown party, 429 when held back (still a page). */
export async function renderFrame(
  c: Context<AppEnv>,
  title: string,
  body: Child,
  status: 200 | 404 | 429 = 200,
  cacheState?: string,
  extraHeaders: Record<string, string> = {},
) {
  const theme: Theme = c.req.query('theme') === 'dark' ? 'dark' : 'light';
  const id = c.req.query('id') ?? '';
  const assets = frameAssets('v1');
  const node = (
    <FrameDocument
      title={title}
      theme={theme}
      id={FRAME_ID.test(id) ? id : undefined}
      hostOrigin={hostOrigin(c.req.query('origin'))}
      cssPath={assets.css}
      jsPath={assets.js}
    >
      {body}
    </FrameDocument>
  );
  const html = await (await node).toString();
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    // The HTML differs per host origin and frame id; the data under it is what the edge cache keeps.
    'Cache-Control': 'no-store',
    'Content-Security-Policy': frameCsp(c),
    // The app's default X-Frame-Options (SAMEORIGIN) is not wanted here; frame-ancestors decides,
    // and browsers ignore X-Frame-Options whenever a frame-ancestors directive is present.
    'X-Frame-Options': 'ALLOWALL',
    'Referrer-Policy': 'no-referrer',
  };
  if (cacheState) headers['X-Widget-Cache'] = cacheState;
  return c.html(html, status, { ...headers, ...extraHeaders });
}
