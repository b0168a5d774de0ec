import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { cancelShift, type ShiftStory, unassignShift } from '@/services/shifts';
import { CsrfField, IdempotencyField, SubmitButton, TextareaField } from '@/web/components';
import { formatDate, shiftHours } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { type DashboardBase, dashboardHref } from '../dashboard/context';
import { refusalOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { moneyText, type ShiftNotice, shiftPath, storyFor, whoText } from './shift';

/**
 * The shift page's two destructive acts, each a confirmation page of its own (works without script)
 * that says what will happen, with an optional reason: cancel (services/shifts `cancelShift` as the
 * business) and unassign (`unassignShift`: the shifter taken off, the same shift out to the crew). A
 * page whose service would refuse says why and offers no button; a refusal on sending is shown on the
 * same page with the reason kept.
 */

const REASON_MAX = 500;

interface ConfirmProps {
  base: DashboardBase;
  story: ShiftStory;
  error?: string | undefined;
  reason?: string | undefined;
  idem?: string | undefined;
}

/** The shift being acted on, in one line. */
function ShiftLine({ story }: { story: ShiftStory }) {
  const s = story.shift;
  return (
    <p>
      <strong>{`${formatDate(s.shift_date)}, ${shiftHours(s.shift_in, s.shift_out)}`}</strong>
      {` · ${s.role ?? 'Shift'} · ${whoText(story)}`}
    </p>
  );
}

function ConfirmForm({
  base,
  story,
  action,
  button,
  keep,
  reason,
  idem,
  hint,
}: ConfirmProps & { action: 'cancel' | 'unassign'; button: string; keep: string; hint: string }) {
  const back = dashboardHref(base, shiftPath(story.shift.id));
  return (
    <form method="post" action={dashboardHref(base, shiftPath(story.shift.id, action))} class="stack">
      <CsrfField token={base.csrfToken} />
      <IdempotencyField value={idem} />
      <TextareaField label="Reason (optional)" name="reason" maxLength={REASON_MAX} value={reason} rows={2} hint={hint} />
      <div class="actions">
        <SubmitButton variant="danger">{button}</SubmitButton>
        <a class="button button-secondary" href={back}>
          {keep}
        </a>
      </div>
    </form>
  );
}

function Refused({ base, story, why }: { base: DashboardBase; story: ShiftStory; why: string }) {
  return (
    <>
      <p>{why}</p>
      <p>
        <a class="button button-secondary" href={dashboardHref(base, shiftPath(story.shift.id))}>
          Back to the shift
        </a>
      </p>
    </>
  );
}

export function CancelView({ base, story, error, reason, idem }: ConfirmProps) {
  const c = story.actions!.cancel;
  return (
    <AppShell base={base} title="Cancel this shift?" current="/dashboard/schedule" error={error}>
      <ShiftLine story={story} />
      {c.refusal !== null ? (
        <Refused base={base} story={story} why={`It cannot be cancelled: ${c.refusal}`} />
      ) : (
        <>
          <div class="confirm">
            <ul>
              {c.tells ? <li>{`${c.tells} is told at once; the shift leaves their schedule.`}</li> : null}
              {c.open_broadcast ? <li>It is taken off your crew's open shifts: nobody can claim it any more.</li> : null}
              {c.prepaid ? (
                <li>
                  <strong>
                    {c.refund
                      ? `It was paid in advance: the ${moneyText(c.refund)} charged is refunded in full to your card.`
                      : 'It was paid in advance: the payment is refunded in full.'}
                  </strong>
                </li>
              ) : null}
              <li>It is not posted again. To have someone else work it, post a new shift.</li>
            </ul>
          </div>
          <ConfirmForm
            base={base}
            story={story}
            action="cancel"
            button="Cancel the shift"
            keep="Keep it"
            reason={reason}
            idem={idem}
            hint="Kept in the shift's story."
          />
        </>
      )}
    </AppShell>
  );
}

export function UnassignView({ base, story, error, reason, idem }: ConfirmProps) {
  const u = story.actions!.unassign;
  const name = u.shifter ?? 'The shifter';
  return (
    <AppShell base={base} title={`Take ${name} off this shift?`} current="/dashboard/schedule" error={error}>
      <ShiftLine story={story} />
      {!u.offered || u.refusal !== null ? (
        <Refused
          base={base}
          story={story}
          why={`${name} cannot be taken off it now: ${u.refusal ?? 'only an accepted shift offered to one shifter can be.'}`}
        />
      ) : (
        <>
          <div class="confirm">
            <ul>
              <li>{`${name} is taken off the shift and told at once; it leaves their schedule.`}</li>
              <li>
                The same shift (date, times, role, rate and notes) goes out to your crew as an open shift: the first to claim it takes it.{' '}
                {`${name} is not told about the open shift.`}
              </li>
              {story.actions!.cancel.prepaid ? (
                <li>Its payment in advance is refunded in full; the open shift is paid when it is worked.</li>
              ) : null}
            </ul>
          </div>
          <ConfirmForm
            base={base}
            story={story}
            action="unassign"
            button={`Take ${name} off`}
            keep="Keep them on it"
            reason={reason}
            idem={idem}
            hint="Kept in the shift's story."
          />
        </>
      )}
    </AppShell>
  );
}

export async function renderCancelShift(c: Context<AppEnv>): Promise<Response> {
  const r = await storyFor(c);
  if ('response' in r) return r.response;
  return renderPage(c, <CancelView base={r.base} story={r.story} />);
}

export async function renderUnassignShift(c: Context<AppEnv>): Promise<Response> {
  const r = await storyFor(c);
  if ('response' in r) return r.response;
  return renderPage(c, <UnassignView base={r.base} story={r.story} />);
}

/** Runs the act; on a refusal, the same confirmation again with the service's message and the reason kept. */
async function act(
  c: Context<AppEnv>,
  View: typeof CancelView,
  run: (id: string, reason: string | null) => Promise<{ id: string; notice: ShiftNotice }>,
): Promise<Response> {
  const r = await storyFor(c);
  if ('response' in r) return r.response;
  const { base, story } = r;
  const f = await formFields(c);
  const reason = f('reason', REASON_MAX).trim();
  try {
    const done = await run(story.shift.id, reason || null);
    return c.redirect(dashboardHref(base, shiftPath(done.id), { notice: done.notice }), 303);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) {
      return renderError(c, 404, 'Shift not found', 'There is no such shift among your businesses.');
    }
    const refusal = refusalOf(err, []);
    const fresh = await storyFor(c);
    const shown = 'response' in fresh ? story : fresh.story;
    return renderPage(
      c,
      <View base={base} story={shown} error={refusal.message} reason={reason} idem={f('_idem', 255)} />,
      refusal.status as ContentfulStatusCode,
    );
  }
}

export async function postCancelShift(c: Context<AppEnv>): Promise<Response> {
  return act(c, CancelView, async (id, reason) => {
    const done = await cancelShift(serviceCtx(c), id, { as: 'business', reason });
    return { id, notice: done.shift_request.shifter_id ? 'cancelled' : 'cancelled_open' };
  });
}

export async function postUnassignShift(c: Context<AppEnv>): Promise<Response> {
  return act(c, UnassignView, async (id, reason) => {
    const done = await unassignShift(serviceCtx(c), id, { reason });
    return { id: done.broadcast.id, notice: 'unassigned' };
  });
}
