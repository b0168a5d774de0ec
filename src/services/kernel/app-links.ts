import type { ServiceContext } from './context';

/** The development origin of `npm run dev`: links use it only when nothing else names the site. */
const DEV_ORIGIN = 'http://localhost:8787';

function originOf(raw: string | undefined): string | null {
  const v = raw?.trim();
  if (!v) return null;
  try {
    return new URL(v).origin;
  } catch {
    return null; // a malformed setting falls through; the pages refuse it loudly (web/urls.ts)
  }
}

/**
 * {app_url}'s origin for links a service sends (emails, texts, agent answers, processor return
 * addresses): APP_URL, else the origin of the request being served, else AUTH_URL (the same site when
 * only it is set), else the development server's. One rule for every link, so a page and the message
 * pointing to it never disagree.
 */
export function appLinkOrigin(ctx: ServiceContext, requestOrigin?: string): string {
  return originOf(ctx.settings.APP_URL) ?? requestOrigin ?? originOf(ctx.settings.AUTH_URL) ?? DEV_ORIGIN;
}
