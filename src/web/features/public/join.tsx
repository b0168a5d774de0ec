import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { clientIp } from '@/http/middleware/auth';
import { AppError } from '@/lib/errors';
import { createShifterProfile } from '@/services/accounts';
import { type CrewInvitationPreview, closedWords, joinCrew, previewCrewInvitation } from '@/services/connections';
import { CsrfField, IdempotencyField, Notice, SubmitButton } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '@/web/features/dashboard/context';
import { AppShell } from '@/web/features/dashboard/shell';
import { PublicShell, signedInViewer } from './shell';

/*
 * /join/{token}: the page a crew invitation's link or a crew's join link (its QR code) opens. It says
 * which business invites, whether the link still works (and what to do when it does not), and where
 * the person stands: a shifter joins with one button (the connection request the invitation accepts
 * at once, POST /join/{token}, the same service as POST /v1/request_authorization/join); an account
 * without the shifter side adds it and joins with the same button; a visitor creates an account (the
 * token rides through sign-up and the emailed code, and they land in the crew) or signs in and joins.
 */

const NOTICES = { joined: 'You joined the crew. They can offer you shifts now, and you see the shifts they open to their crew.' } as const;

export const joinPath = (token: string) => `/join/${encodeURIComponent(token)}`;

function Frame(p: { base: DashboardBase | null; title: string; notice?: string | undefined; error?: string | undefined; children: Child }) {
  return p.base ? (
    <AppShell base={p.base} title={p.title} side="shared" notice={p.notice} error={p.error}>
      {p.children}
    </AppShell>
  ) : (
    <PublicShell title={p.title} notice={p.notice} error={p.error}>
      {p.children}
    </PublicShell>
  );
}

/** What the person may do here, by where they stand and whether the link still works. */
function NextStep({ base, preview, token }: { base: DashboardBase | null; preview: CrewInvitationPreview; token: string }) {
  const b = preview.business.name;
  if (preview.viewer === 'in_crew') {
    return (
      <>
        <p>
          <span class="badge badge-ok">In the crew</span> {`You are in the crew of ${b}.`}
        </p>
        <div class="actions">
          <a class="button button-primary" href="/dashboard/shifter/find">
            Find shifts
          </a>
          <a class="button button-secondary" href="/dashboard/shifter/connections">
            Your businesses
          </a>
        </div>
      </>
    );
  }
  if (preview.viewer === 'acts_for') {
    return (
      <p>{`You act for ${b}: this link is for the people you invite to its crew. Share it, or print the poster from the crew page.`}</p>
    );
  }
  if (preview.state !== 'open') {
    return (
      <>
        <Notice kind="error">{closedWords(preview)}</Notice>
        <p class="join-more">
          <a href={`/b/${encodeURIComponent(preview.business.slug)}`}>{`See ${b}’s profile`}</a>
        </p>
      </>
    );
  }
  if (!base) {
    return (
      <>
        <p>Create a free Shiftmarket account to join: we email you a code to confirm it, and you are in the crew.</p>
        <div class="actions">
          <a class="button button-primary" href={`/signup?${new URLSearchParams({ invite: token })}`}>
            Create an account and join
          </a>
          <a class="button button-secondary" href={`/login?${new URLSearchParams({ next: joinPath(token) })}`}>
            I have an account: sign in
          </a>
        </div>
      </>
    );
  }
  const noShifter = preview.viewer === 'no_shifter';
  return (
    <form method="post" action={joinPath(token)} class="stack">
      <CsrfField token={base.csrfToken} />
      <IdempotencyField />
      {noShifter ? (
        <>
          <input type="hidden" name="start" value="shifter" />
          <p>Your account has no shifter side yet: joining adds it, so you can work shifts with this account too.</p>
        </>
      ) : null}
      <SubmitButton>{noShifter ? `Work shifts and join ${b}` : `Join the crew of ${b}`}</SubmitButton>
    </form>
  );
}

function JoinView(p: {
  base: DashboardBase | null;
  preview: CrewInvitationPreview;
  token: string;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const { business } = p.preview;
  const invited = p.preview.kind === 'invite' && p.preview.name ? p.preview.name : 'you';
  return (
    <Frame base={p.base} title={`Join the crew of ${business.name}`} notice={p.notice} error={p.error}>
      <div class="card">
        <p>
          <strong>{business.name}</strong>
          {business.city ? ` in ${business.city}` : ''}
          {` invites ${invited} to join their crew on Shiftmarket. In the crew, they can offer you shifts and you see the shifts they open to it.`}
        </p>
        <NextStep base={p.base} preview={p.preview} token={p.token} />
      </div>
      <p class="join-more">
        <a href={`/b/${encodeURIComponent(business.slug)}`}>{`About ${business.name}: reviews and open shifts`}</a>
      </p>
    </Frame>
  );
}

/** The page for a token: found (200), matching nothing (404) or past the budget of misses (429). */
async function renderJoin(c: Context<AppEnv>, extra: { status?: ContentfulStatusCode; error?: string } = {}): Promise<Response> {
  const token = (c.req.param('token') ?? '').slice(0, 64);
  const viewer = await signedInViewer(c);
  let preview: CrewInvitationPreview | null;
  try {
    preview = await previewCrewInvitation(serviceCtx(c), token, viewer?.userId ?? clientIp(c));
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'RATE-LIMIT-ERR') throw err;
    const retryAfter = err.headers?.['Retry-After'];
    if (retryAfter) c.header('Retry-After', retryAfter);
    return renderPage(
      c,
      <Frame base={viewer ? await dashboardBase(c) : null} title="Too many links tried">
        <p>{`${err.message} Then open the link from the message or the poster again.`}</p>
      </Frame>,
      429,
    );
  }
  const base = viewer ? await dashboardBase(c) : null;
  if (!preview) {
    return renderPage(
      c,
      <Frame base={base} title="This link does not work">
        <p>
          No invitation has this address. Check that the whole link was copied from the message (or scan the poster again), or ask the
          business to send you a new invitation.
        </p>
      </Frame>,
      404,
    );
  }
  const key = c.req.query('notice');
  const notice = !extra.error && key && Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : undefined;
  return renderPage(c, <JoinView base={base} preview={preview} token={token} notice={notice} error={extra.error} />, extra.status ?? 200);
}

export const renderJoinPage = (c: Context<AppEnv>) => renderJoin(c);

/**
 * POST /join/{token}: the signed-in person joins (adding the shifter side first when asked and
 * missing). A refusal is shown on the page in the service's words.
 */
export async function postJoin(c: Context<AppEnv>): Promise<Response> {
  const token = (c.req.param('token') ?? '').slice(0, 64);
  const field = await formFields(c);
  const ctx = serviceCtx(c);
  try {
    if (field('start', 16) === 'shifter') {
      // Its own step, outside the form's idempotency key (which the join's write marks): adding a side
      // the account has already changes nothing.
      await createShifterProfile({ ...ctx, idempotency: undefined }, {}).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === 'PROFILE-EXISTS-ERR')) throw err;
      });
    }
    await joinCrew(ctx, { token });
  } catch (err) {
    if (err instanceof AppError && err.status < 500 && err.code !== 'RATE-LIMIT-ERR') {
      return renderJoin(c, { status: err.status as ContentfulStatusCode, error: err.message });
    }
    const problem = formProblem(c, err);
    return renderJoin(c, { status: problem.status, error: problem.message });
  }
  return c.redirect(`${joinPath(token)}?notice=joined`, 303);
}
