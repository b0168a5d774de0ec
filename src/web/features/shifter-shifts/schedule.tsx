import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { callerShifter } from '@/services/access';
import {
  calendarFeedState,
  cancelShift,
  listRequests,
  revokeCalendarFeed,
  rotateCalendarFeed,
  type ShiftRequestView,
  shifterCancelPreview,
} from '@/services/shifts';
import { CopyField, CsrfField, IdempotencyField, SubmitButton, TextareaField } from '@/web/components';
import { formFields } from '@/web/forms';
import { formatDate } from '@/web/format';
import { renderPage } from '@/web/render';
import { appOrigin } from '@/web/urls';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { KeptPage, keptPageScripts } from '../shifter/kept-note';
import { NEEDS_NETWORK_PROPS } from '../shifter/kept-page.model';
import { shifterShiftPath } from '../shifter-shift/shifter-shift.model';
import { FIND, hoursText, rateText, SCHEDULE, ShiftItem, shiftWhenText } from './parts';

/**
 * My schedule ({app_url}/dashboard/shifter/schedule): the shifter's accepted shifts ahead, as a week
 * strip and an agenda by day, overlaps marked on both, each shift leading to its page
 * (features/shifter-shift); cancel through a confirmation page that says
 * whether the business's auto-fill re-broadcasts the shift; and the private calendar feed (an
 * iCalendar address a phone's calendar subscribes to, shown once when made, replaced or turned off here).
 * Kept on the phone once seen (shifter/kept-note.tsx); the saved copy offers no cancel or feed change.
 */

/** Why cancelling did not go through, in the shifter's words (the services' messages stay the API's). */
const CANCEL_WORDS: Partial<Record<string, string>> = {
  'SHFT-STARTED-ERR': 'You have clocked in: the shift can no longer be cancelled.',
  'SHFT-WORKED-ERR': 'This shift is worked: it can no longer be cancelled.',
  'SHFT-STATE-ERR': 'This shift changed meanwhile: it can no longer be cancelled.',
  'SHFT-CANCELLED-ERR': 'This shift is cancelled already.',
  'SHFT-COMPLETED-ERR': 'This shift is over.',
  'SHFT-SUPERSEDED-ERR': 'The business changed this shift: see its new version in your schedule.',
};

const NOTICES = {
  cancelled: 'Shift cancelled. The business has been told.',
  refilled: 'Shift cancelled. The business has been told, and it went back out to their crew.',
  feed_off: 'Calendar feed turned off: its address no longer answers.',
};

const DAY = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (date: string, n: number) => isoDate(Date.parse(`${date}T12:00:00Z`) + n * DAY);

/** For each shift, the other accepted shifts it overlaps. */
function overlapsOf(shifts: ShiftRequestView[]): Map<string, ShiftRequestView[]> {
  const out = new Map<string, ShiftRequestView[]>();
  for (const a of shifts) {
    for (const b of shifts) {
      if (a.id !== b.id && a.starts_at < b.ends_at && a.ends_at > b.starts_at) out.set(a.id, [...(out.get(a.id) ?? []), b]);
    }
  }
  return out;
}

interface ScheduleViewProps {
  base: DashboardBase;
  shifts: ShiftRequestView[];
  weekStart: string;
  today: string;
  feed: { active: boolean; created_at: string | null };
  /** A feed address just made: shown this once. */
  feedUrl?: string | undefined;
  feedReplayed?: boolean | undefined;
  notice?: string | undefined;
  error?: string | undefined;
  /** When the page was made and the worker's zone: the saved copy's note says it. */
  now: number;
  timeZone: string;
}

function Week({
  shifts,
  weekStart,
  today,
  clashes,
}: {
  shifts: ShiftRequestView[];
  weekStart: string;
  today: string;
  clashes: Map<string, ShiftRequestView[]>;
}) {
  const days = Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));
  const label = (d: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`));
  return (
    <>
      <div class="sf-week-nav" {...NEEDS_NETWORK_PROPS}>
        <a class="button button-secondary" href={`${SCHEDULE}?week=${addDays(weekStart, -7)}`}>
          <span aria-hidden="true">← </span>Earlier week
        </a>
        <a class="button button-secondary" href={`${SCHEDULE}?week=${addDays(weekStart, 7)}`}>
          Later week<span aria-hidden="true"> →</span>
        </a>
      </div>
      <ol class="sf-week" aria-label={`Week of ${formatDate(weekStart)}`}>
        {days.map((d) => {
          const mine = shifts.filter((s) => s.shift_date === d);
          const clash = mine.some((s) => clashes.has(s.id));
          const cls = clash ? 'sf-week-clash' : mine.length ? 'sf-week-busy' : undefined;
          return (
            <li class={cls} aria-current={d === today ? 'date' : undefined}>
              <span class="sf-week-day">
                {label(d)} <span>{Number(d.slice(8))}</span>
              </span>
              {mine.map((s) => (
                <span class="sf-week-shift">
                  {s.shift_in}
                  <span class="visually-hidden">
                    {`–${s.shift_out} ${s.role ?? 'shift'} at ${s.business_name ?? ''}${clashes.has(s.id) ? ', overlaps another shift' : ''}`}
                  </span>
                </span>
              ))}
              {mine.length ? null : <span class="visually-hidden">free</span>}
            </li>
          );
        })}
      </ol>
    </>
  );
}

function Feed({ base, feed, feedUrl, feedReplayed }: Pick<ScheduleViewProps, 'base' | 'feed' | 'feedUrl' | 'feedReplayed'>) {
  const webcal = feedUrl?.replace(/^https?:/, 'webcal:');
  return (
    <section class="sf-section sf-feed" aria-labelledby="feed-heading">
      <h2 id="feed-heading">Calendar feed</h2>
      <p>
        Subscribe to your shifts from your phone&#39;s calendar: accepted shifts show there and stay up to date. The address is private:
        anyone who has it can see your shifts.
      </p>
      {feedUrl ? (
        <>
          <CopyField label="Your calendar address (shown this once)" id="feed-url" value={feedUrl} />
          <p>
            <a class="button button-primary" href={webcal}>
              Add to my phone&#39;s calendar
            </a>
          </p>
          <p class="muted">
            Keep it somewhere safe: only a fingerprint of it is stored, so it cannot be shown again. If it leaks, make a new one.
          </p>
        </>
      ) : feedReplayed ? (
        <p>Your calendar address was made, but this page cannot show it again: make a new one below.</p>
      ) : feed.active ? (
        <p>
          Your feed is on (address made {feed.created_at ? formatDate(feed.created_at.slice(0, 10)) : ''}). Its address was shown when it
          was made; if you have lost it or it leaked, make a new one: the old one stops at once.
        </p>
      ) : (
        <p class="empty">No calendar feed yet.</p>
      )}
      <div class="sf-actions" {...NEEDS_NETWORK_PROPS}>
        <form method="post" action={`${SCHEDULE}/feed`}>
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <SubmitButton variant={feed.active ? 'secondary' : 'primary'}>
            {feed.active ? 'Make a new address' : 'Make my calendar address'}
          </SubmitButton>
        </form>
        {feed.active ? (
          <form method="post" action={`${SCHEDULE}/feed/off`}>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <SubmitButton variant="danger">Turn the feed off</SubmitButton>
          </form>
        ) : null}
      </div>
    </section>
  );
}

function ScheduleView(p: ScheduleViewProps) {
  const clashes = overlapsOf(p.shifts);
  const byDay = new Map<string, ShiftRequestView[]>();
  for (const s of p.shifts) byDay.set(s.shift_date, [...(byDay.get(s.shift_date) ?? []), s]);
  const clashCount = p.shifts.filter((s) => clashes.has(s.id)).length;
  return (
    <AppShell
      base={p.base}
      side="shifter"
      current={SCHEDULE}
      title="My schedule"
      notice={p.notice}
      error={p.error}
      scripts={keptPageScripts()}
    >
      <KeptPage
        now={p.now}
        timeZone={p.timeZone}
        what="Saved schedule"
        then="Cancelling a shift and the calendar feed need the network, so they are not offered until you are back online."
      >
        {clashCount ? (
          <p class="notice notice-error" role="status">
            {clashCount} of your shifts overlap: you cannot work both. Cancel one of them, or ask the business to change it.
          </p>
        ) : null}
        <section class="sf-section" aria-labelledby="week-heading">
          <h2 id="week-heading">Week</h2>
          <Week shifts={p.shifts} weekStart={p.weekStart} today={p.today} clashes={clashes} />
        </section>
        <section class="sf-section" aria-labelledby="agenda-heading">
          <h2 id="agenda-heading">Coming up</h2>
          {p.shifts.length ? (
            [...byDay].map(([day, shifts]) => (
              <div class="sf-day">
                <h3>{formatDate(day)}</h3>
                <ul class="sf-list">
                  {shifts.map((s) => (
                    <ShiftItem s={s} headingLevel={4}>
                      {clashes.has(s.id) ? (
                        <p class="sf-badges">
                          <span class="badge badge-warn">
                            Overlaps{' '}
                            {clashes
                              .get(s.id)!
                              .map((o) => `${o.business_name ?? 'a shift'} ${o.shift_in}–${o.shift_out}`)
                              .join(', ')}
                          </span>
                        </p>
                      ) : null}
                      <div class="sf-actions">
                        <a
                          class="button button-primary"
                          href={shifterShiftPath(s.id)}
                          aria-label={`See the shift: ${s.role ?? 'shift'} at ${s.business_name ?? ''}, ${formatDate(s.shift_date)}`}
                        >
                          See the shift
                        </a>
                        <a
                          class="button button-secondary"
                          {...NEEDS_NETWORK_PROPS}
                          href={`${SCHEDULE}/${encodeURIComponent(s.id)}/cancel`}
                          aria-label={`Cancel: ${s.role ?? 'shift'} at ${s.business_name ?? ''}, ${formatDate(s.shift_date)}`}
                        >
                          Cancel…
                        </a>
                      </div>
                    </ShiftItem>
                  ))}
                </ul>
              </div>
            ))
          ) : (
            <p class="empty">
              No accepted shift coming up. <a href={FIND}>Find shifts</a>
            </p>
          )}
        </section>
        <Feed base={p.base} feed={p.feed} feedUrl={p.feedUrl} feedReplayed={p.feedReplayed} />
      </KeptPage>
    </AppShell>
  );
}

async function renderSchedule(
  c: Context<AppEnv>,
  extra: { feedUrl?: string; feedReplayed?: boolean; error?: string; status?: ContentfulStatusCode } = {},
): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const now = ctx.now();
  const [accepted, feed, me] = await Promise.all([
    listRequests(ctx, { as: 'shifter', status: 2, limit: 100 }),
    calendarFeedState(ctx),
    callerShifter(ctx),
  ]);
  const shifts = accepted.data
    .filter((s) => s.shifter_id === base.shifterId && !s.shift_end_at && Date.parse(s.ends_at) > now)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  const today = isoDate(now);
  const asked = c.req.query('week');
  // Without a week asked for: this week, or the week of the next shift when this one is free.
  const next = shifts[0]?.shift_date;
  const fallback = next && next > addDays(today, 6) ? next : today;
  const weekStart = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) && !Number.isNaN(Date.parse(asked)) ? asked : fallback;
  return renderPage(
    c,
    <ScheduleView
      base={base}
      shifts={shifts}
      weekStart={weekStart}
      today={today}
      feed={feed}
      feedUrl={extra.feedUrl}
      feedReplayed={extra.feedReplayed}
      notice={noticeOf(c, NOTICES)}
      error={extra.error}
      now={now}
      timeZone={me?.timezone ?? 'UTC'}
    />,
    extra.status ?? 200,
  );
}

export async function getSchedule(c: Context<AppEnv>): Promise<Response> {
  return renderSchedule(c);
}

/** Makes (or replaces) the feed secret and shows the address this once: never in a redirect's address. */
export async function postFeed(c: Context<AppEnv>): Promise<Response> {
  const { secret } = await rotateCalendarFeed(serviceCtx(c));
  if (!secret) return renderSchedule(c, { feedReplayed: true });
  return renderSchedule(c, { feedUrl: `${appOrigin(c)}/cal/${secret}.ics` });
}

export async function postFeedOff(c: Context<AppEnv>): Promise<Response> {
  await revokeCalendarFeed(serviceCtx(c));
  return c.redirect(`${SCHEDULE}?notice=feed_off`, 303);
}

function CancelView({
  base,
  preview,
  error,
  reason,
}: {
  base: DashboardBase;
  preview: Awaited<ReturnType<typeof shifterCancelPreview>>;
  error?: string | undefined;
  reason?: string | undefined;
}) {
  const s = preview.shift_request;
  return (
    <AppShell base={base} side="shifter" current={SCHEDULE} title="Cancel this shift?" error={error}>
      <ul class="sf-list">
        <ShiftItem s={s} headingLevel={2} />
      </ul>
      {preview.refusal ? (
        <>
          {/* The service's reason is written for the API; the shift's state in its words says why here. */}
          <p>
            This shift can no longer be cancelled. Where it stands: <span class="badge">{s.state_words.label}</span>
          </p>
          <p>
            <a class="button button-secondary" href={SCHEDULE}>
              Back to my schedule
            </a>
          </p>
        </>
      ) : (
        <>
          <div class="confirm">
            <p>
              {s.business_name ?? 'The business'} is told at once. {shiftWhenText(s)} ({hoursText(s)}, {rateText(s)}) leaves your schedule.
            </p>
            <p>
              <strong>
                {preview.auto_fill
                  ? `${s.business_name ?? 'The business'} refills cancelled shifts: this one goes straight back out to their crew as an open shift.`
                  : `The shift is not offered to anyone else automatically: ${s.business_name ?? 'the business'} will have to find someone else.`}
              </strong>
            </p>
            <p class="muted">Cancelling often lowers your reliability with a business.</p>
          </div>
          <form method="post" action={`${SCHEDULE}/${encodeURIComponent(s.id)}/cancel`}>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <TextareaField label="Reason (optional, the business sees it)" name="reason" maxLength={500} value={reason} rows={2} />
            <div class="sf-actions">
              <SubmitButton variant="danger">Cancel the shift</SubmitButton>
              <a class="button button-secondary" href={SCHEDULE}>
                Keep it
              </a>
            </div>
          </form>
        </>
      )}
    </AppShell>
  );
}

async function renderCancel(c: Context<AppEnv>, extra: { error?: string; reason?: string; status?: ContentfulStatusCode } = {}) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const preview = await shifterCancelPreview(serviceCtx(c), c.req.param('id') ?? '');
  return renderPage(c, <CancelView base={base} preview={preview} error={extra.error} reason={extra.reason} />, extra.status ?? 200);
}

export async function getCancel(c: Context<AppEnv>): Promise<Response> {
  return renderCancel(c);
}

export async function postCancel(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const reason = field('reason', 500).trim();
  try {
    const r = await cancelShift(serviceCtx(c), c.req.param('id') ?? '', { as: 'shifter', reason: reason || null });
    return c.redirect(`${SCHEDULE}?notice=${r.auto_fill_shift_request_id ? 'refilled' : 'cancelled'}`, 303);
  } catch (err) {
    if (!(err instanceof AppError) || err.status === 404 || err.status === 403) throw err;
    return renderCancel(c, { error: CANCEL_WORDS[err.code] ?? err.message, reason, status: err.status as ContentfulStatusCode });
  }
}
