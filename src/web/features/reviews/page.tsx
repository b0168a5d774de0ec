import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import {
  createReview,
  createReviewInput,
  DISPUTE_REASON_MAX,
  disputeReview,
  getAverage,
  getTrend,
  listReviewable,
  listReviews,
  type PartyAverage,
  type PartyKind,
  RESPONSE_TEXT_MAX,
  REVIEW_TEXT_MAX,
  type ReviewableShift,
  type ReviewList,
  type ReviewView,
  respondToReview,
  type Trend,
} from '@/services/reviews';
import { Card, CsrfField, IdempotencyField, SubmitButton, TableWrap } from '@/web/components';
import { formatDate, shiftHours } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { dayOf, fieldErrorsOf, type FormState, FormMessage, Stars, stateFor, Textarea } from './shared';

/** The party the page is about: the person's shifter profile or one of their businesses. */
export interface ReviewParty {
  kind: PartyKind;
  id: string;
  label: string;
}

/** Every party the person reviews as: their shifter profile first, then their businesses. */
export function partiesOf(base: DashboardBase): ReviewParty[] {
  return [
    ...(base.shifterId ? [{ kind: 'shifter' as const, id: base.shifterId, label: 'As a shifter' }] : []),
    ...base.businesses.map((b) => ({ kind: 'business' as const, id: b.id, label: `As ${b.name}` })),
  ];
}

/**
 * `?as=shifter`, or `?as=business&business_id=` (the business dashboardBase chose from the address);
 * without `as`, the shifter profile when there is one, else the business.
 */
function chosenParty(c: Context<AppEnv>, base: DashboardBase, asked?: string): ReviewParty | null {
  const all = partiesOf(base);
  const as = asked ?? c.req.query('as');
  const business = base.business ? all.find((p) => p.kind === 'business' && p.id === base.business?.id) : undefined;
  if (as === 'business' && business) return business;
  return all.find((p) => p.kind === 'shifter') ?? business ?? null;
}

export function reviewsHref(party: ReviewParty, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams({ as: party.kind });
  if (party.kind === 'business') params.set('business_id', party.id);
  for (const [k, v] of Object.entries(query)) if (v) params.set(k, v);
  return `/reviews?${params}`;
}

const TREND_CHOICES = [30, 90, 365] as const;

const NOTICES: Record<string, string> = {
  reviewed: 'Your review was saved. The other party can read it and respond.',
  responded: 'Your response was saved and shows under the review.',
  disputed: 'The dispute was sent. An admin will look at it; the review stays visible meanwhile.',
};

interface ReviewsData {
  average: PartyAverage;
  reviewable: ReviewableShift[];
  received: ReviewList;
  written: ReviewList;
  trend: Trend;
}

async function loadData(c: Context<AppEnv>, party: ReviewParty, days: number): Promise<ReviewsData> {
  const ctx = serviceCtx(c);
  const on = { review_on: party.kind, review_on_id: party.id };
  const [average, reviewable, received, written, trend] = await Promise.all([
    getAverage(ctx, on),
    listReviewable(ctx, { kind: party.kind, id: party.id }),
    listReviews(ctx, { ...on, limit: 20, cursor: c.req.query('received') || undefined }),
    listReviews(ctx, { review_by: party.kind, review_by_id: party.id, limit: 20, cursor: c.req.query('written') || undefined }),
    getTrend(ctx, { ...on, days }),
  ]);
  return { average, reviewable, received, written, trend };
}

function PartySwitch({ parties, party }: { parties: ReviewParty[]; party: ReviewParty }) {
  if (parties.length < 2) return null;
  return (
    <nav class="subnav" aria-label="Whose reviews">
      <ul>
        {parties.map((p) => (
          <li>
            <a href={reviewsHref(p)} aria-current={p.kind === party.kind && p.id === party.id ? 'page' : undefined}>
              {p.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function RatingChoice({ idBase, value, error }: { idBase: string; value: string; error?: string | undefined }) {
  const errorId = error ? `${idBase}-rating-error` : undefined;
  return (
    <fieldset class="rating-choice" aria-describedby={errorId}>
      <legend>Rating</legend>
      <div class="rating-options">
        {[5, 4, 3, 2, 1].map((n) => (
          <div class="choice">
            <input type="radio" id={`${idBase}-rating-${n}`} name="rating" value={String(n)} checked={value === String(n)} required />
            <label for={`${idBase}-rating-${n}`}>
              <Stars rating={n} />
            </label>
          </div>
        ))}
      </div>
      {error ? (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function ReviewForm({
  base,
  party,
  shift,
  state,
}: {
  base: DashboardBase;
  party: ReviewParty;
  shift: ReviewableShift;
  state: FormState | null;
}) {
  const idBase = `new-${shift.shift_request_id}`;
  return (
    <li class="review-todo" id={idBase}>
      <details open={state ? true : undefined}>
        <summary>
          <strong>{shift.review_on_name}</strong>
          <span class="muted">{` · ${shift.role} · ${formatDate(shift.shift_date)} ${shiftHours(shift.shift_in, shift.shift_out)}`}</span>
        </summary>
        <form method="post" action={reviewsHref(party).replace('/reviews?', '/reviews/new?')} class="stack" novalidate>
          <CsrfField token={base.csrfToken} />
          <IdempotencyField value={state?.idem} />
          <input type="hidden" name="review_on" value={shift.review_on} />
          <input type="hidden" name="review_on_id" value={shift.review_on_id} />
          <input type="hidden" name="shift_request_id" value={shift.shift_request_id} />
          <RatingChoice idBase={idBase} value={state?.values.rating ?? ''} error={state?.errors.rating} />
          <Textarea
            id={`${idBase}-text`}
            label={`Your review of ${shift.review_on_name} (optional)`}
            name="review_text"
            value={state?.values.review_text}
            maxLength={REVIEW_TEXT_MAX}
            error={state?.errors.review_text}
            hint="Shown on their public profile, with your name."
          />
          <FormMessage state={state} />
          <SubmitButton>Leave the review</SubmitButton>
        </form>
      </details>
    </li>
  );
}

function DisputeBadge({ r }: { r: ReviewView }) {
  if (!r.dispute_status) return null;
  const words = { pending: 'Disputed: waiting for an admin', upheld: 'Dispute upheld: removed', rejected: 'Dispute rejected: stays up' };
  return <span class={r.dispute_status === 'pending' ? 'badge badge-info' : 'badge'}>{words[r.dispute_status]}</span>;
}

function ReviewItem({
  base,
  party,
  r,
  mine,
  state,
}: {
  base: DashboardBase;
  party: ReviewParty;
  r: ReviewView;
  /** The review is of the page's party: it may respond and dispute. */
  mine: boolean;
  state: FormState | null | undefined;
}) {
  const other = mine ? r.review_by_name : r.review_on_name;
  const respondState = stateFor(state, `respond:${r.id}`);
  const disputeState = stateFor(state, `dispute:${r.id}`);
  const action = (what: string) => reviewsHref(party).replace('/reviews?', `/reviews/${encodeURIComponent(r.id)}/${what}?`);
  return (
    <li class="review" id={`review-${r.id}`}>
      <div class="review-head">
        <Stars rating={r.rating} />
        <strong>{mine ? `From ${other ?? 'a former party'}` : `Of ${other ?? 'a former party'}`}</strong>
        <span class="muted">{dayOf(r.created_at)}</span>
        <DisputeBadge r={r} />
      </div>
      {r.review_text ? <p class="review-text">{r.review_text}</p> : <p class="muted">No written review, a rating only.</p>}
      {r.dispute_reason && r.dispute_status ? <p class="muted">{`Dispute reason: ${r.dispute_reason}`}</p> : null}
      {r.response_text ? (
        <div class="review-response">
          <p class="review-response-label">{mine ? 'Your response' : `${r.review_on_name ?? 'Their'} response`}</p>
          <p>{r.response_text}</p>
        </div>
      ) : null}
      {mine && !r.response_text ? (
        <details open={respondState ? true : undefined}>
          <summary>Respond</summary>
          <form method="post" action={action('respond')} class="stack" novalidate>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={respondState?.idem} />
            <Textarea
              id={`respond-${r.id}`}
              label="Your public response"
              name="response_text"
              required
              value={respondState?.values.response_text}
              maxLength={RESPONSE_TEXT_MAX}
              error={respondState?.errors.response_text}
              hint="Shown under the review on your public profile. You respond once."
              autofocus={respondState ? true : undefined}
            />
            <FormMessage state={respondState} />
            <SubmitButton variant="secondary">Publish the response</SubmitButton>
          </form>
        </details>
      ) : null}
      {mine && !r.dispute_status ? (
        <details open={disputeState ? true : undefined}>
          <summary>Dispute</summary>
          <form method="post" action={action('dispute')} class="stack" novalidate>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={disputeState?.idem} />
            <Textarea
              id={`dispute-${r.id}`}
              label="Why should this review be removed?"
              name="reason"
              required
              value={disputeState?.values.reason}
              maxLength={DISPUTE_REASON_MAX}
              error={disputeState?.errors.reason}
              hint="An admin reads it and decides. The review stays visible until then; a review is disputed once."
              autofocus={disputeState ? true : undefined}
            />
            <FormMessage state={disputeState} />
            <SubmitButton variant="secondary">Send the dispute</SubmitButton>
          </form>
        </details>
      ) : null}
    </li>
  );
}

function TrendCard({ party, trend, days }: { party: ReviewParty; trend: Trend; days: number }) {
  const island = WEB_ENTRIES.islands['review-trend'];
  const rated = trend.buckets.filter((b) => b.count > 0);
  const unit = trend.bucket === 'day' ? 'Day' : 'Week of';
  return (
    <section class="card" aria-labelledby="trend-title">
      <h2 id="trend-title">Rating trend</h2>
      <nav class="subnav subnav-small" aria-label="Trend window">
        <ul>
          {TREND_CHOICES.map((d) => (
            <li>
              <a href={reviewsHref(party, { days: String(d) })} aria-current={d === days ? 'page' : undefined}>
                {d === 365 ? 'Last year' : `Last ${d} days`}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <figure
        class="trend-figure"
        data-island="review-trend"
        data-props={JSON.stringify({ bucket: trend.bucket, buckets: trend.buckets })}
        aria-labelledby="trend-caption"
      >
        {island?.js ? <div class="trend-canvas" data-chart-canvas aria-hidden="true" /> : null}
        <figcaption id="trend-caption">
          {trend.count
            ? `Average ${trend.average?.toFixed(2)} of 5 from ${trend.count} review${trend.count === 1 ? '' : 's'} between ${formatDate(trend.from)} and ${formatDate(trend.to)} (${trend.timezone}), by ${trend.bucket}.`
            : `No reviews between ${formatDate(trend.from)} and ${formatDate(trend.to)}.`}
        </figcaption>
      </figure>
      {rated.length ? (
        <TableWrap label={`Average rating by ${trend.bucket}`}>
          <table class="trend-table">
            <caption class="visually-hidden">Average rating by {trend.bucket}</caption>
            <thead>
              <tr>
                <th scope="col">{unit}</th>
                <th scope="col">Average</th>
                <th scope="col">Reviews</th>
              </tr>
            </thead>
            <tbody>
              {rated.map((b) => (
                <tr>
                  <th scope="row">{formatDate(b.start)}</th>
                  <td>{b.average?.toFixed(2)}</td>
                  <td>{b.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="hint">{trend.bucket === 'day' ? 'Days' : 'Weeks'} without reviews are left out.</p>
        </TableWrap>
      ) : null}
    </section>
  );
}

export interface ReviewsViewProps {
  base: DashboardBase;
  party: ReviewParty | null;
  data: ReviewsData | null;
  days: number;
  notice?: string | undefined;
  error?: string | undefined;
  state?: FormState | null;
}

export function ReviewsView({ base, party, data, days, notice, error, state }: ReviewsViewProps) {
  const island = WEB_ENTRIES.islands['review-trend'];
  if (!party || !data) {
    return (
      <AppShell base={base} title="Reviews" side="shared" current="/reviews">
        <p class="empty">
          Reviews are written between a shifter and a business after a worked shift. Create a shifter profile or a business first.
        </p>
      </AppShell>
    );
  }
  const { average, reviewable, received, written, trend } = data;
  // A refused form no longer on the page (its shift was reviewed meanwhile): its message goes on top.
  const onPage = new Set([
    ...reviewable.map((s) => `new:${s.shift_request_id}`),
    ...received.data.flatMap((r) => [`respond:${r.id}`, `dispute:${r.id}`]),
  ]);
  const shown = error ?? (state && !onPage.has(state.key) ? (state.message ?? Object.values(state.errors)[0]) : undefined);
  const olderReceived = received.next_cursor ? reviewsHref(party, { received: received.next_cursor }) : null;
  const olderWritten = written.next_cursor ? reviewsHref(party, { written: written.next_cursor }) : null;
  return (
    <AppShell
      base={base}
      title="Reviews"
      side="shared"
      current="/reviews"
      notice={notice}
      error={shown}
      scripts={island?.js ? [island.js] : []}
      styles={island?.css ? [island.css] : []}
    >
      <PartySwitch parties={partiesOf(base)} party={party} />
      <div class="reviews-top">
        <section class="card" aria-labelledby="avg-title">
          <h2 id="avg-title">Your rating</h2>
          {average.count ? (
            <>
              <p class="stat">
                {average.average?.toFixed(2)} <Stars rating={average.average ?? 0} />
              </p>
              <p class="stat-label">{`From ${average.count} review${average.count === 1 ? '' : 's'} (removed ones not counted)`}</p>
            </>
          ) : (
            <p class="empty">No reviews yet.</p>
          )}
        </section>
        <TrendCard party={party} trend={trend} days={days} />
      </div>
      <Card title="Shifts to review">
        {reviewable.length ? (
          <>
            <p class="hint">
              The latest worked shifts of the last 90 days you have not reviewed yet. One review per worked shift, pinned to it.
            </p>
            <ul class="list-plain">
              {reviewable.map((s) => (
                <ReviewForm base={base} party={party} shift={s} state={stateFor(state, `new:${s.shift_request_id}`)} />
              ))}
            </ul>
          </>
        ) : (
          <p class="empty">No worked shift is waiting for your review.</p>
        )}
      </Card>
      <Card title="Reviews of you">
        {received.data.length ? (
          <ul class="list-plain review-list">
            {received.data.map((r) => (
              <ReviewItem base={base} party={party} r={r} mine state={state} />
            ))}
          </ul>
        ) : (
          <p class="empty">No one has reviewed you yet.</p>
        )}
        {olderReceived ? <a href={olderReceived}>Older reviews of you</a> : null}
      </Card>
      <Card title="Reviews you wrote">
        {written.data.length ? (
          <ul class="list-plain review-list">
            {written.data.map((r) => (
              <ReviewItem base={base} party={party} r={r} mine={false} state={state} />
            ))}
          </ul>
        ) : (
          <p class="empty">You have not written a review yet.</p>
        )}
        {olderWritten ? <a href={olderWritten}>Older reviews you wrote</a> : null}
      </Card>
    </AppShell>
  );
}

function daysOf(c: Context<AppEnv>): number {
  const d = Number(c.req.query('days'));
  return (TREND_CHOICES as readonly number[]).includes(d) ? d : 90;
}

export async function renderReviews(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const party = chosenParty(c, base);
  const days = daysOf(c);
  const data = party ? await loadData(c, party, days) : null;
  const notice = NOTICES[c.req.query('notice') ?? ''];
  return renderPage(c, <ReviewsView base={base} party={party} data={data} days={days} notice={notice} />);
}

/** Runs a review form's write; a refusal re-renders the page with the form open, its words kept and the message beside its field. */
async function write(
  c: Context<AppEnv>,
  key: string,
  fields: readonly string[],
  run: (ctx: ReturnType<typeof serviceCtx>, values: Record<string, string>, party: ReviewParty) => Promise<unknown>,
  notice: string,
  codeFields: Partial<Record<string, string>> = {},
): Promise<Response> {
  const base = await dashboardBase(c);
  const party = chosenParty(c, base);
  if (!party) return c.redirect('/reviews', 303);
  const f = await formFields(c);
  const values: Record<string, string> = {};
  for (const name of fields) values[name] = f(name, 2100);
  const idem = f('_idem', 255);
  const again = async (status: ContentfulStatusCode, errors: Record<string, string>, message: string | null) => {
    const days = daysOf(c);
    const state: FormState = { key, errors, message, values, idem };
    return renderPage(c, <ReviewsView base={base} party={party} data={await loadData(c, party, days)} days={days} state={state} />, status);
  };
  try {
    await run(serviceCtx(c), values, party);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const { errors, rest } = fieldErrorsOf(err, fields, codeFields);
    return again(err.status, errors, rest);
  }
  return c.redirect(reviewsHref(party, { notice }), 303);
}

export async function postReview(c: Context<AppEnv>): Promise<Response> {
  const body = await c.req.parseBody();
  const shift = typeof body.shift_request_id === 'string' ? body.shift_request_id.slice(0, 100) : '';
  return write(
    c,
    `new:${shift}`,
    ['review_on', 'review_on_id', 'shift_request_id', 'rating', 'review_text'],
    async (ctx, v, party) => {
      const parsed = createReviewInput.safeParse({
        review_on: v.review_on,
        review_on_id: v.review_on_id,
        review_by: party.kind,
        review_by_id: party.id,
        rating: v.rating ? Number(v.rating) : undefined,
        review_text: v.review_text || null,
        shift_request_id: v.shift_request_id || null,
      });
      if (!parsed.success) {
        const details = parsed.error.issues.map((i) => ({
          field: String(i.path[0] ?? ''),
          message: i.path[0] === 'rating' ? 'Choose a rating from 1 to 5 stars.' : i.message,
        }));
        throw new AppError('VALIDATION-ERR', details[0]?.message ?? 'Check the form.', details);
      }
      await createReview(ctx, parsed.data);
    },
    'reviewed',
  );
}

export async function postRespond(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? '';
  return write(
    c,
    `respond:${id}`,
    ['response_text'],
    async (ctx, v) => {
      if (!v.response_text?.trim()) {
        throw new AppError('VALIDATION-ERR', 'Write your response first.', [
          { field: 'response_text', message: 'Write your response first.' },
        ]);
      }
      await respondToReview(ctx, id, { response_text: v.response_text.trim() });
    },
    'responded',
    { 'REVIEW-RESPONDED-ERR': 'response_text' },
  );
}

export async function postDispute(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? '';
  return write(
    c,
    `dispute:${id}`,
    ['reason'],
    async (ctx, v) => {
      if (!v.reason?.trim()) {
        throw new AppError('VALIDATION-ERR', 'Say why the review should be removed.', [
          { field: 'reason', message: 'Say why the review should be removed.' },
        ]);
      }
      await disputeReview(ctx, id, { reason: v.reason.trim().slice(0, DISPUTE_REASON_MAX) });
    },
    'disputed',
    { 'REVIEW-DISPUTED-ERR': 'reason' },
  );
}
