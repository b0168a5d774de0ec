import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { WebUser } from '../http/app-types';
import { assetPaths } from './assets';
import { CsrfField } from './components';

/** The account pages in the navigation, in order; `current` marks one with aria-current="page". */
export const ACCOUNT_NAV = [
  { href: '/account', label: 'Profile' },
  { href: '/account/api-key', label: 'API key' },
  { href: '/account/password', label: 'Password' },
  { href: '/account/sessions', label: 'Sessions' },
  { href: '/account/security', label: 'Two-factor' },
  { href: '/account/agents', label: 'Agents' },
] as const;

export interface LayoutProps {
  /** The page's own title; the document title becomes "<title> · Shiftmarket". */
  title: string;
  /** The signed-in person: shows the account navigation and Sign out. */
  user?: WebUser | undefined;
  /** Needed with `user`: the Sign out form posts it. */
  csrfToken?: string | undefined;
  /** The path of the current page among ACCOUNT_NAV, e.g. '/account/sessions'. */
  current?: string | undefined;
  /** Further scripts of this page, after the layout's own, in order (deferred). */
  scripts?: readonly string[] | undefined;
  children?: Child;
}

/**
 * The one page shell: document head (charset, viewport, both color schemes, the hashed stylesheet
 * and script), a skip link, the header with the product name and, when signed in, the account
 * navigation and a Sign out form (a POST with the CSRF field, so a link elsewhere cannot sign anyone
 * out), then `<main id="main">` with the page.
 */
export function Layout({ title, user, csrfToken, current, scripts, children }: LayoutProps) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <meta name="robots" content="noindex" />
          <title>{`${title} · Shiftmarket`}</title>
          <link rel="stylesheet" href={assetPaths.css} />
          <script src={assetPaths.js} defer />
          {scripts?.map((src) => (
            <script src={src} defer />
          ))}
        </head>
        <body>
          <a class="skip-link" href="#main">
            Skip to main content
          </a>
          <header class="site-header">
            <div class="site-header-inner">
              <a class="brand" href={user ? '/account' : '/login'}>
                Shiftmarket
              </a>
              {user ? (
                <p class="signed-in">
                  Signed in as <strong>{user.displayName || user.email}</strong>
                </p>
              ) : null}
              {user ? (
                <nav class="site-nav" aria-label="Account">
                  <ul>
                    {ACCOUNT_NAV.map((item) => (
                      <li>
                        <a href={item.href} aria-current={item.href === current ? 'page' : undefined}>
                          {item.label}
                        </a>
                      </li>
                    ))}
                    <li>
                      <form method="post" action="/logout" class="inline-form">
                        <CsrfField token={csrfToken ?? ''} />
                        <button type="submit" class="button-link">
                          Sign out
                        </button>
                      </form>
                    </li>
                  </ul>
                </nav>
              ) : null}
            </div>
          </header>
          <main id="main" tabindex={-1}>
            {children}
          </main>
        </body>
      </html>
    </>
  );
}
