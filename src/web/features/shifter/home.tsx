import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { callerShifter } from '@/services/access';
import { listConnections } from '@/services/connections';
import { listBroadcastsWithReasons, listRequests, type ShiftRequestView } from '@/services/shifts';
import { Card } from '@/web/components';
import { formatDate, formatMoney, shiftHours } from '@/web/format';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { CONNECTIONS } from '../shifter-connections/parts';
import { FIND, relevanceReason, SCHEDULE, ShiftItem } from '../shifter-shifts/parts';
import { KeptPage, keptPageScripts } from './kept-note';

/**
 * The shifter side's home ({app_url}/dashboard/shifter): what is next (the next accepted shift, big,
 * then the rest of the coming days), the requests waiting for an answer (answered on Find shifts),
 * and the few best open shifts of their crews with their score and why. Each part leads on to its page.
 * Someone in no crew yet is told first how to join one (find a business, answer an invitation), and
 * invitations waiting for an answer are counted. Kept on the phone once seen (shifter/kept-note.tsx).
 */
function ShiftList({ shifts, empty }: { shifts: ShiftRequestView[]; empty: string }) {
  if (!shifts.length) return <p class="empty">{empty}</p>;
  return (
    <ul class="list-plain">
      {shifts.map((s) => (
        <li>
          <strong>{formatDate(s.shift_date)}</strong> {shiftHours(s.shift_in, s.shift_out)} · {s.role ?? 'Shift'} · {s.business_name ?? ''}
          <span class="muted">{` · ${formatMoney(s.hourly_rate, s.currency)}/h`}</span>
        </li>
      ))}
    </ul>
  );
}

const invitationsWaiting = (n: number) =>
  n === 1
    ? 'A business invited you to its crew: 1 invitation is waiting for your answer.'
    : `${n} invitations from businesses are waiting for your answer.`;

/** No crew yet: how to join one. In a crew: only the invitations waiting, when there are some. */
function CrewStep({ crews, invitations }: { crews: number; invitations: number }) {
  const see = (
    <a class={`button ${invitations ? 'button-primary' : 'button-secondary'}`} href={`${CONNECTIONS}#invitations`}>
      {invitations === 1 ? 'See the invitation' : invitations ? `See the ${invitations} invitations` : 'See invitations'}
    </a>
  );
  if (crews > 0) {
    if (!invitations) return null;
    return (
      <section class="sf-section" aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Invitations</h2>
        <p>{invitationsWaiting(invitations)}</p>
        <div class="sf-actions">{see}</div>
      </section>
    );
  }
  return (
    <section class="sf-section" aria-labelledby="crew-heading">
      <h2 id="crew-heading">You are not in a crew yet</h2>
      <p>
        Businesses send their open shifts to their crew. Find a business you would like to work for and ask to connect, or accept a
        business's invitation.
      </p>
      {invitations ? (
        <p>
          <strong>{invitationsWaiting(invitations)}</strong>
        </p>
      ) : null}
      <div class="sf-actions">
        {invitations ? see : null}
        <a class={`button ${invitations ? 'button-secondary' : 'button-primary'}`} href={`${CONNECTIONS}#find`}>
          Find a business
        </a>
        {invitations ? null : see}
      </div>
    </section>
  );
}

function ShifterView({
  base,
  upcoming,
  requests,
  broadcasts,
  reasons,
  crews,
  invitations,
  now,
  timeZone,
}: {
  base: DashboardBase;
  upcoming: ShiftRequestView[];
  requests: ShiftRequestView[];
  broadcasts: ShiftRequestView[];
  /** The reasons beside each broadcast's score, by id (from the shifts domain). */
  reasons: Record<string, string[]>;
  /** How many crews the shifter is in, and how many invitations wait for their answer. */
  crews: number;
  invitations: number;
  now: number;
  timeZone: string;
}) {
  const [next, ...later] = upcoming;
  return (
    <AppShell base={base} side="shifter" current="/dashboard/shifter" title="Your shifts" scripts={keptPageScripts()}>
      <KeptPage
        now={now}
        timeZone={timeZone}
        what="Saved copy"
        then="Your shifts as they were then: what changed since shows once you are back online."
      >
        <CrewStep crews={crews} invitations={invitations} />
        <section class="sf-section" aria-labelledby="next-heading">
          <h2 id="next-heading">What is next</h2>
          {next ? (
            <ul class="sf-list">
              <ShiftItem s={next}>
                <div class="sf-actions">
                  <a class="button button-primary" href="/dashboard/shifter/clock">
                    Clock in and out
                  </a>
                </div>
              </ShiftItem>
            </ul>
          ) : (
            <p class="empty">
              No accepted shift coming up. <a href={FIND}>Find shifts</a>
            </p>
          )}
          {later.length ? <ShiftList shifts={later.slice(0, 5)} empty="" /> : null}
          <p>
            <a href={SCHEDULE}>My schedule</a>
          </p>
        </section>
        <div class="grid">
          <Card title="Waiting for your answer">
            <ShiftList shifts={requests.slice(0, 5)} empty="No request waiting for you." />
            {requests.length ? (
              <p>
                <a class="button button-secondary" href={FIND}>
                  Answer {requests.length === 1 ? 'the request' : `${requests.length} requests`}
                </a>
              </p>
            ) : null}
          </Card>
          <Card title="Best open shifts for you">
            {broadcasts.length ? (
              <ul class="list-plain">
                {broadcasts.map((s) => (
                  <li>
                    <strong>{formatDate(s.shift_date)}</strong> {shiftHours(s.shift_in, s.shift_out)} · {s.role ?? 'Shift'} ·{' '}
                    {s.business_name ?? ''}
                    <span class="muted">{` · ${formatMoney(s.hourly_rate, s.currency)}/h`}</span>
                    <br />
                    <span class="muted">{`Score ${s.relevance_score ?? 0} of 100: ${relevanceReason(reasons[s.id])}`}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p class="empty">{crews ? 'No open shift right now.' : 'Open shifts show here once you are in a crew.'}</p>
            )}
            <p>
              <a class="button button-secondary" href={FIND}>
                Find shifts
              </a>
            </p>
          </Card>
        </div>
      </KeptPage>
    </AppShell>
  );
}

export async function renderShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const now = ctx.now();
  const byStart = (a: ShiftRequestView, b: ShiftRequestView) => a.starts_at.localeCompare(b.starts_at);
  const [accepted, pending, open, connections, me] = await Promise.all([
    listRequests(ctx, { as: 'shifter', status: 2, limit: 100 }),
    listRequests(ctx, { as: 'shifter', status: 1, is_broadcast: false, limit: 100 }),
    listBroadcastsWithReasons(ctx, { shifter_id: base.shifterId, sort_by_relevance: true, limit: 3 }),
    listConnections(ctx, { as: 'shifter' }),
    callerShifter(ctx),
  ]);
  const upcoming = accepted.data.filter((s) => !s.shift_end_at && Date.parse(s.ends_at) > now).sort(byStart);
  return renderPage(
    c,
    <ShifterView
      base={base}
      upcoming={upcoming.slice(0, 20)}
      requests={pending.data.filter((s) => Date.parse(s.starts_at) > now).sort(byStart)}
      broadcasts={open.data}
      reasons={open.reasons}
      crews={connections.accepted.length}
      invitations={connections.incoming.length}
      now={now}
      timeZone={me?.timezone ?? 'UTC'}
    />,
  );
}
