import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv, WebUser } from '@/http/app-types';
import { Notice } from '@/web/components';
import { Document } from '@/web/layout';
import { readWebSession } from '@/web/session';

/**
 * The person looking at a visitor's page, when signed in: `readWebSession` makes them the actor, and
 * `webUser` is set so the app shell can be drawn. A session still waiting for its second factor
 * looks like a visitor here (the challenge is the only page it reaches once it signs in further).
 */
export async function signedInViewer(c: Context<AppEnv>): Promise<WebUser | null> {
  const session = await readWebSession(c);
  if (session.kind !== 'active') {
    c.set('actor', { kind: 'anonymous' });
    return null;
  }
  c.set('webUser', session.user);
  return session.user;
}

export interface PublicShellProps {
  title: string;
  /** The signed-in person on the front door: the header leads to their dashboard instead. */
  signedIn?: boolean | undefined;
  /** Marks the header link of the page (aria-current). */
  current?: '/signup' | '/login' | '/help' | undefined;
  notice?: string | undefined;
  error?: string | undefined;
  /** The front door draws its own wide layout; forms keep the narrow column. */
  wide?: boolean | undefined;
  /** False: the page draws its own heading (the front door's hero). */
  heading?: boolean | undefined;
  /** The page's island scripts (deferred). */
  scripts?: readonly string[] | undefined;
  children?: Child;
}

/**
 * The pages of a visitor (front door, sign-up, password recovery, public profiles): the product name
 * leading home, and sign in / create an account (or the way to the dashboard), then the page.
 */
export function PublicShell({ title, signedIn, current, notice, error, wide, heading = true, scripts, children }: PublicShellProps) {
  return (
    <Document title={title} bodyClass={wide ? 'public public-wide' : 'public'} scripts={scripts}>
      <header class="site-header">
        <div class="site-header-inner">
          <a class="brand" href="/">
            Shiftmarket
          </a>
          <nav class="public-links" aria-label="Account">
            <a href="/help" aria-current={current === '/help' ? 'page' : undefined}>
              Help
            </a>
            {signedIn ? (
              <a class="button button-primary" href="/dashboard">
                Go to your dashboard
              </a>
            ) : (
              <>
                <a href="/login" aria-current={current === '/login' ? 'page' : undefined}>
                  Sign in
                </a>
                <a class="button button-primary" href="/signup" aria-current={current === '/signup' ? 'page' : undefined}>
                  Create an account
                </a>
              </>
            )}
          </nav>
        </div>
      </header>
      <main id="main" tabindex={-1}>
        {heading ? <h1>{title}</h1> : null}
        {notice ? <Notice kind="success">{notice}</Notice> : null}
        {error ? <Notice kind="error">{error}</Notice> : null}
        {children}
      </main>
    </Document>
  );
}
