import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { OpenShift, PartyCard, PublicReview, RateFigures, WidgetData } from '../../services/widgets';

/**
 * The widget frame pages (Hono JSX, escaped): one document shell with the host's theme, the frame id
 * and the host origin for the height messages (frame script), and one body per widget. Every state a
 * partner can cause (unknown slug, missing role, too little data, no open shifts) is a sentence inside
 * the frame, never an error page.
 */

export type Theme = 'light' | 'dark';

export interface FrameShell {
  title: string;
  theme: Theme;
  id?: string | undefined;
  hostOrigin: string;
  cssPath: string;
  jsPath: string;
  children?: Child;
}

export function FrameDocument({ title, theme, id, hostOrigin, cssPath, jsPath, children }: FrameShell) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en" data-theme={theme} data-widget-id={id} data-host-origin={hostOrigin || undefined}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content={theme} />
          <meta name="robots" content="noindex" />
          <title>{title}</title>
          <link rel="stylesheet" href={cssPath} />
          <script src={jsPath} defer />
        </head>
        <body>
          <div id="widget">
            {children}
            <p class="foot">Shown by Shiftmarket</p>
          </div>
        </body>
      </html>
    </>
  );
}

export function EmptyState({ title, message }: { title: string; message: string }) {
  return (
    <section class="empty" aria-live="polite">
      <h1>{title}</h1>
      <p class="muted">{message}</p>
    </section>
  );
}

export const NOT_FOUND = {
  title: 'Profile not found',
  message: 'This Shiftmarket profile could not be found. The link may be out of date.',
};

function Stars({ value }: { value: number }) {
  const full = Math.round(value);
  return (
    <span class="stars" role="img" aria-label={`${value} out of 5 stars`}>
      {'★'.repeat(full)}
      {'☆'.repeat(Math.max(0, 5 - full))}
    </span>
  );
}

function Heading({ party }: { party: PartyCard }) {
  const paused = party.kind === 'shifter' && party.accept_shift_req === false;
  return (
    <div class="row">
      <h1>{party.name}</h1>
      {paused ? (
        <span class="badge" title="Not taking shift requests right now">
          Paused
        </span>
      ) : null}
    </div>
  );
}

function RatingLine({ party }: { party: PartyCard }) {
  const { average, count } = party.ratings;
  if (average === null || count === 0) return <p class="muted">No reviews yet</p>;
  return (
    <p class="row">
      <Stars value={average} />
      <span>
        {average.toFixed(2)} from {count} {count === 1 ? 'review' : 'reviews'}
      </span>
    </p>
  );
}

export function ProfileBody({ party }: { party: PartyCard }) {
  return (
    <section>
      <Heading party={party} />
      {party.headline ? <p>{party.headline}</p> : null}
      {party.city ? <p class="muted">{party.city}</p> : null}
      <RatingLine party={party} />
      {party.bio ? <p>{party.bio}</p> : null}
      {party.kind === 'shifter' && party.accept_shift_req === false ? <p class="muted">Not taking shift requests right now.</p> : null}
    </section>
  );
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount);

function dayLabel(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(d.getTime())
    ? date
    : new Intl.DateTimeFormat('en', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}

function ShiftItem({ s }: { s: OpenShift }) {
  return (
    <li>
      <p class="row">
        <strong>{s.role}</strong>
        <span>{money(s.hourly_rate, s.currency)}/h</span>
        {s.is_flexible ? <span class="badge">Flexible</span> : null}
      </p>
      <p class="muted">
        <time datetime={s.shift_date}>{dayLabel(s.shift_date)}</time>, {s.shift_in}–{s.shift_out}
      </p>
    </li>
  );
}

export function ShiftsBody({ party, shifts }: { party: PartyCard; shifts: OpenShift[] }) {
  return (
    <section>
      <h1>Open shifts at {party.name}</h1>
      {party.kind !== 'business' ? (
        <p class="muted">Open shifts are listed for businesses.</p>
      ) : shifts.length === 0 ? (
        <p class="muted">No open shifts right now.</p>
      ) : (
        <ul class="list" aria-label="Open shifts">
          {shifts.map((s) => (
            <ShiftItem s={s} />
          ))}
        </ul>
      )}
      {shifts[0] ? <p class="foot">Times are local to the business ({shifts[0].timezone}).</p> : null}
    </section>
  );
}

function ReviewItem({ r }: { r: PublicReview }) {
  return (
    <li data-review-id={r.id}>
      <p class="row">
        <Stars value={r.rating} />
        <span class="muted">{r.by_name ?? 'A Shiftmarket user'}</span>
      </p>
      {r.review_text ? <p>{r.review_text}</p> : null}
      {r.response_text ? <p class="muted">Response: {r.response_text}</p> : null}
    </li>
  );
}

export function ReviewsBody({ party, reviews }: { party: PartyCard; reviews: PublicReview[] }) {
  return (
    <section>
      <h1>Reviews of {party.name}</h1>
      <RatingLine party={party} />
      {reviews.length === 0 ? (
        <p class="muted">No reviews yet.</p>
      ) : (
        <ul class="list" aria-label="Reviews">
          {reviews.map((r) => (
            <ReviewItem r={r} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function RateBody({ party, rate, role }: { party: PartyCard; rate: RateFigures | null; role: string }) {
  if (!role) return <EmptyState title="Going rate" message="No role was chosen for this going rate." />;
  if (!rate) return <EmptyState title="Going rate" message={`No going rate for this role near ${party.name}.`} />;
  const where = rate.city ?? 'this area';
  if (!rate.sufficient_data || rate.median === null || !rate.currency) {
    return (
      <section data-sufficient="false">
        <h1>
          Going rate: {rate.role} in {where}
        </h1>
        <p>Not enough data yet to show a going rate.</p>
        <p class="muted">
          {rate.sample_size} worked {rate.sample_size === 1 ? 'shift' : 'shifts'} in the last {rate.window_days} days; the going rate is
          shown from {rate.min_sample}.
        </p>
      </section>
    );
  }
  return (
    <section data-sufficient="true">
      <h1>
        Going rate: {rate.role} in {where}
      </h1>
      <p class="figure">{money(rate.median, rate.currency)}/h</p>
      <p class="muted">
        Median of {rate.sample_size} worked shifts in the last {rate.window_days} days
        {rate.p25 !== null && rate.p75 !== null ? `; middle half ${money(rate.p25, rate.currency)}–${money(rate.p75, rate.currency)}` : ''}.
      </p>
    </section>
  );
}

export function PublicBody({ data, role }: { data: WidgetData; role: string }) {
  switch (data.widget) {
    case 'profile':
      return <ProfileBody party={data.party} />;
    case 'shifts':
      return <ShiftsBody party={data.party} shifts={data.shifts} />;
    case 'reviews':
      return <ReviewsBody party={data.party} reviews={data.reviews} />;
    case 'rate':
      return <RateBody party={data.party} rate={data.rate} role={role} />;
  }
}
