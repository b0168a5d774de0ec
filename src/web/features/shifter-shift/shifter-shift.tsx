import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { lookupThread, type ThreadView } from '@/services/messaging';
import { acceptRequest, claimBroadcast, declineRequest, type ShifterShift, shifterShift } from '@/services/shifts';
import { CsrfField, IdempotencyField } from '@/web/components';
import { dateTimeIn } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { NEEDS_NETWORK_PROPS } from '../shifter/kept-page.model';
import { DeclineDialog, DeclineLink, DeclinePage, readReason } from '../shifter-shifts/decline';
import { OverlapMark } from '../shifter-shifts/parts';
import { ClockRulesCard, ShiftCard, ThreadCard, venueTime, WhenCard, WhereCard } from './shift-sections';
import { shifterShiftPath } from './shifter-shift.model';

/**
 * The worker's shift page ({app_url}/dashboard/shifter/shifts/{id}): one shift as its shifter reads
 * it (services/shifts `shifterShift`; the crew of an open broadcast read it too, with Claim; anyone
 * else gets "not found"): when (on the venue's clock, labelled and given on the worker's own clock
 * when their zones differ), where (the address, with links that open it in the phone's maps: no map
 * is drawn, no other site's script runs), the state in words and what they can do now (accept or
 * decline a request, claim, the clock once its window opens, with the opening time, cancel), the
 * shift and their pay, the business's clock rules, and the conversation with the business. Plain
 * forms: everything works without script; the shifter side's island lets the service worker keep the
 * page, so it opens without network once seen, saying when it was saved (shifter/kept-page.model.ts),
 * and opens Decline's question in a dialog. A request or open shift overlapping one the worker accepted
 * says so, and Accept or Claim gives way to what to do (the service refuses them).
 */

const FIND = '/dashboard/shifter/find';
const SCHEDULE = '/dashboard/shifter/schedule';
const CLOCK = '/dashboard/shifter/clock';

/** The page's fixed notices (`?notice=`): never text from the address. */
const NOTICES = {
  accepted: 'Request accepted: the shift is on your schedule.',
  declined: 'Request declined. The business has been told.',
  claimed: 'The shift is yours: it is on your schedule.',
};

/** A refused answer or claim, in the worker's words (the services' messages stay the API's). */
const REFUSAL_WORDS: Partial<Record<string, string>> = {
  'SHFT-STATE-ERR': 'This shift changed meanwhile (it may have started): it can no longer be answered.',
  'SHFT-EXPIRED-ERR': 'This request expired before it was answered.',
  'SHFT-CANCELLED-ERR': 'The business cancelled this shift.',
  'SHFT-DECLINED-ERR': 'This request was declined already.',
  'SHFT-SUPERSEDED-ERR': 'The business changed this shift: its new version is in your requests.',
  'SHFT-COMPLETED-ERR': 'This shift is over.',
  'SHFT-NOT-CONNECTED-ERR': 'You are no longer in this business’s crew.',
  'SHFT-CONFLICT-ERR': 'This shift overlaps one you have already accepted: cancel that one first if you want this one.',
  'CLAIM-LOST-ERR': 'Someone else claimed this shift first.',
  'SHFT-OWN-BUSINESS-ERR': 'You run this business: its open shifts are for its crew to claim.',
  'FORBIDDEN-ERR': 'This shift is not one you can take.',
  'SHFT-NOT-FND-ERR': 'There is no such shift among yours, or it is no longer open to you.',
};

/** Says the shift's page was answered from the copy saved on the phone: hidden until the service worker shows it. */
function KeptNote({ d, now }: { d: ShifterShift; now: number }) {
  const at = new Date(now).toISOString();
  return (
    <p class="notice sf-kept-note" data-kept-note="saved" hidden>
      <strong>Saved copy.</strong> {'No network: this is the page as it was on '}
      <time datetime={at}>{dateTimeIn(at, d.shifter_timezone)}</time>
      {'. Answering, claiming and the clock need the network.'}
    </p>
  );
}

function PostButton({
  base,
  id,
  action,
  label,
  variant,
}: {
  base: DashboardBase;
  id: string;
  action: 'accept' | 'claim';
  label: string;
  variant: 'primary' | 'secondary';
}) {
  return (
    <form method="post" action={shifterShiftPath(id, action)} {...NEEDS_NETWORK_PROPS}>
      <CsrfField token={base.csrfToken} />
      <IdempotencyField />
      <button type="submit" class={`button button-${variant}`}>
        {label}
      </button>
    </form>
  );
}

/** The clock, as the clock window rule says it: a link to the clock page when a punch is open or opens later, with when. */
function ClockPart({ d }: { d: ShifterShift }) {
  const s = d.shift;
  const w = s.clock_window;
  const punched = (
    <>
      {s.shift_start_at ? <p>{`Clocked in at ${venueTime(s.shift_start_at, d)}.`}</p> : null}
      {s.shift_end_at ? <p>{`Clocked out at ${venueTime(s.shift_end_at, d)}.`}</p> : null}
    </>
  );
  if (!w) return s.shift_start_at ? punched : null;
  const side = w.can ?? (w.state === 'in' ? 'out' : 'in');
  const what = side === 'in' ? 'Clock-in' : 'Clock-out';
  if (w.can) {
    return (
      <>
        {punched}
        <p>{w.closes_at ? `${what} is open until ${venueTime(w.closes_at, d)}.` : `${what} is open.`}</p>
        <p class="sf-actions">
          <a class="button button-primary" href={CLOCK}>
            {side === 'in' ? 'Clock in' : 'Clock out'}
          </a>
        </p>
      </>
    );
  }
  if (w.opens_at) {
    return (
      <>
        {punched}
        <p class="sf-clock-opens">
          {`${what} opens `}
          <time datetime={w.opens_at}>{venueTime(w.opens_at, d)}</time>.
          {w.state === 'in' && w.reason ? <span class="hint">{` ${w.reason}`}</span> : null}
        </p>
        <p class="sf-actions">
          <a class="button button-secondary" href={CLOCK}>
            Go to the clock
          </a>
        </p>
      </>
    );
  }
  return (
    <>
      {punched}
      {w.state === 'missed' || w.state === 'no_show' ? <p>{w.reason}</p> : null}
    </>
  );
}

function ActionsCard({ base, d }: { base: DashboardBase; d: ShifterShift }) {
  const s = d.shift;
  const clock = ClockPart({ d });
  const overlapping = d.overlaps.length > 0 && (d.can.answer || d.standing === 'crew');
  const nothing = !d.can.answer && !d.can.claim && !overlapping && !d.can.cancel && !d.newer_id && clock === null;
  return (
    <section class="card sf-now" aria-labelledby="now-heading">
      <h2 id="now-heading">What you can do</h2>
      {d.can.answer ? (
        <>
          <p>{`${d.venue.name} is waiting for your answer.`}</p>
          <OverlapMark s={s} others={d.overlaps} action="accept" />
          <div class="sf-actions" {...NEEDS_NETWORK_PROPS}>
            {d.can.accept ? <PostButton base={base} id={s.id} action="accept" label="Accept" variant="primary" /> : null}
            <DeclineLink href={shifterShiftPath(s.id, 'decline')} s={s} />
          </div>
          <p class="hint" {...NEEDS_NETWORK_PROPS}>
            Want a different rate? <a href={FIND}>Send a counter-offer from Find shifts</a>.
          </p>
        </>
      ) : null}
      {d.standing === 'crew' && !d.can.claim && overlapping ? <OverlapMark s={s} others={d.overlaps} action="claim" /> : null}
      {d.can.claim ? (
        <>
          <p>{`Open to ${d.venue.name}’s crew: the first to claim it takes it.`}</p>
          <div class="sf-actions">
            <PostButton base={base} id={s.id} action="claim" label="Claim" variant="primary" />
          </div>
        </>
      ) : null}
      {clock}
      {d.can.cancel ? (
        <p class="sf-actions">
          <a class="button button-secondary" href={`${SCHEDULE}/${encodeURIComponent(s.id)}/cancel`}>
            Cancel this shift…
          </a>
        </p>
      ) : null}
      {d.newer_id ? (
        <p class="sf-actions">
          <a class="button button-secondary" href={shifterShiftPath(d.newer_id)}>
            The business changed it: see the new version
          </a>
        </p>
      ) : null}
      {nothing ? <p class="empty">Nothing to do on this shift now.</p> : null}
    </section>
  );
}

function ShiftPage({
  base,
  d,
  thread,
  now,
  notice,
  error,
}: {
  base: DashboardBase;
  d: ShifterShift;
  thread: ThreadView | null;
  now: number;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const island = WEB_ENTRIES.islands['shifter-page'];
  const current = d.standing === 'crew' || d.can.answer ? FIND : SCHEDULE;
  return (
    <AppShell
      base={base}
      side="shifter"
      current={current}
      title={`${d.shift.role ?? 'Shift'} at ${d.venue.name}`}
      notice={notice}
      error={error}
      scripts={island ? [island.js] : []}
    >
      <div class="sf-shift-page" data-island="shifter-page" data-props="{}">
        <KeptNote d={d} now={now} />
        <WhenCard d={d} />
        <ActionsCard base={base} d={d} />
        <WhereCard d={d} />
        <ShiftCard d={d} />
        <ClockRulesCard d={d} />
        <ThreadCard d={d} thread={thread} />
        {d.can.answer ? <DeclineDialog csrf={base.csrfToken} /> : null}
        <p>
          <a class="sf-back" href={current}>
            {current === FIND ? 'Back to Find shifts' : 'Back to my schedule'}
          </a>
        </p>
      </div>
    </AppShell>
  );
}

/** Not one of the worker's shifts, or no longer open to them: said on the shifter side, with the way on. */
function GoneView({ base, title, words }: { base: DashboardBase; title: string; words: string }) {
  return (
    <AppShell base={base} side="shifter" current={SCHEDULE} title={title}>
      <p>{words}</p>
      <div class="sf-actions">
        <a class="button button-primary" href={SCHEDULE}>
          My schedule
        </a>
        <a class="button button-secondary" href={FIND}>
          Find shifts
        </a>
      </div>
    </AppShell>
  );
}

const NOT_FOUND = REFUSAL_WORDS['SHFT-NOT-FND-ERR']!;

/** The conversation between the worker and the business, if they have one (messaging `lookupThread`, by the two parties). */
async function threadWith(c: Context<AppEnv>, shifterId: string, businessId: string): Promise<ThreadView | null> {
  try {
    return await lookupThread(serviceCtx(c), { with_kind: 'business', with_id: businessId, as_kind: 'shifter', as_id: shifterId });
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return null;
    throw err;
  }
}

async function renderShifterShift(c: Context<AppEnv>, extra: { error?: string; status?: ContentfulStatusCode } = {}): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  let d: ShifterShift;
  try {
    d = await shifterShift(ctx, (c.req.param('id') ?? '').slice(0, 64));
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 404) throw err;
    const title = extra.error ? 'This shift is no longer open to you' : 'Shift not found';
    return renderPage(c, <GoneView base={base} title={title} words={extra.error ?? NOT_FOUND} />, extra.status ?? 404);
  }
  const thread = await threadWith(c, base.shifterId, d.venue.business_id);
  return renderPage(
    c,
    <ShiftPage
      base={base}
      d={d}
      thread={thread}
      now={ctx.now()}
      notice={extra.error ? undefined : noticeOf(c, NOTICES)}
      error={extra.error}
    />,
    extra.status ?? 200,
  );
}

export async function getShifterShift(c: Context<AppEnv>): Promise<Response> {
  return renderShifterShift(c);
}

/** Runs an answer or a claim; on a refusal, the page again with the reason in the worker's words. */
async function act(c: Context<AppEnv>, notice: keyof typeof NOTICES, run: (id: string) => Promise<unknown>): Promise<Response> {
  const id = (c.req.param('id') ?? '').slice(0, 64);
  try {
    await run(id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return renderShifterShift(c, { error: REFUSAL_WORDS[err.code] ?? err.message, status: err.status as ContentfulStatusCode });
  }
  return c.redirect(`${shifterShiftPath(id)}?notice=${notice}`, 303);
}

export const postAccept = (c: Context<AppEnv>) => act(c, 'accepted', (id) => acceptRequest(serviceCtx(c), id));

/** GET: Decline's confirmation without script (the dialog's form, as a page). A shift not to be answered goes back to its page. */
export async function getDecline(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const id = (c.req.param('id') ?? '').slice(0, 64);
  const d = await shifterShift(serviceCtx(c), id).catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  });
  if (!d?.can.answer) return c.redirect(shifterShiftPath(id), 303);
  const back = shifterShiftPath(id);
  return renderPage(c, <DeclinePage base={base} s={d.shift} current={FIND} action={shifterShiftPath(id, 'decline')} back={back} />);
}

/** POST: the decline, with the reason when one was given; a reason too long comes back beside its field, as typed. */
export async function postDecline(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const typed = field('reason', 4_000);
  const { reason, error } = readReason(typed);
  if (error) {
    const base = await dashboardBase(c);
    const id = (c.req.param('id') ?? '').slice(0, 64);
    const d = await shifterShift(serviceCtx(c), id).catch(() => null);
    if (!d?.can.answer) return c.redirect(shifterShiftPath(id), 303);
    return renderPage(
      c,
      <DeclinePage
        base={base}
        s={d.shift}
        current={FIND}
        action={shifterShiftPath(id, 'decline')}
        back={shifterShiftPath(id)}
        reason={typed}
        fieldError={error}
        error="Check the reason below."
      />,
      400,
    );
  }
  return act(c, 'declined', (id) => declineRequest(serviceCtx(c), id, { reason }));
}
export const postClaim = (c: Context<AppEnv>) => act(c, 'claimed', (id) => claimBroadcast(serviceCtx(c), id));
