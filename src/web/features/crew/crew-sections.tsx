// The sections of the crew page above the team: the invite-a-shifter form, the connection requests
// in and out, the crew summary figures and the crew table.
import type { ListedConnection } from '@/services/connections';
import type { CrewAnalytics, CrewMember } from '@/services/insights';
import { Card, CsrfField, IdempotencyField, SubmitButton, TableWrap, TextField } from '@/web/components';
import { formatMoney } from '@/web/format';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { type CrewData, ratingOf } from './crew-data';
import { CREW, connectionPath, dayOf, pct, ratingText, shifterPath } from './crew-format';

export function InviteShifterForm({ base, value = '', error }: { base: DashboardBase; value?: string; error?: string | undefined }) {
  return (
    <form method="get" action={`${CREW}/invite`} id="invite-shifter">
      <input type="hidden" name="business_id" value={base.business!.id} />
      <TextField
        label="Their name, public name or profile link"
        name="shifter"
        value={value}
        maxLength={300}
        required
        hint="For example Jordan Rivera, or jordan-rivera as in their profile's address. You see who it is before anything is sent."
        error={error}
        autofocus={Boolean(error)}
      />
      <SubmitButton variant="secondary">Find them</SubmitButton>
    </form>
  );
}

function RequestRow({ base, data, x, incoming }: { base: DashboardBase; data: CrewData; x: ListedConnection; incoming: boolean }) {
  const tz = base.business!.timezone;
  return (
    <li>
      <p>
        <a href={dashboardHref(base, shifterPath(x.shifter_id))}>{x.shifter_name}</a>
        <span class="muted">{` · ${ratingText(ratingOf(data, x.shifter_id))} · ${incoming ? 'asked' : 'sent'} ${dayOf(x.updated_at, tz)}`}</span>
      </p>
      <div class="actions">
        {incoming ? (
          <>
            <form method="post" action={dashboardHref(base, connectionPath(x.id, 'accept'))} class="inline-form">
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <SubmitButton>
                Accept<span class="visually-hidden">{` ${x.shifter_name}`}</span>
              </SubmitButton>
            </form>
            <a class="button button-secondary" href={dashboardHref(base, connectionPath(x.id, 'decline'))}>
              Decline<span class="visually-hidden">{` ${x.shifter_name}`}</span>
            </a>
          </>
        ) : (
          <a class="button button-secondary" href={dashboardHref(base, connectionPath(x.id, 'remove'))}>
            Withdraw<span class="visually-hidden">{` the request to ${x.shifter_name}`}</span>
          </a>
        )}
      </div>
    </li>
  );
}

export function Requests({ base, data }: { base: DashboardBase; data: CrewData }) {
  const { incoming, outgoing } = data.connections;
  return (
    <div class="grid">
      <Card title={`Asking to join (${incoming.length})`}>
        {incoming.length ? (
          <ul class="list-plain">
            {incoming.map((x) => (
              <RequestRow base={base} data={data} x={x} incoming />
            ))}
          </ul>
        ) : (
          <p class="empty">No shifter is asking to join your crew.</p>
        )}
      </Card>
      <Card title={`Your requests waiting (${outgoing.length})`}>
        {outgoing.length ? (
          <ul class="list-plain">
            {outgoing.map((x) => (
              <RequestRow base={base} data={data} x={x} incoming={false} />
            ))}
          </ul>
        ) : (
          <p class="empty">No request of yours is waiting for an answer.</p>
        )}
      </Card>
    </div>
  );
}

export function Summary({ a }: { a: CrewAnalytics }) {
  const items = [
    { value: String(a.crew_size), label: a.crew_size === 1 ? 'shifter in the crew' : 'shifters in the crew' },
    { value: String(a.total_completed_shifts_90d), label: `shifts worked in the last ${a.window_days} days` },
    { value: pct(a.repeat_rate), label: 'worked more than once (repeat rate)' },
    { value: pct(a.avg_reliability_score), label: `average reliability of ${a.rated_crew} rated` },
    { value: pct(a.accept_rate), label: 'accepting shift requests now' },
  ];
  return (
    <ul class="stat-row">
      {items.map((i) => (
        <li>
          <span class="stat">{i.value}</span>
          <span class="stat-label">{i.label}</span>
        </li>
      ))}
    </ul>
  );
}

export function CrewTable({ base, data }: { base: DashboardBase; data: CrewData }) {
  const pay = seesPay(base.business?.role);
  const a = data.analytics;
  const tz = base.business!.timezone;
  const byShifter = new Map(data.connections.accepted.map((x) => [x.shifter_id, x]));
  if (!a.per_shifter.length) {
    return <p class="empty">No one in your crew yet. Invite a shifter above; they join once they accept.</p>;
  }
  // Below the table's width (a phone, a narrow window) each shifter is a card, every figure under its
  // heading's words (data-label, crew.css), so nothing scrolls sideways and nothing is left out.
  return (
    <TableWrap label="Your crew" class="crew-wrap">
      <table class="crew-table">
        <caption class="visually-hidden">{`Your crew, with their last ${a.window_days} days at ${base.business!.name}`}</caption>
        <thead>
          <tr>
            <th scope="col">Shifter</th>
            <th scope="col">Rating</th>
            <th scope="col">Reliability</th>
            <th scope="col">Shifts</th>
            <th scope="col">Hours</th>
            {pay ? <th scope="col">Paid</th> : null}
            <th scope="col">No-shows</th>
            <th scope="col">Cancelled</th>
            <th scope="col">Last worked</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {a.per_shifter.map((m: CrewMember) => {
            const conn = byShifter.get(m.shifter_id);
            return (
              <tr>
                <th scope="row">
                  <a href={dashboardHref(base, shifterPath(m.shifter_id))}>{m.shifter_name}</a>
                  {m.accept_shift_req ? null : (
                    <>
                      {' '}
                      <span class="badge">Paused</span>
                    </>
                  )}
                </th>
                <td data-label="Rating">{ratingText(ratingOf(data, m.shifter_id))}</td>
                <td data-label="Reliability">{m.reliability_score === null ? 'Unrated' : `${m.reliability_score}%`}</td>
                <td data-label="Shifts">{m.completed_shifts_90d}</td>
                <td data-label="Hours">{m.hours_90d}</td>
                {pay ? (
                  <td data-label="Paid" class="nowrap">
                    {m.total_paid_90d === null ? '—' : formatMoney(m.total_paid_90d, a.currency)}
                  </td>
                ) : null}
                <td data-label="No-shows">{m.no_shows_90d}</td>
                <td data-label="Cancelled">{m.cancellations_90d}</td>
                <td data-label="Last worked" class="nowrap">
                  {dayOf(m.last_worked_at, tz)}
                </td>
                <td class="crew-actions">
                  {conn ? (
                    <a href={dashboardHref(base, connectionPath(conn.id, 'remove'))}>
                      Remove<span class="visually-hidden">{` ${m.shifter_name} from the crew`}</span>
                    </a>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
