// Making or replacing the crew's join link (/dashboard/crew/join-link: replacing asks first, since every
// printed copy stops working) and the poster to print for the venue (/dashboard/crew/join-poster).
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { getJoinLink, rotateJoinLink } from '@/services/connections';
import { Document } from '@/web/layout';
import { renderPage } from '@/web/render';
import { appOrigin } from '@/web/urls';
import { ConfirmPage } from '@/web/features/dashboard/confirm-page';
import { dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { refusalOf } from '@/web/features/dashboard/refusals';
import { loadCrew } from './crew-data';
import { CREW } from './crew-format';
import { CrewView } from './crew-view';
import { JOIN_LINK_PATH, JoinQr } from './join-link-card';

/** GET /dashboard/crew/join-link: replacing the live link asks first; with none, the crew page makes one. */
export async function renderRotateJoinLink(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const { link } = await getJoinLink(serviceCtx(c), base.business.id);
  if (!link) return c.redirect(dashboardHref(base, CREW), 303);
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Replace the join link"
      current={CREW}
      action={JOIN_LINK_PATH}
      button="Replace the join link"
      variant="danger"
      back={CREW}
    >
      <p>{`Replace the join link of ${base.business.name}? The current link stops working at once, on every poster and wherever it was shared. Print the new poster afterwards.`}</p>
    </ConfirmPage>,
  );
}

/** POST /dashboard/crew/join-link: makes the link, or replaces it (the confirmation page's button). */
export async function postRotateJoinLink(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  let had: boolean;
  try {
    had = (await getJoinLink(serviceCtx(c), base.business.id)).link !== null;
    await rotateJoinLink(serviceCtx(c), base.business.id, appOrigin(c));
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} error={r.message} />, r.status);
  }
  return c.redirect(dashboardHref(base, CREW, { notice: had ? 'link_replaced' : 'link_made' }), 303);
}

/** GET /dashboard/crew/join-poster: the business's name, the QR code and the link in words, to print. */
export async function renderJoinPoster(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const { link } = await getJoinLink(serviceCtx(c), base.business.id, appOrigin(c));
  const back = dashboardHref(base, CREW);
  return renderPage(
    c,
    <Document title={`Join the crew of ${base.business.name}`} bodyClass="poster-page">
      <main id="main" tabindex={-1} class="poster">
        <nav class="poster-toolbar" aria-label="Poster">
          <a href={back}>Back to the crew</a>
          <p>Print it with your browser’s Print command (Ctrl+P, or ⌘P on a Mac). The toolbar is left off the paper.</p>
        </nav>
        {link ? (
          <>
            <p class="poster-kicker">Work shifts with us</p>
            <h1>{`Join the crew of ${base.business.name}`}</h1>
            <p class="poster-lead">Scan the code with your phone’s camera.</p>
            <JoinQr url={link.url} big />
            <p>Or open this address in your browser:</p>
            <p class="poster-url">{link.url}</p>
            <p class="poster-foot">
              You sign in, or create a free Shiftmarket account, and join with one button. Once in the crew, you see the shifts we open to
              it and we can offer you shifts.
            </p>
          </>
        ) : (
          <>
            <h1>No join link yet</h1>
            <p>
              Make a join link on the <a href={back}>crew page</a> first; the poster shows it.
            </p>
          </>
        )}
      </main>
    </Document>,
    link ? 200 : 404,
  );
}
