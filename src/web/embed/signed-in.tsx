import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-types';
import { serviceCtx } from '../../http/create-app';
import { AppError } from '../../lib/errors';
import { businessBySlug as findBusinessBySlug } from '../../services/businesses';
import { sendConnection } from '../../services/connections';
import { widgetCacheKey } from '../../services/kernel';
import { upcomingShiftsOfUser } from '../../services/shifts';
import { cachedWidgetData, loadWidgetData } from '../../services/widgets';
import { CsrfField, Notice } from '../components';
import { csrf } from '../csrf';
import { Layout } from '../layout';
import { renderPage } from '../render';
import { requireWebUser } from '../session';
import { appUrl } from '../urls';
import { EmptyState, NOT_FOUND, ProfileBody } from './frame';
import { renderFrame } from './render';

/**
 * connect and schedule act for a signed-in person. A widget frame on a partner's site cannot use
 * Shiftmarket's session: the cookie is SameSite=Lax (never sent in a third-party frame) and the
 * sandboxed frame has an opaque origin (no cookies at all). So these two frames show what is public
 * and a button that opens a Shiftmarket page in a new window (the iframe's sandbox lets that window
 * escape it): a first-party page, where the person's own session works, or the sign-in page takes them
 * there. The action (asking to connect) is a CSRF-protected form on that page, as on every page.
 * docs/decisions/widgets.md weighs this against a partner-minted token.
 */
export const signedInPages = new Hono<AppEnv>();
const SLUG = /^[a-z0-9][a-z0-9-]{0,79}$/;

const systemCtx = (c: Parameters<typeof serviceCtx>[0]) => ({ ...serviceCtx(c), actor: { kind: 'system' as const, job: 'widgets' } });

signedInPages.get('/embed/v1/frame/connect', async (c) => {
  const slug = c.req.query('slug') ?? '';
  if (c.req.query('kind') === 'shifter' || !SLUG.test(slug)) return renderFrame(c, NOT_FOUND.title, <EmptyState {...NOT_FOUND} />, 404);
  const ctx = systemCtx(c);
  const { data, hit } = await cachedWidgetData(ctx, widgetCacheKey('profile', 'business', slug), () =>
    loadWidgetData(ctx, 'profile', 'business', slug, ''),
  );
  if (!data) return renderFrame(c, NOT_FOUND.title, <EmptyState {...NOT_FOUND} />, 404, hit ? 'hit' : 'miss');
  const href = appUrl(c, `/embed/v1/connect/${encodeURIComponent(slug)}`);
  return renderFrame(
    c,
    `Connect with ${data.party.name}`,
    <section>
      <ProfileBody party={data.party} />
      <a class="button" href={href} target="_blank" rel="noopener">
        Ask to connect on Shiftmarket
      </a>
      <p class="muted">Opens Shiftmarket in a new window, where you sign in if needed.</p>
    </section>,
    200,
    hit ? 'hit' : 'miss',
  );
});

signedInPages.get('/embed/v1/frame/schedule', (c) => {
  const href = appUrl(c, '/embed/v1/schedule');
  return renderFrame(
    c,
    'Your Shiftmarket schedule',
    <section>
      <h1>Your upcoming shifts</h1>
      <p class="muted">Your schedule is private: it opens on Shiftmarket, where you are signed in.</p>
      <a class="button" href={href} target="_blank" rel="noopener">
        Open my schedule
      </a>
    </section>,
  );
});

// The first-party pages: the cookie session and the CSRF check, as every page.
signedInPages.use('/embed/v1/connect/*', csrf, requireWebUser);
signedInPages.use('/embed/v1/schedule', csrf, requireWebUser);

async function businessBySlug(c: Parameters<typeof serviceCtx>[0], slug: string) {
  if (!SLUG.test(slug)) return undefined;
  return findBusinessBySlug(serviceCtx(c), slug);
}

function ConnectPage({
  name,
  slug,
  csrfToken,
  notice,
}: {
  name: string;
  slug: string;
  csrfToken: string;
  notice?: { kind: 'success' | 'error'; text: string };
}) {
  return (
    <>
      <h1>Connect with {name}</h1>
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <p>Once {name} accepts, they can send you shift requests directly.</p>
      <form method="post" action={`/embed/v1/connect/${encodeURIComponent(slug)}`}>
        <CsrfField token={csrfToken} />
        <button type="submit" class="button button-primary">
          Ask to connect
        </button>
      </form>
    </>
  );
}

signedInPages.get('/embed/v1/connect/:slug', async (c) => {
  const b = await businessBySlug(c, c.req.param('slug'));
  const user = c.get('webUser');
  if (!b) {
    return renderPage(
      c,
      <Layout title="Not found" user={user} csrfToken={c.get('csrfToken')}>
        <h1>Business not found</h1>
        <p>This link may be out of date.</p>
      </Layout>,
      404,
    );
  }
  return renderPage(
    c,
    <Layout title={`Connect with ${b.name}`} user={user} csrfToken={c.get('csrfToken')}>
      <ConnectPage name={b.name} slug={c.req.param('slug')} csrfToken={c.get('csrfToken')} />
    </Layout>,
  );
});

signedInPages.post('/embed/v1/connect/:slug', async (c) => {
  const slug = c.req.param('slug');
  const b = await businessBySlug(c, slug);
  const user = c.get('webUser');
  if (!b) return c.redirect(`/embed/v1/connect/${encodeURIComponent(slug)}`, 303);
  let notice: { kind: 'success' | 'error'; text: string };
  let status: 200 | 403 | 409 | 422 = 200;
  try {
    const conn = await sendConnection(serviceCtx(c), { business_id: b.id, shifter_id: null, as: 'shifter' });
    notice = {
      kind: 'success',
      text: conn.status === 'accepted' ? `You are connected with ${b.name}.` : `Request sent: ${b.name} will see it.`,
    };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    notice = { kind: 'error', text: err.message };
    status = err.code === 'CONNECTION-EXISTS-ERR' ? 409 : err.status === 403 ? 403 : 422;
  }
  return renderPage(
    c,
    <Layout title={`Connect with ${b.name}`} user={user} csrfToken={c.get('csrfToken')}>
      <ConnectPage name={b.name} slug={slug} csrfToken={c.get('csrfToken')} notice={notice} />
    </Layout>,
    status,
  );
});

signedInPages.get('/embed/v1/schedule', async (c) => {
  const user = c.get('webUser')!;
  const rows = await upcomingShiftsOfUser(serviceCtx(c), user.userId);
  return renderPage(
    c,
    <Layout title="Your upcoming shifts" user={user} csrfToken={c.get('csrfToken')}>
      <h1>Your upcoming shifts</h1>
      {rows.length === 0 ? (
        <p>No upcoming shifts.</p>
      ) : (
        <ul>
          {rows.map(({ row, role, business }) => (
            <li>
              {row.shift_date} {row.shift_in}–{row.shift_out}: {role} at {business}
            </li>
          ))}
        </ul>
      )}
    </Layout>,
  );
});
