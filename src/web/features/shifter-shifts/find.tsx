import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { callerShifter } from '@/services/access';
import { listConnections } from '@/services/connections';
import {
  acceptRequest,
  claimBroadcast,
  declineRequest,
  getShiftRequest,
  listBroadcastsWithReasons,
  listRequests,
  listShiftRoles,
  overlapsWithMyShifts,
  proposeCounterOffer,
  type ShiftRequestView,
} from '@/services/shifts';
import { CsrfField, IdempotencyField } from '@/web/components';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { KeptPage, keptPageScripts } from '../shifter/kept-note';
import { NEEDS_NETWORK_PROPS } from '../shifter/kept-page.model';
import { DeclineDialog, DeclinePage, readReason } from './decline';
import { type CounterState, declinePath, type FilterField, FilterForm, type FindFilters, RequestActions } from './find-parts';
import { FIND, OverlapMark, relevanceReason, SCHEDULE, ShiftItem } from './parts';

/**
 * Find shifts ({app_url}/dashboard/shifter/find): the requests sent to the shifter (accept, decline,
 * counter-offer with the counter rule's suggestion), then the open broadcasts of their crews best fit
 * first, each with its score and why, filtered by a GET form and claimed with a POST form. Plain
 * forms: every action works without script, one thumb on a phone. A request or open shift that
 * overlaps one the worker accepted says so, and Accept or Claim gives way to what to do (the shifts
 * domain's overlap rule, which refuses them). Decline asks once, with an optional reason. Kept on
 * the phone once seen: offline it opens as the saved list, with its time, and offers no answer.
 */

const NOTICES = {
  claimed: 'The shift is yours: it is on your schedule.',
  accepted: 'Request accepted: it is on your schedule.',
  declined: 'Request declined.',
  countered: 'Counter-offer sent: the business will answer it.',
};

/**
 * What a shift that moved on says, whichever answer was tried: the services' messages name shift
 * requests, broadcasts and states, which stay the API's; the shifter reads what happened to the shift.
 */
const MOVED_ON: Partial<Record<string, string>> = {
  'SHFT-STATE-ERR': 'This shift changed meanwhile (it may have started): it can no longer be answered.',
  'SHFT-EXPIRED-ERR': 'This request expired before it was answered.',
  'SHFT-CANCELLED-ERR': 'The business cancelled this shift.',
  'SHFT-DECLINED-ERR': 'This request was declined already.',
  'SHFT-SUPERSEDED-ERR': 'The business changed this shift: its new version is in your requests.',
  'SHFT-COMPLETED-ERR': 'This shift is over.',
  'SHFT-NOT-CONNECTED-ERR': 'You are no longer in this business’s crew.',
  'FORBIDDEN-ERR': 'This shift is not one you can take.',
};

/** What claiming says when it does not work out, in the shifter's words. */
const CLAIM_WORDS: Partial<Record<string, string>> = {
  ...MOVED_ON,
  'CLAIM-LOST-ERR': 'Someone else claimed this shift first.',
  'SHFT-CONFLICT-ERR': 'This shift overlaps one you have already accepted: cancel that one first if you want this one.',
  'SHFT-NOT-FND-ERR': 'This shift is no longer open.',
  'SHFT-OWN-BUSINESS-ERR': 'You run this business: its open shifts are for its crew to claim.',
};

/** The filters as the address gave them, each checked; a bad one is named beside its field and left out. */
function readFilters(c: Context<AppEnv>): { f: FindFilters; errors: Partial<Record<FilterField, string>> } {
  const q = (k: string) => c.req.query(k)?.trim().slice(0, 64) || undefined;
  const f: FindFilters = { date: q('date'), role: q('role'), min_rate: q('min_rate'), business: q('business'), cursor: q('cursor') };
  const errors: Partial<Record<FilterField, string>> = {};
  if (f.date && !/^\d{4}-\d{2}-\d{2}$/.test(f.date)) errors.date = 'Pick a date.';
  if (f.role && !/^\d{1,6}$/.test(f.role)) errors.role = 'Pick a role from the list.';
  if (f.min_rate && !(Number(f.min_rate) > 0 && Number(f.min_rate) <= 10_000)) errors.min_rate = 'A rate above 0, like 18.50.';
  return { f, errors };
}

interface FindViewProps {
  base: DashboardBase;
  requests: ShiftRequestView[];
  broadcasts: ShiftRequestView[];
  /** The reasons beside each broadcast's score, by id (from the shifts domain). */
  reasons: Record<string, string[]>;
  nextCursor: string | null;
  filters: FindFilters;
  filterErrors: Partial<Record<FilterField, string>>;
  roles: { id: number; label: string }[];
  crews: { id: string; name: string }[];
  notice?: string | undefined;
  error?: string | undefined;
  counter?: CounterState | undefined;
  /** The worker's accepted shifts each request or open shift overlaps, by id (overlapsWithMyShifts). */
  overlaps: Map<string, ShiftRequestView[]>;
  /** When the list was made and the worker's zone: the saved copy's note says it. */
  now: number;
  timeZone: string;
}

function FindView(p: FindViewProps) {
  const { base } = p;
  const query = new URLSearchParams();
  for (const k of ['date', 'role', 'min_rate', 'business'] as const) if (p.filters[k]) query.set(k, p.filters[k]!);
  if (p.nextCursor) query.set('cursor', p.nextCursor);
  return (
    <AppShell base={base} side="shifter" current={FIND} title="Find shifts" notice={p.notice} error={p.error} scripts={keptPageScripts()}>
      <KeptPage
        now={p.now}
        timeZone={p.timeZone}
        what="Saved list"
        then="Claiming a shift and answering a request need the network, so they are not offered until you are back online."
      >
        <section class="sf-section" aria-labelledby="requests-heading">
          <h2 id="requests-heading">Requests for you</h2>
          {p.requests.length ? (
            <ul class="sf-list">
              {p.requests.map((s) => (
                <ShiftItem s={s}>
                  <RequestActions base={base} s={s} counter={p.counter} overlaps={p.overlaps.get(s.id) ?? []} />
                </ShiftItem>
              ))}
            </ul>
          ) : (
            <p class="empty">No request waiting for your answer.</p>
          )}
        </section>
        <section class="sf-section" aria-labelledby="open-heading">
          <h2 id="open-heading">Open shifts of your crews</h2>
          <p class="muted">
            Best fit first: the score (out of 100) weighs your role history, the pay, the distance and the businesses you know; until you
            have worked a few shifts, the pay against the going rate, the distance and how soon a shift starts.
          </p>
          <FilterForm filters={p.filters} errors={p.filterErrors} roles={p.roles} crews={p.crews} />
          {p.broadcasts.length ? (
            <ul class="sf-list">
              {p.broadcasts.map((s) => (
                <ShiftItem s={s}>
                  <p class="sf-reason">
                    <span class="badge badge-info sf-score">
                      <span class="visually-hidden">Match score </span>
                      {s.relevance_score ?? 0}
                      <span aria-hidden="true">/100</span>
                      <span class="visually-hidden"> out of 100</span>
                    </span>{' '}
                    {relevanceReason(p.reasons[s.id])}
                  </p>
                  <OverlapMark s={s} others={p.overlaps.get(s.id) ?? []} action="claim" />
                  {p.overlaps.has(s.id) ? null : (
                    <form method="post" action={`${FIND}/${encodeURIComponent(s.id)}/claim`} class="sf-actions" {...NEEDS_NETWORK_PROPS}>
                      <CsrfField token={base.csrfToken} />
                      <IdempotencyField />
                      <button
                        type="submit"
                        class="button button-primary"
                        aria-label={`Claim: ${s.role ?? 'shift'} at ${s.business_name ?? ''}, ${s.shift_date}`}
                      >
                        Claim
                      </button>
                    </form>
                  )}
                </ShiftItem>
              ))}
            </ul>
          ) : (
            <div class="empty">
              <p>
                {p.filters.date || p.filters.role || p.filters.min_rate || p.filters.business
                  ? 'No open shift matches these filters.'
                  : p.crews.length
                    ? 'No open shift in your crews right now. New ones show here as businesses post them.'
                    : 'You are not in a crew yet: once a business adds you to its crew, its open shifts show here.'}
              </p>
              {p.crews.length ? null : (
                <p>
                  <a class="button button-primary" href="/dashboard/shifter/connections">
                    Find a business and see invitations
                  </a>
                </p>
              )}
            </div>
          )}
          {p.nextCursor ? (
            <p {...NEEDS_NETWORK_PROPS}>
              <a class="button button-secondary" href={`${FIND}?${query}`}>
                More shifts
              </a>
            </p>
          ) : null}
        </section>
        <p>
          <a href={SCHEDULE}>My schedule</a>
        </p>
        {p.requests.length ? <DeclineDialog csrf={base.csrfToken} /> : null}
      </KeptPage>
    </AppShell>
  );
}

async function renderFind(
  c: Context<AppEnv>,
  extra: { error?: string; counter?: CounterState; status?: ContentfulStatusCode } = {},
): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const { f, errors } = readFilters(c);
  const byStart = (a: ShiftRequestView, b: ShiftRequestView) => a.starts_at.localeCompare(b.starts_at);
  const [pending, open, roles, crews, me] = await Promise.all([
    listRequests(ctx, { as: 'shifter', status: 1, is_broadcast: false, limit: 50 }),
    listBroadcastsWithReasons(ctx, {
      shifter_id: base.shifterId,
      sort_by_relevance: true,
      limit: 20,
      shift_date: errors.date ? undefined : f.date,
      shiftrole_id: f.role && !errors.role ? Number(f.role) : undefined,
      min_rate: f.min_rate && !errors.min_rate ? Number(f.min_rate) : undefined,
      business_id: f.business,
      cursor: f.cursor,
    }).catch((err: unknown) => {
      // A stale or altered "More shifts" address starts the list over rather than failing the page.
      if (err instanceof AppError && f.cursor)
        return listBroadcastsWithReasons(ctx, { shifter_id: base.shifterId!, sort_by_relevance: true, limit: 20 });
      throw err;
    }),
    listShiftRoles(ctx),
    listConnections(ctx, { as: 'shifter', status: 'accepted' }),
    callerShifter(ctx),
  ]);
  const now = ctx.now();
  const requests = pending.data.filter((s) => Date.parse(s.starts_at) > now && s.shifter_id === base.shifterId).sort(byStart);
  const overlaps = await overlapsWithMyShifts(
    ctx,
    [...requests, ...open.data].map((s) => s.id),
  );
  const crewList = crews.accepted.map((x) => ({ id: x.business_id, name: x.business_name })).sort((a, b) => a.name.localeCompare(b.name));
  return renderPage(
    c,
    <FindView
      base={base}
      requests={requests}
      broadcasts={open.data}
      reasons={open.reasons}
      nextCursor={open.next_cursor}
      filters={f}
      filterErrors={errors}
      roles={roles}
      crews={crewList}
      notice={noticeOf(c, NOTICES)}
      error={extra.error}
      counter={extra.counter}
      overlaps={overlaps}
      now={now}
      timeZone={me?.timezone ?? 'UTC'}
    />,
    extra.status ?? 200,
  );
}

/** A refusal's words: the page's own for the codes it expects, else the service's message (written for people). */
function refusalWords(err: unknown, words: Partial<Record<string, string>>): { status: ContentfulStatusCode; message: string } {
  if (!(err instanceof AppError)) throw err;
  return { status: err.status as ContentfulStatusCode, message: words[err.code] ?? err.message };
}

/** The service's message for one field (AppError details), if it named that field. */
function fieldMessage(err: unknown, field: string): string | undefined {
  const details = err instanceof AppError && Array.isArray(err.details) ? (err.details as { field?: unknown; message?: unknown }[]) : [];
  const hit = details.find((d) => d.field === field && typeof d.message === 'string');
  return hit ? String(hit.message) : undefined;
}

export async function getFind(c: Context<AppEnv>): Promise<Response> {
  return renderFind(c);
}

export async function postClaim(c: Context<AppEnv>): Promise<Response> {
  try {
    await claimBroadcast(serviceCtx(c), c.req.param('id') ?? '');
  } catch (err) {
    const r = refusalWords(err, CLAIM_WORDS);
    return renderFind(c, { error: r.message, status: r.status });
  }
  return c.redirect(`${FIND}?notice=claimed`, 303);
}

const ANSWER_WORDS: Partial<Record<string, string>> = {
  ...MOVED_ON,
  'SHFT-CONFLICT-ERR': 'This shift overlaps one you have already accepted: cancel that one first if you want this one.',
  'SHFT-NOT-FND-ERR': 'This request is no longer there.',
  'NOT-NEGOTIABLE': 'An open shift is taken at its posted rate: claim it, or leave it.',
};

/** The counter-offer's field, in the page's words: the same rate as offered, or a rate it cannot take. */
function counterWords(err: unknown): string {
  const said = fieldMessage(err, 'hourly_rate') ?? '';
  return /same as the offered rate/i.test(said)
    ? 'Same as the offered rate: accept the request instead.'
    : 'A rate above 0, like 24.50, with at most two decimals.';
}

export async function postAccept(c: Context<AppEnv>): Promise<Response> {
  try {
    await acceptRequest(serviceCtx(c), c.req.param('id') ?? '');
  } catch (err) {
    const r = refusalWords(err, ANSWER_WORDS);
    return renderFind(c, { error: r.message, status: r.status });
  }
  return c.redirect(`${FIND}?notice=accepted`, 303);
}

/** The request a decline is about, as the worker sees it; null when it is not theirs to answer (any more). */
async function requestToDecline(c: Context<AppEnv>, base: DashboardBase): Promise<ShiftRequestView | null> {
  const s = await getShiftRequest(serviceCtx(c), (c.req.param('id') ?? '').slice(0, 64)).catch((err: unknown) => {
    if (err instanceof AppError && err.status < 500) return null;
    throw err;
  });
  return s && s.shifter_id === base.shifterId && s.request_status === 1 && !s.is_broadcast ? s : null;
}

/** GET: Decline's confirmation without script (the dialog's form, as a page): the request and an optional reason. */
export async function getDecline(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const s = await requestToDecline(c, base);
  if (!s) return c.redirect(FIND, 303);
  return renderPage(c, <DeclinePage base={base} s={s} current={FIND} action={declinePath(s.id)} back={FIND} />);
}

export async function postDecline(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const typed = field('reason', 4_000);
  const { reason, error } = readReason(typed);
  if (error) {
    const base = await dashboardBase(c);
    const s = base.shifterId ? await requestToDecline(c, base) : null;
    if (!s) return c.redirect(FIND, 303);
    return renderPage(
      c,
      <DeclinePage
        base={base}
        s={s}
        current={FIND}
        action={declinePath(s.id)}
        back={FIND}
        reason={typed}
        fieldError={error}
        error="Check the reason below."
      />,
      400,
    );
  }
  try {
    await declineRequest(serviceCtx(c), c.req.param('id') ?? '', { reason });
  } catch (err) {
    const r = refusalWords(err, ANSWER_WORDS);
    return renderFind(c, { error: r.message, status: r.status });
  }
  return c.redirect(`${FIND}?notice=declined`, 303);
}

export async function postCounter(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? '';
  const field = await formFields(c);
  const value = field('hourly_rate', 32).trim();
  const rate = Number(value);
  if (!value || !Number.isFinite(rate) || rate <= 0 || rate > 10_000) {
    return renderFind(c, {
      error: 'Check the counter-offer below.',
      counter: { id, value, error: 'A rate above 0, like 24.50.' },
      status: 400,
    });
  }
  try {
    await proposeCounterOffer(serviceCtx(c), id, { hourly_rate: rate });
  } catch (err) {
    const r = refusalWords(err, ANSWER_WORDS);
    const onField = err instanceof AppError && err.code === 'VALIDATION-ERR';
    return renderFind(c, {
      error: onField ? 'Check the counter-offer below.' : r.message,
      status: r.status,
      ...(onField ? { counter: { id, value, error: counterWords(err) } } : {}),
    });
  }
  return c.redirect(`${FIND}?notice=countered`, 303);
}
