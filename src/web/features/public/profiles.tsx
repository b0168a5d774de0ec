import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { sendConnection } from '@/services/connections';
import { findPublicBusiness, findPublicShifter, type PublicBusiness, type PublicShifter } from '@/services/profiles';
import type { Rating } from '@/services/reviews';
import { type OpenShift, openBroadcasts, type PublicReview, publicReviews } from '@/services/widgets';
import { CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { formatDate, formatMoney, shiftHours } from '@/web/format';
import { formFields, formProblem } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { PublicShell, signedInViewer } from './shell';

/*
 * Public profiles: /s/{slug} (a shifter) and /b/{slug} (a business), for anyone, signed in or not.
 * Their details and ratings come from the one public reader (services/profiles) and their reviews and
 * open broadcasts from the widgets' public reads (upheld disputes left out; a broadcast's public
 * fields only). A signed-in person sees them inside the app shell, and on the other side of a
 * connection (a business looking at a shifter, a shifter at a business) may ask to connect, with the
 * same service as POST /v1/request_authorization/send.
 */

const NOTICES = {
  asked: 'Your connection request was sent. You are connected once they accept.',
  connected: 'You are connected: they had asked you too.',
} as const;

const noticeOf = (c: Context<AppEnv>) => {
  const key = c.req.query('notice');
  return key && Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : undefined;
};

/** The signed-in viewer's shell data, or null for a visitor. */
async function viewerBase(c: Context<AppEnv>): Promise<DashboardBase | null> {
  return (await signedInViewer(c)) ? dashboardBase(c) : null;
}

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

const monthYear = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(ms));

function Stars({ rating }: { rating: number }) {
  const whole = Math.round(rating);
  return (
    <span class="stars">
      <span aria-hidden="true">{'★'.repeat(whole) + '☆'.repeat(5 - whole)}</span>
      <span class="visually-hidden">{`${rating} out of 5`}</span>
    </span>
  );
}

function RatingSummary({ ratings }: { ratings: Rating }) {
  if (ratings.average === null || ratings.count === 0) return <p class="empty">No reviews yet.</p>;
  return (
    <p class="rating-summary">
      <Stars rating={ratings.average} /> <strong>{ratings.average.toFixed(2)}</strong> out of 5, from {ratings.count}{' '}
      {ratings.count === 1 ? 'review' : 'reviews'}
    </p>
  );
}

function Reviews({ reviews, ratings }: { reviews: PublicReview[]; ratings: Rating }) {
  return (
    <section class="card" aria-labelledby="reviews-title">
      <h2 id="reviews-title">Ratings and reviews</h2>
      <RatingSummary ratings={ratings} />
      {reviews.length ? (
        <ul class="list-plain review-list">
          {reviews.map((r) => (
            <li>
              <p class="review-head">
                <Stars rating={r.rating} /> {r.by_name ?? 'Someone they worked with'}
                {' · '}
                <time datetime={new Date(r.created_at).toISOString()}>{monthYear(r.created_at)}</time>
              </p>
              {r.review_text ? <p>{r.review_text}</p> : null}
              {r.response_text ? (
                <p class="review-response">
                  <strong>Response:</strong> {r.response_text}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** "Ask to connect": the form for a person on the other side, sign-in for a visitor, nothing otherwise. */
function ConnectBox({
  base,
  action,
  children,
  signInNext,
}: {
  base: DashboardBase | null;
  action: string;
  children?: Child;
  signInNext: string;
}) {
  if (!base) {
    return (
      <p>
        <a href={`/login?next=${encodeURIComponent(signInNext)}`}>Sign in</a> to ask to connect.
      </p>
    );
  }
  if (!children) return null;
  return (
    <form method="post" action={action} class="connect-form">
      <CsrfField token={base.csrfToken} />
      <IdempotencyField />
      {children}
    </form>
  );
}

// ── Shifters ─────────────────────────────────────────────────────────────────────────────────────

function ShifterView(p: {
  base: DashboardBase | null;
  shifter: PublicShifter;
  reviews: PublicReview[];
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const { base, shifter: s } = p;
  const path = `/s/${encodeURIComponent(s.slug)}`;
  // A business the viewer acts for may ask; never the shifter themselves.
  const businesses = base && base.shifterId !== s.id ? base.businesses : [];
  return (
    <Frame base={base} title={s.display_name} notice={p.notice} error={p.error}>
      <div class="profile-head">
        {s.accept_shift_req ? null : (
          <p>
            <span class="badge badge-warn">Paused</span> <span class="muted">Not taking shift requests right now.</span>
          </p>
        )}
        {s.headline ? <p class="profile-headline">{s.headline}</p> : null}
        <p class="muted">
          Shifter{s.city ? ` in ${s.city}` : ''} · on Shiftmarket since {monthYear(s.created_at)}
        </p>
        {s.bio ? <p>{s.bio}</p> : null}
        <ConnectBox base={base} action={`${path}/connect`} signInNext={path}>
          {businesses.length === 1 ? (
            <>
              <input type="hidden" name="business_id" value={businesses[0]!.id} />
              <SubmitButton>{`Ask to connect as ${businesses[0]!.name}`}</SubmitButton>
            </>
          ) : businesses.length > 1 ? (
            <>
              <label for="connect-business">Ask to connect as</label>{' '}
              <select id="connect-business" name="business_id">
                {businesses.map((b) => (
                  <option value={b.id} selected={b.id === base?.business?.id}>
                    {b.name}
                  </option>
                ))}
              </select>{' '}
              <SubmitButton>Ask to connect</SubmitButton>
            </>
          ) : undefined}
        </ConnectBox>
      </div>
      <Reviews reviews={p.reviews} ratings={s.ratings} />
    </Frame>
  );
}

async function loadShifter(c: Context<AppEnv>) {
  const ctx = serviceCtx(c);
  const shifter = await findPublicShifter(ctx, c.req.param('slug') ?? '');
  if (!shifter) return null;
  return { shifter, reviews: await publicReviews(ctx, 'shifter', shifter.id) };
}

const notFound = (c: Context<AppEnv>) => renderError(c, 404, 'Page not found', 'There is no profile at this address.');

export async function renderShifterProfile(c: Context<AppEnv>, status: ContentfulStatusCode = 200, error?: string): Promise<Response> {
  const [base, data] = await Promise.all([viewerBase(c), loadShifter(c)]);
  if (!data) return notFound(c);
  return renderPage(c, <ShifterView base={base} {...data} notice={error ? undefined : noticeOf(c)} error={error} />, status);
}

// ── Businesses ───────────────────────────────────────────────────────────────────────────────────

function Broadcasts({ shifts, business }: { shifts: OpenShift[]; business: PublicBusiness }) {
  return (
    <section class="card" aria-labelledby="open-shifts-title">
      <h2 id="open-shifts-title">Open shifts</h2>
      {shifts.length ? (
        <>
          <p class="hint">Times are in {business.timezone}.</p>
          <ul class="list-plain open-shifts">
            {shifts.map((s) => (
              <li>
                <strong>{s.role}</strong>
                <span class="nowrap">{formatDate(s.shift_date)}</span>
                <span class="nowrap">
                  {shiftHours(s.shift_in, s.shift_out)}
                  {s.is_flexible ? ' (flexible)' : ''}
                </span>
                <span class="nowrap">{`${formatMoney(s.hourly_rate, s.currency)}/h`}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p class="empty">No open shifts right now.</p>
      )}
    </section>
  );
}

function BusinessView(p: {
  base: DashboardBase | null;
  business: PublicBusiness;
  reviews: PublicReview[];
  shifts: OpenShift[];
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const { base, business: b } = p;
  const path = `/b/${encodeURIComponent(b.slug)}`;
  // A shifter may ask, unless they act for this business themselves.
  const mayAsk = !!base?.shifterId && !base.businesses.some((x) => x.id === b.id);
  return (
    <Frame base={base} title={b.name} notice={p.notice} error={p.error}>
      <div class="profile-head">
        <p class="muted">
          Business{b.city ? ` in ${b.city}` : ''} · on Shiftmarket since {monthYear(b.created_at)}
        </p>
        <ConnectBox base={base} action={`${path}/connect`} signInNext={path}>
          {mayAsk ? <SubmitButton>Ask to connect</SubmitButton> : undefined}
        </ConnectBox>
      </div>
      <Broadcasts shifts={p.shifts} business={b} />
      <Reviews reviews={p.reviews} ratings={b.ratings} />
    </Frame>
  );
}

async function loadBusiness(c: Context<AppEnv>) {
  const ctx = serviceCtx(c);
  const business = await findPublicBusiness(ctx, c.req.param('slug') ?? '');
  if (!business) return null;
  const [reviews, shifts] = await Promise.all([publicReviews(ctx, 'business', business.id), openBroadcasts(ctx, business.id)]);
  return { business, reviews, shifts };
}

export async function renderBusinessProfile(c: Context<AppEnv>, status: ContentfulStatusCode = 200, error?: string): Promise<Response> {
  const [base, data] = await Promise.all([viewerBase(c), loadBusiness(c)]);
  if (!data) return notFound(c);
  return renderPage(c, <BusinessView base={base} {...data} notice={error ? undefined : noticeOf(c)} error={error} />, status);
}

// ── Ask to connect ───────────────────────────────────────────────────────────────────────────────

/** A refusal of the connection service in words (its messages are written for people), else thrown on. */
function connectProblem(c: Context<AppEnv>, err: unknown): { status: ContentfulStatusCode; message: string } {
  if (err instanceof AppError && err.code !== 'RATE-LIMIT-ERR' && err.status < 500) return { status: err.status, message: err.message };
  return formProblem(c, err);
}

/** POST /s/{slug}/connect: a business the person acts for asks the shifter. */
export async function connectToShifter(c: Context<AppEnv>): Promise<Response> {
  const shifter = await findPublicShifter(serviceCtx(c), c.req.param('slug') ?? '');
  if (!shifter) return notFound(c);
  const field = await formFields(c);
  try {
    const made = await sendConnection(serviceCtx(c), { business_id: field('business_id', 100), shifter_id: shifter.id, as: 'business' });
    const notice = made.status === 'accepted' ? 'connected' : 'asked';
    return c.redirect(`/s/${encodeURIComponent(shifter.slug)}?notice=${notice}`, 303);
  } catch (err) {
    const problem = connectProblem(c, err);
    return renderShifterProfile(c, problem.status, problem.message);
  }
}

/** POST /b/{slug}/connect: the person's shifter profile asks the business. */
export async function connectToBusiness(c: Context<AppEnv>): Promise<Response> {
  const business = await findPublicBusiness(serviceCtx(c), c.req.param('slug') ?? '');
  if (!business) return notFound(c);
  try {
    const made = await sendConnection(serviceCtx(c), { business_id: business.id, shifter_id: null, as: 'shifter' });
    const notice = made.status === 'accepted' ? 'connected' : 'asked';
    return c.redirect(`/b/${encodeURIComponent(business.slug)}?notice=${notice}`, 303);
  } catch (err) {
    const problem = connectProblem(c, err);
    return renderBusinessProfile(c, problem.status, problem.message);
  }
}
