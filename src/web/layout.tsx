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

export interface DocumentProps {
  title: string;
  /** Further scripts of this page, after the layout's own, in order (deferred). */
  scripts?: readonly string[] | undefined;
  /** Further stylesheets of this page (an island's own, e.g. the calendar's). */
  styles?: readonly string[] | undefined;
  /** Printed as `<meta name="csrf-token">` for the page's scripts (they send it as X-CSRF-Token). */
  csrfToken?: string | undefined;
  bodyClass?: string | undefined;
  /** The web app manifest to link (the installable shifter side). */
  manifest?: string | undefined;
  children?: Child;
}

/**
 * The document every page shares: head (charset, viewport, both color schemes, the icon, the hashed
 * stylesheet and scripts, never an inline one), then a skip link and the page's body.
 */
export function Document({ title, scripts, styles, csrfToken, bodyClass, manifest, children }: DocumentProps) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <meta name="robots" content="noindex" />
          {csrfToken ? <meta name="csrf-token" content={csrfToken} /> : null}
          <title>{`${title} · Shiftmarket`}</title>
          <link rel="icon" href={assetPaths.favicon} type="image/svg+xml" />
          {manifest ? <link rel="manifest" href={manifest} /> : null}
          <link rel="stylesheet" href={assetPaths.css} />
          {styles?.map((href) => (
            <link rel="stylesheet" href={href} />
          ))}
          <script src={assetPaths.js} defer />
          {scripts?.map((src) => (
            <script src={src} defer />
          ))}
        </head>
        <body class={bodyClass}>
          <a class="skip-link" href="#main">
            Skip to main content
          </a>
          {children}
        </body>
      </html>
    </>
  );
}

/** The sign-out button: a POST with the CSRF field, so a link elsewhere cannot sign anyone out. */
/** The account's sections as list items, the current one marked: in this header and on the account pages. */
export function AccountNavItems({ current }: { current?: string | undefined }) {
  return (
    <>
      {ACCOUNT_NAV.map((item) => (
        <li>
          <a href={item.href} aria-current={item.href === current ? 'page' : undefined}>
            {item.label}
          </a>
        </li>
      ))}
    </>
  );
}

export function SignOutForm({ csrfToken }: { csrfToken: string }) {
  return (
    <form method="post" action="/logout" class="inline-form">
      <CsrfField token={csrfToken} />
      <button type="submit" class="button-link">
        Sign out
      </button>
    </form>
  );
}

/**
 * The shell of the account and sign-in pages: the header with the product name and, when signed in,
 * the account navigation and Sign out, then `<main id="main">` with the page.
 */
export function Layout({ title, user, csrfToken, current, scripts, children }: LayoutProps) {
  return (
    <Document title={title} scripts={scripts} csrfToken={user ? csrfToken : undefined}>
      <header class="site-header">
        <div class="site-header-inner">
          <a class="brand" href={user ? '/dashboard' : '/'}>
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
                <AccountNavItems current={current} />
                <li>
                  <SignOutForm csrfToken={csrfToken ?? ''} />
                </li>
              </ul>
            </nav>
          ) : null}
        </div>
      </header>
      <main id="main" tabindex={-1}>
        {children}
      </main>
    </Document>
  );
}
