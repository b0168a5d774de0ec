import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { type ShiftStory, shiftStateWords, shiftStory, type StoryLine, type StoryMoney } from '@/services/shifts';
import { Card } from '@/web/components';
import { dateTimeIn, formatDate, formatMoney, shiftHours } from '@/web/format';
import { renderError, renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { isChangeable } from '../schedule/schedule.model';
import { boardPhotoHref } from '../today/board';

/**
 * A shift's page for its business (/dashboard/shifts/:id): the shift (date and times in the
 * business's zone, role, who, notes; rate and pay for those who see pay), its whole story in time
 * order (services/shifts `shiftStory`: posted, offered, claimed, accepted, declined, changed, the
 * punches with their distance and photo, no-show, cancelled, invoiced, charged, paid, refunded,
 * reviewed), and what may be done with it now: change, cancel, unassign, each offered only when the
 * service would accept it, else the service's reason (shift-actions.tsx holds their confirmations).
 * The schedule, its calendar and the clock board link here.
 */

const SCHEDULE = '/dashboard/schedule';

/** The page's fixed notices (`?notice=`): never text from the address. */
const NOTICES = {
  cancelled: 'The shift is cancelled. The shifter is told.',
  cancelled_open: 'The shift is cancelled: it is no longer open to the crew.',
  unassigned: 'The shifter was taken off the shift and told. The same shift is open to your crew now: the first to claim it takes it.',
} as const;
export type ShiftNotice = keyof typeof NOTICES;

/** A shift page's address, or one of its actions' (`cancel`, `unassign`). */
export const shiftPath = (id: string, action?: 'cancel' | 'unassign') =>
  `/dashboard/shifts/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/** "$20.00 an hour", "$160.00". */
export function moneyText(m: StoryMoney): string {
  return `${formatMoney(m.amount, m.currency)}${m.per_hour ? ' an hour' : ''}`;
}

/** Who works it, in words. */
export function whoText(story: ShiftStory): string {
  const s = story.shift;
  if (s.shifter_name) return s.shifter_name;
  if (s.is_broadcast) return s.status === 'pending' ? 'Open to the crew: nobody yet' : 'Nobody (it was open to the crew)';
  return 'Nobody';
}

const notFound = (c: Context<AppEnv>) => renderError(c, 404, 'Shift not found', 'There is no such shift among your businesses.');

/**
 * The shift's story as the person may read it on the business side, for the business it belongs to:
 * a 404 page when it is not one of their businesses' shifts (another business's shift, a shift they
 * only work), a redirect to the same page of the right business when the page is about another one.
 */
export async function storyFor(c: Context<AppEnv>): Promise<{ base: DashboardBase; story: ShiftStory } | { response: Response }> {
  const base = await dashboardBase(c);
  let story: ShiftStory;
  try {
    story = await shiftStory(serviceCtx(c), (c.req.param('id') ?? '').slice(0, 64));
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return { response: await notFound(c) };
    throw err;
  }
  const businessId = story.shift.business_id;
  if (story.side !== 'business' || !base.businesses.some((b) => b.id === businessId)) return { response: await notFound(c) };
  if (base.business?.id !== businessId) {
    if (c.req.method !== 'GET') return { base: { ...base, business: base.businesses.find((b) => b.id === businessId)! }, story };
    return { response: c.redirect(`${c.req.path}?business_id=${encodeURIComponent(businessId)}`, 303) };
  }
  return { base, story };
}

/** A version of the shift named in a line (the request it changed, the broadcast it became). */
function OtherLink({ base, line }: { base: DashboardBase; line: StoryLine }) {
  const o = line.other;
  if (!o) return null;
  return (
    <p class="story-other">
      <a
        href={dashboardHref(base, shiftPath(o.id))}
      >{`${formatDate(o.shift_date)}, ${shiftHours(o.shift_in, o.shift_out)} (${o.state.toLowerCase()})`}</a>
    </p>
  );
}

function StoryItem({ base, line, tz, who }: { base: DashboardBase; line: StoryLine; tz: string; who: string }) {
  const photo = line.photo ? boardPhotoHref(line.photo.url) : null;
  return (
    <li class={`story-line${line.attention ? ' story-attention' : ''}`}>
      <time class="story-at" datetime={line.at}>
        {dateTimeIn(line.at, tz)}
      </time>
      <p class="story-said">
        {line.said}
        {line.money ? <strong>{` · ${moneyText(line.money)}`}</strong> : null}
      </p>
      {line.by ? <p class="story-by">{`By ${line.by}`}</p> : null}
      {line.quote ? <blockquote class="story-quote">{`“${line.quote}”`}</blockquote> : null}
      <OtherLink base={base} line={line} />
      {photo && line.photo ? (
        <a class="punch-photo" href={photo}>
          <img
            src={photo}
            alt={`${who} at the ${line.photo.side === 'in' ? 'clock-in' : 'clock-out'}, ${dateTimeIn(line.at, tz)}`}
            width={72}
            height={72}
          />
        </a>
      ) : null}
    </li>
  );
}

/** What the business may do with the shift now: each action offered only when its service would take it, else why not. */
function Actions({ base, story, nowMs }: { base: DashboardBase; story: ShiftStory; nowMs: number }) {
  const a = story.actions;
  if (!a) return null;
  const s = story.shift;
  // The calendar's rule for offering a change (it reads the status and the start only, never the pay).
  const changeable = isChangeable({ ...s, hourly_rate: 0, scheduled_pay: 0 }, nowMs);
  return (
    <Card title="What you can do">
      <ul class="list-plain shift-actions">
        {changeable ? (
          <li>
            <a class="button button-secondary" href={dashboardHref(base, `${shiftPath(s.id)}/change`)}>
              Change the date or times
            </a>
          </li>
        ) : null}
        {a.unassign.offered ? (
          <li>
            {a.unassign.refusal === null ? (
              <>
                <a class="button button-secondary" href={dashboardHref(base, shiftPath(s.id, 'unassign'))}>
                  {`Take ${a.unassign.shifter ?? 'the shifter'} off this shift`}
                </a>
                <p class="hint">It goes out to your crew as an open shift instead.</p>
              </>
            ) : (
              <p>{`${a.unassign.shifter ?? 'The shifter'} cannot be taken off it now: ${a.unassign.refusal}`}</p>
            )}
          </li>
        ) : null}
        <li>
          {a.cancel.refusal === null ? (
            <a class="button button-danger" href={dashboardHref(base, shiftPath(s.id, 'cancel'))}>
              Cancel the shift
            </a>
          ) : (
            <p>{`It cannot be cancelled: ${a.cancel.refusal}`}</p>
          )}
        </li>
      </ul>
    </Card>
  );
}

export function ShiftView({
  base,
  story,
  nowMs,
  notice,
}: {
  base: DashboardBase;
  story: ShiftStory;
  nowMs: number;
  notice?: string | undefined;
}) {
  const s = story.shift;
  const tz = s.timezone ?? base.business!.timezone;
  const st = shiftStateWords(s, nowMs);
  const who = whoText(story);
  const hours = Math.round((s.duration_minutes / 60) * 100) / 100;
  return (
    <AppShell
      base={base}
      title={`${s.role ?? 'Shift'} · ${formatDate(s.shift_date)}`}
      current={SCHEDULE}
      notice={notice}
      action={
        <a class="button button-secondary" href={dashboardHref(base, SCHEDULE, { date: s.shift_date })}>
          Back to the schedule
        </a>
      }
    >
      <p class="aside">{`${base.business!.name} · times in ${tz}`}</p>
      <Card title="The shift">
        <dl class="pairs">
          <dt>When</dt>
          <dd>{`${formatDate(s.shift_date)}, ${shiftHours(s.shift_in, s.shift_out)} (${hours} h)`}</dd>
          <dt>Role</dt>
          <dd>{s.role ?? '—'}</dd>
          <dt>Who</dt>
          <dd>{who}</dd>
          <dt>State</dt>
          <dd>
            <span class={`badge shift-badge shift-${st.tone}`}>{st.label}</span>
          </dd>
          {story.pay ? (
            <>
              <dt>Rate</dt>
              <dd>{`${formatMoney(story.pay.hourly_rate, story.pay.currency)} an hour`}</dd>
              <dt>Pay</dt>
              <dd>{`${formatMoney(story.pay.scheduled_pay, story.pay.currency)} for the scheduled hours`}</dd>
            </>
          ) : null}
          {s.is_flexible ? (
            <>
              <dt>Times</dt>
              <dd>Flexible</dd>
            </>
          ) : null}
          <dt>Notes</dt>
          <dd>{s.note ?? 'None'}</dd>
          {story.invoice ? (
            <>
              <dt>Invoice</dt>
              <dd>
                <a href={dashboardHref(base, `/dashboard/money/invoices/${encodeURIComponent(story.invoice.id)}`)}>
                  {`${moneyText(story.invoice.amount)}, ${story.invoice.status}`}
                </a>
              </dd>
            </>
          ) : null}
        </dl>
        {story.pay ? null : <p class="muted">Its rate and pay are shown to the business owner.</p>}
      </Card>
      <Actions base={base} story={story} nowMs={nowMs} />
      <Card title="Its story">
        {story.lines.length ? (
          <ol class="story">
            {story.lines.map((line) => (
              <StoryItem base={base} line={line} tz={tz} who={s.shifter_name ?? 'The shifter'} />
            ))}
          </ol>
        ) : (
          <p class="empty">Nothing has happened to this shift yet.</p>
        )}
      </Card>
    </AppShell>
  );
}

export async function renderShift(c: Context<AppEnv>): Promise<Response> {
  const r = await storyFor(c);
  if ('response' in r) return r.response;
  return renderPage(c, <ShiftView base={r.base} story={r.story} nowMs={serviceCtx(c).now()} notice={noticeOf(c, NOTICES)} />);
}
