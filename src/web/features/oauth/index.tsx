import { AuthorizationError, CimdFetchError, type ConsentDescription } from '@cloudflare/workers-oauth-provider';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv, WebUser } from '@/http/app-types';
import { type GrantProps, isToolScope, MCP_SCOPES } from '@/mcp/caller';
import { oauthHelpers } from '@/mcp/oauth';
import type { ToolScope } from '@shiftmarket/tool-specs';
import { Card, CsrfField, Notice, SubmitButton } from '@/web/components';
import { Layout } from '@/web/layout';
import { renderError, renderPage } from '@/web/render';
import { clearSessionCookie, readWebSession } from '@/web/session';
import { readAppCookie } from '@/http/cookies';

export { agentSettingsPage } from './agent-settings';

/**
 * {auth_url}/oauth/authorize: the consent page of the agent tool server's OAuth (spec 4.12, 5.3).
 * The provider validates the request (client, exact redirect URI, S256 PKCE, resource); a signed-out
 * browser goes to sign-in first and comes back; the page names the client (escaped by JSX; a CIMD
 * client's verified domain, else a warning that the name is self-asserted), where the tokens go (with
 * a warning for an app on this computer), and the three scopes, each with its own box (payment is never
 * ticked in advance, even when asked for). Allow issues a
 * code for the ticked scopes only; Deny (or nothing ticked) sends the client `access_denied`. The
 * form carries the CSRF token of every page form, and the provider's handle, bound to this browser by
 * its own `__Host-` cookie and good for one answer within ten minutes.
 */

const SCOPE_TEXT: Record<ToolScope, { title: string; text: string }> = {
  read: {
    title: 'Read',
    text: 'See your account and profiles, your shifts and open broadcasts, your timesheets, your connections, earnings and spend.',
  },
  write: {
    title: 'Write',
    text: 'Post, claim, cancel and clock in or out of shifts, correct or dispute timesheets, change your profile and make counter-offers. Each change asks you first, unless you turn that off in your account.',
  },
  payment: {
    title: 'Payment',
    text: 'Start a pre-payment for a claimed shift: no money moves until you confirm it yourself on a Shiftmarket page. Approve timesheets, which writes their invoices: each approval asks you first, always.',
  },
};

interface ConsentViewProps {
  user: WebUser;
  csrfToken: string;
  details: ConsentDescription;
  handle: string;
}

function ConsentView({ user, csrfToken, details, handle }: ConsentViewProps) {
  const requested = new Set(details.scope);
  // Payment is never ticked for the person, even when the app asks for it: giving it must be a choice.
  const preset = (s: ToolScope) => s !== 'payment' && (requested.size ? requested.has(s) : s === 'read');
  return (
    <Layout title="Allow access" user={user} csrfToken={csrfToken}>
      <h1>Allow {details.clientName} to use your Shiftmarket account?</h1>
      {details.clientDomain ? (
        <p>
          Published by <strong>{details.clientDomain}</strong>.
        </p>
      ) : (
        <Notice kind="info">This app registered itself: its name is not verified.</Notice>
      )}
      <p>
        Access will be sent to <strong>{details.redirectHost}</strong>.
      </p>
      {details.redirectIsLoopback ? (
        <Notice kind="error">This sends access to an app on your computer. Continue only if you just started connecting from it.</Notice>
      ) : null}
      <Card title="What it may do">
        <form method="post" action="/oauth/authorize" class="stack">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="handle" value={handle} />
          <fieldset class="stack">
            <legend>Choose what to allow; untick anything you do not want to give.</legend>
            {MCP_SCOPES.map((s) => (
              <div class="field checkbox">
                <input type="checkbox" id={`scope-${s}`} name="scope" value={s} checked={preset(s)} aria-describedby={`scope-${s}-hint`} />
                <label for={`scope-${s}`}>{SCOPE_TEXT[s].title}</label>
                <p class="hint" id={`scope-${s}-hint`}>
                  {SCOPE_TEXT[s].text}
                  {s === 'payment' && requested.has('payment') ? ' The app asks for it; it stays off unless you tick it.' : null}
                </p>
              </div>
            ))}
          </fieldset>
          <p class="hint">It acts as you ({user.email}). You can end its access by signing in again with another choice.</p>
          <div class="actions">
            <SubmitButton name="decision" value="approve">
              Allow
            </SubmitButton>
            <SubmitButton name="decision" value="deny" variant="secondary">
              Deny
            </SubmitButton>
          </div>
        </form>
      </Card>
    </Layout>
  );
}

function failure(c: Parameters<typeof renderError>[0], err: unknown): Promise<Response> | Response {
  if (err instanceof AuthorizationError && err.redirectTo) return c.redirect(err.redirectTo, 302);
  if (err instanceof AuthorizationError)
    return renderError(c, 400, 'Cannot authorize', `This authorization request cannot be completed: ${err.description}`);
  if (err instanceof CimdFetchError)
    return renderError(c, 400, 'Cannot authorize', 'This app could not be verified: its metadata document could not be read.');
  throw err;
}

/**
 * Sign-in's `next` takes at most 512 characters, which an authorization request can pass (a metadata
 * document URL as client id, the redirect URI, challenge, state, resource). A longer one waits in a
 * short-lived cookie of its own and `next` says only where to resume.
 */
const RESUME_COOKIE = 'sm_oauth_resume';
const RESUME_PATH = '/oauth/authorize?resume=1';
const NEXT_MAX = 500;

function resumeOptions(c: Context<AppEnv>, maxAge: number) {
  const https = new URL(c.req.url).protocol === 'https:';
  return https
    ? ({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge, secure: true, prefix: 'host' } as const)
    : ({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge } as const);
}

/** The authorization request to answer: this one, or the one a sign-in put aside (`?resume=1`). */
function authorizationRequest(c: Context<AppEnv>): Request {
  const url = new URL(c.req.url);
  if (url.search !== '?resume=1') return c.req.raw;
  const https = url.protocol === 'https:';
  const saved = https ? getCookie(c, RESUME_COOKIE, 'host') : getCookie(c, RESUME_COOKIE);
  if (!saved?.startsWith('?')) return c.req.raw;
  setCookie(c, RESUME_COOKIE, '', resumeOptions(c, 0));
  return new Request(`${url.origin}${url.pathname}${saved}`, c.req.raw);
}

/** The signed-in person, or the redirect that gets one (sign-in, or the second factor) and comes back here. */
async function signedIn(
  c: Parameters<typeof renderError>[0],
  request: Request = c.req.raw,
): Promise<{ user: WebUser } | { redirect: Response }> {
  const session = await readWebSession(c);
  const url = new URL(request.url);
  let here = `${url.pathname}${url.search}`;
  if (session.kind !== 'active' && here.length > NEXT_MAX) {
    setCookie(c, RESUME_COOKIE, url.search, resumeOptions(c, 600));
    here = RESUME_PATH;
  }
  if (session.kind === 'pending') return { redirect: c.redirect(`/login/2fa?next=${encodeURIComponent(here)}`, 303) };
  if (session.kind === 'none') {
    if (readAppCookie(c, 'session')) clearSessionCookie(c);
    return { redirect: c.redirect(`/login?next=${encodeURIComponent(here)}`, 303) };
  }
  c.set('webUser', session.user);
  return { user: session.user };
}

export const oauthPages = new Hono<AppEnv>()
  .get('/oauth/authorize', async (c) => {
    const oauth = oauthHelpers(c);
    if (!oauth) return renderError(c, 404, 'Page not found', 'There is no such page.');
    try {
      const raw = authorizationRequest(c);
      const request = await oauth.parseAuthRequest(raw);
      const who = await signedIn(c, raw);
      if ('redirect' in who) return who.redirect;
      const details = await oauth.describeConsent(request);
      const consent = await oauth.beginConsent(request);
      const page = await renderPage(
        c,
        <ConsentView user={who.user} csrfToken={c.get('csrfToken')} details={details} handle={consent.handle} />,
      );
      for (const [k, v] of consent.headers) page.headers.append(k, v);
      return page;
    } catch (err) {
      return failure(c, err);
    }
  })
  .post('/oauth/authorize', async (c) => {
    const oauth = oauthHelpers(c);
    if (!oauth) return renderError(c, 404, 'Page not found', 'There is no such page.');
    const who = await signedIn(c);
    if ('redirect' in who) return who.redirect;
    const form = await c.req.formData();
    const rawHandle = form.get('handle');
    const handle = typeof rawHandle === 'string' ? rawHandle.slice(0, 500) : '';
    const ticked = form.getAll('scope').filter((s): s is ToolScope => typeof s === 'string' && isToolScope(s));
    const scopes = MCP_SCOPES.filter((s) => ticked.includes(s));
    try {
      if (form.get('decision') !== 'approve' || scopes.length === 0) {
        const denied = await oauth.denyConsent(c.req.raw, handle);
        return new Response(null, { status: 302, headers: withLocation(denied.headers, denied.redirectTo) });
      }
      const approved = await oauth.approveConsent(c.req.raw, handle, { scope: scopes });
      const props: GrantProps = { kind: 'oauth', user_id: who.user.userId, scopes, acting_as: 'human' };
      const { redirectTo } = await oauth.completeAuthorization({
        request: approved.request,
        userId: who.user.userId,
        metadata: { label: approved.request.clientId.slice(0, 200) },
        scope: scopes,
        props,
      });
      return new Response(null, { status: 302, headers: withLocation(approved.headers, redirectTo) });
    } catch (err) {
      return failure(c, err);
    }
  });

function withLocation(headers: Headers, location: string): Headers {
  const h = new Headers(headers);
  h.set('Location', location);
  h.set('Cache-Control', 'no-store');
  return h;
}
