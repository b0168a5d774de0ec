import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { storedFileHeaders } from '@/lib/downloads';
import { AppError } from '@/lib/errors';
import { ID_MAX_LENGTH } from '@/lib/ids';
import { dateInZone } from '@/lib/shift-time';
import {
  type InvitationView,
  inviteTeammate,
  inviteTeammateInput,
  listBusinessInvitations,
  listTeammates,
  revokeInvitation,
  setTeammateStatus,
  type TeammateView,
} from '@/services/businesses';
import {
  type ConnectionLists,
  type ListedConnection,
  listConnections,
  removeConnection,
  respondToConnection,
  sendConnection,
} from '@/services/connections';
import { type CrewAnalytics, type CrewMember, crewAnalytics } from '@/services/insights';
import { findPublicShifter, findPublicShifterById, type PublicShifter } from '@/services/profiles';
import { type Rating, ratingsFor } from '@/services/reviews';
import { type CredentialView, listCredentials, readCredentialDocument } from '@/services/shifter-records';
import { Card, CsrfField, IdempotencyField, SubmitButton, TableWrap, TextField } from '@/web/components';
import { formatDate, formatMoney } from '@/web/format';
import { renderError, renderPage } from '@/web/render';
import { ConfirmPage } from '../dashboard/confirm-page';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { noticeOf, refusalOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';

/**
 * The crew (/dashboard/crew): connection requests in and out (accept, decline, withdraw), the
 * connected shifters with their ratings and the crew analytics of the last 90 days (pay figures for
 * the owner only, as the service gives them), each shifter's public details and the credentials they
 * let businesses see, inviting a shifter by their public name (slug), profile link or id, and the
 * teammates: invitations by email and their state, suspend and reactivate (the owner only). Every
 * change that matters asks for confirmation on a page of its own.
 */

const CREW = '/dashboard/crew';
const SHIFTER_ID = /^shf_[0-9A-Za-z]{20}$/;

const NOTICES = {
  invited: 'The connection request was sent. They join your crew once they accept.',
  accepted: 'The request was accepted: they are in your crew now.',
  declined: 'The request was declined.',
  removed: 'The connection was ended.',
  withdrawn: 'Your request was withdrawn.',
  team_invited: 'The invitation was sent. They become a teammate once they accept it.',
  suspended: 'The teammate is suspended: they no longer reach the business.',
  reactivated: 'The teammate is active again.',
  revoked: 'The invitation was withdrawn.',
} as const;

/** Only the owner changes the team (the service refuses anyone else). */
const managesTeam = (base: DashboardBase) => base.business?.role === 'owner';

/** "4.6 out of 5 (12 reviews)", or "No reviews yet". */
export function ratingText(r: Rating | undefined): string {
  if (!r || r.average === null || r.count === 0) return 'No reviews yet';
  return `${r.average.toFixed(1)} out of 5 (${r.count === 1 ? '1 review' : `${r.count} reviews`})`;
}

/** "17 Dec 2025": a date far from today (a credential's, a profile's start) says its year. */
const longDate = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
const dayOf = (iso: string | null, tz: string) => (iso ? formatDate(dateInZone(Date.parse(iso), tz)) : '—');
const pct = (n: number | null) => (n === null ? '—' : `${n}%`);
const shifterPath = (id: string) => `${CREW}/shifters/${encodeURIComponent(id)}`;
const connectionPath = (id: string, action: string) => `${CREW}/connections/${encodeURIComponent(id)}/${action}`;

interface CrewData {
  connections: ConnectionLists;
  analytics: CrewAnalytics;
  ratings: Map<string, Rating>;
  team: TeammateView[];
  invitations: InvitationView[] | null;
}

async function loadCrew(c: Context<AppEnv>, base: DashboardBase): Promise<CrewData> {
  const ctx = serviceCtx(c);
  const id = base.business!.id;
  const [connections, analytics, team, invitations] = await Promise.all([
    listConnections(ctx, { business_id: id }),
    crewAnalytics(ctx, id),
    listTeammates(ctx, id),
    managesTeam(base) ? listBusinessInvitations(ctx, id).then((r) => r.data) : Promise.resolve(null),
  ]);
  const people = [...connections.accepted, ...connections.incoming, ...connections.outgoing];
  const ratings = await ratingsFor(
    ctx,
    people.map((p) => ({ kind: 'shifter' as const, id: p.shifter_id })),
  );
  return { connections, analytics, ratings, team: team.data, invitations };
}

const ratingOf = (data: CrewData, shifterId: string) => data.ratings.get(`shifter:${shifterId}`);

function InviteShifterForm({ base, value = '', error }: { base: DashboardBase; value?: string; error?: string | undefined }) {
  return (
    <form method="get" action={`${CREW}/invite`} id="invite-shifter">
      <input type="hidden" name="business_id" value={base.business!.id} />
      <TextField
        label="Their public name, profile link or shifter id"
        name="shifter"
        value={value}
        maxLength={300}
        required
        hint="For example jordan-rivera, as in their profile's address. You see who it is before anything is sent."
        error={error}
        autofocus={Boolean(error)}
      />
      <SubmitButton variant="secondary">Look them up</SubmitButton>
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

function Requests({ base, data }: { base: DashboardBase; data: CrewData }) {
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

function Summary({ a }: { a: CrewAnalytics }) {
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

function CrewTable({ base, data }: { base: DashboardBase; data: CrewData }) {
  const pay = seesPay(base.business?.role);
  const a = data.analytics;
  const tz = base.business!.timezone;
  const byShifter = new Map(data.connections.accepted.map((x) => [x.shifter_id, x]));
  if (!a.per_shifter.length) {
    return <p class="empty">No one in your crew yet. Invite a shifter above; they join once they accept.</p>;
  }
  return (
    <TableWrap label="Your crew">
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
                <td>{ratingText(ratingOf(data, m.shifter_id))}</td>
                <td>{m.reliability_score === null ? 'Unrated' : `${m.reliability_score}%`}</td>
                <td>{m.completed_shifts_90d}</td>
                <td>{m.hours_90d}</td>
                {pay ? <td class="nowrap">{m.total_paid_90d === null ? '—' : formatMoney(m.total_paid_90d, a.currency)}</td> : null}
                <td>{m.no_shows_90d}</td>
                <td>{m.cancellations_90d}</td>
                <td class="nowrap">{dayOf(m.last_worked_at, tz)}</td>
                <td>
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

function TeamCard({
  base,
  data,
  email = '',
  emailError,
}: {
  base: DashboardBase;
  data: CrewData;
  email?: string;
  emailError?: string | undefined;
}) {
  const manages = managesTeam(base);
  const tz = base.business!.timezone;
  return (
    <Card title="Teammates">
      <p class="aside">
        Teammates post and change shifts, answer the crew and run the clock board; pay figures stay with the owner.
        {manages ? '' : ' Only the owner invites, suspends or reactivates teammates.'}
      </p>
      {data.team.length ? (
        <ul class="list-plain">
          {data.team.map((t) => (
            <li class="row-split">
              <span>
                <strong>{t.display_name}</strong> <span class="muted">{t.email}</span>{' '}
                <span class={`badge${t.is_active ? ' badge-ok' : ' badge-warn'}`}>{t.is_active ? 'Active' : 'Suspended'}</span>
              </span>
              {manages ? (
                t.is_active ? (
                  <a
                    class="button button-secondary"
                    href={dashboardHref(base, `${CREW}/teammates/${encodeURIComponent(t.user_id)}/suspend`)}
                  >
                    Suspend<span class="visually-hidden">{` ${t.display_name}`}</span>
                  </a>
                ) : (
                  <form
                    method="post"
                    action={dashboardHref(base, `${CREW}/teammates/${encodeURIComponent(t.user_id)}/status`)}
                    class="inline-form"
                  >
                    <CsrfField token={base.csrfToken} />
                    <IdempotencyField />
                    <input type="hidden" name="status" value="1" />
                    <SubmitButton variant="secondary">
                      Reactivate<span class="visually-hidden">{` ${t.display_name}`}</span>
                    </SubmitButton>
                  </form>
                )
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No teammates yet.</p>
      )}
      {manages && data.invitations ? (
        <>
          <h3>Invitations</h3>
          {data.invitations.length ? (
            <ul class="list-plain">
              {data.invitations.map((inv) => (
                <li class="row-split">
                  <span>
                    {inv.email}{' '}
                    <span class={`badge${inv.status === 'expired' ? ' badge-warn' : ' badge-info'}`}>
                      {inv.status === 'expired' ? 'Expired' : 'Waiting'}
                    </span>{' '}
                    <span class="muted">{`sent ${dayOf(inv.created_at, tz)}${inv.status === 'expired' ? '' : `, open until ${dayOf(inv.expires_at, tz)}`}`}</span>
                  </span>
                  <a class="button button-secondary" href={dashboardHref(base, `${CREW}/invitations/${encodeURIComponent(inv.id)}/revoke`)}>
                    Withdraw<span class="visually-hidden">{` the invitation to ${inv.email}`}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">No invitation waiting for an answer.</p>
          )}
          <form method="post" action={dashboardHref(base, `${CREW}/teammates/invite`)} id="invite-teammate">
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <TextField
              label="Invite a teammate by email"
              name="email"
              type="email"
              autocomplete="email"
              value={email}
              maxLength={254}
              required
              hint="Sending it again to a waiting invitation renews it for 14 days."
              error={emailError}
              autofocus={Boolean(emailError)}
            />
            <SubmitButton variant="secondary">Invite</SubmitButton>
          </form>
        </>
      ) : null}
    </Card>
  );
}

interface CrewViewProps {
  base: DashboardBase;
  data: CrewData;
  notice?: string | undefined;
  error?: string | undefined;
  shifter?: { value: string; error?: string | undefined };
  teammate?: { email: string; error?: string | undefined };
}

function CrewView({ base, data, notice, error, shifter, teammate }: CrewViewProps) {
  return (
    <AppShell base={base} title="Crew" current={CREW} notice={notice} error={error}>
      <Card title="Invite a shifter">
        <InviteShifterForm base={base} value={shifter?.value} error={shifter?.error} />
      </Card>
      <Requests base={base} data={data} />
      <section class="card" aria-labelledby="crew-head">
        <h2 id="crew-head">{`Your crew, last ${data.analytics.window_days} days`}</h2>
        <Summary a={data.analytics} />
        <CrewTable base={base} data={data} />
        {seesPay(base.business?.role) ? null : <p class="aside">Pay figures are shown to the business owner.</p>}
      </section>
      <TeamCard base={base} data={data} email={teammate?.email} emailError={teammate?.error} />
    </AppShell>
  );
}

export async function renderCrew(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} notice={noticeOf(c, NOTICES)} />);
}

/**
 * What was typed, as the shifter it names: a profile link's last segment, a slug or a shifter id.
 * Null when nothing public has that name.
 */
async function lookUp(c: Context<AppEnv>, typed: string): Promise<PublicShifter | null> {
  const ctx = serviceCtx(c);
  let key = typed.trim().replace(/^@/, '');
  if (key.includes('/'))
    key =
      key
        .replace(/[?#].*$/, '')
        .replace(/\/+$/, '')
        .split('/')
        .pop() ?? '';
  if (!key || key.length > 200) return null;
  if (SHIFTER_ID.test(key)) return findPublicShifterById(ctx, key);
  return findPublicShifter(ctx, key.toLowerCase());
}

/** GET /dashboard/crew/invite?shifter=…: who that is, and the button that sends the request. */
export async function renderInviteShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const typed = (c.req.query('shifter') ?? '').slice(0, 300);
  const found = typed.trim() ? await lookUp(c, typed) : null;
  if (!found) {
    const message = typed.trim()
      ? 'No shifter has this public name or id. Check it with them, or paste the link to their profile.'
      : 'Type their public name, profile link or shifter id.';
    return renderPage(
      c,
      <CrewView
        base={base}
        data={await loadCrew(c, base)}
        error="Check the field marked below."
        shifter={{ value: typed, error: message }}
      />,
      typed.trim() ? 404 : 400,
    );
  }
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Invite a shifter"
      current={CREW}
      action={`${CREW}/invite`}
      button={`Send ${found.display_name} a request`}
      back={CREW}
      hidden={{ shifter_id: found.id, shifter: typed }}
    >
      <ShifterFacts s={found} />
      <p>{`Ask ${found.display_name} to join the crew of ${base.business.name}? Once they accept, you can send them shifts and they see your broadcasts.`}</p>
    </ConfirmPage>,
  );
}

export async function postInviteShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const body = await c.req.parseBody();
  const str = (k: string, max: number) => (typeof body[k] === 'string' ? (body[k] as string).slice(0, max) : '');
  const shifterId = str('shifter_id', ID_MAX_LENGTH);
  const typed = str('shifter', 300);
  try {
    await sendConnection(serviceCtx(c), { business_id: base.business.id, shifter_id: shifterId || null });
  } catch (err) {
    const r = refusalOf(err, ['shifter_id'] as const, { 'CONNECTION-EXISTS-ERR': 'shifter_id', 'SHIFTER-NOT-FND-ERR': 'shifter_id' });
    return renderPage(
      c,
      <CrewView
        base={base}
        data={await loadCrew(c, base)}
        error="The request was not sent: see the message below."
        shifter={{ value: typed, error: r.errors.shifter_id ?? r.message }}
      />,
      r.status,
    );
  }
  return c.redirect(dashboardHref(base, CREW, { notice: 'invited' }), 303);
}

/** A connection of this business, as the crew page lists it (pending or accepted). */
async function connectionOf(c: Context<AppEnv>, base: DashboardBase): Promise<{ x: ListedConnection; incoming: boolean } | null> {
  const id = c.req.param('id') ?? '';
  const lists = await listConnections(serviceCtx(c), { business_id: base.business!.id });
  const incoming = lists.incoming.find((x) => x.id === id);
  if (incoming) return { x: incoming, incoming: true };
  const x = [...lists.outgoing, ...lists.accepted].find((y) => y.id === id);
  return x ? { x, incoming: false } : null;
}

const connectionGone = (c: Context<AppEnv>) =>
  renderError(c, 404, 'Not found', 'This connection no longer exists, or it belongs to another business.');

export async function postAcceptConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  return answerConnection(c, base, 'accept');
}

async function answerConnection(c: Context<AppEnv>, base: DashboardBase, decision: 'accept' | 'decline'): Promise<Response> {
  const found = await connectionOf(c, base);
  if (!found) return connectionGone(c);
  try {
    await respondToConnection(serviceCtx(c), found.x.id, decision);
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} error={r.message} />, r.status);
  }
  return c.redirect(dashboardHref(base, CREW, { notice: decision === 'accept' ? 'accepted' : 'declined' }), 303);
}

export async function renderDeclineConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const found = await connectionOf(c, base);
  if (!found?.incoming) return connectionGone(c);
  const name = found.x.shifter_name;
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Decline a request"
      current={CREW}
      action={connectionPath(found.x.id, 'decline')}
      button={`Decline ${name}`}
      variant="danger"
      back={CREW}
    >
      <p>{`Decline ${name}'s request to join your crew? They are not told why; they may ask again later, and you may invite them yourself.`}</p>
    </ConfirmPage>,
  );
}

export async function postDeclineConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  return answerConnection(c, base, 'decline');
}

export async function renderRemoveConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const found = await connectionOf(c, base);
  if (!found || found.incoming) return connectionGone(c);
  const { x } = found;
  const pending = x.status === 'pending';
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title={pending ? 'Withdraw a request' : 'Remove from the crew'}
      current={CREW}
      action={connectionPath(x.id, 'remove')}
      button={pending ? 'Withdraw the request' : `Remove ${x.shifter_name}`}
      variant="danger"
      back={CREW}
    >
      <p>
        {pending
          ? `Withdraw your request to ${x.shifter_name}? They can no longer accept it.`
          : `Remove ${x.shifter_name} from the crew of ${base.business.name}? You can no longer send them shifts and they no longer see your broadcasts. Shifts already accepted stay as they are.`}
      </p>
    </ConfirmPage>,
  );
}

export async function postRemoveConnection(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const found = await connectionOf(c, base);
  if (!found || found.incoming) return connectionGone(c);
  await removeConnection(serviceCtx(c), found.x.id);
  return c.redirect(dashboardHref(base, CREW, { notice: found.x.status === 'pending' ? 'withdrawn' : 'removed' }), 303);
}

function ShifterFacts({ s }: { s: PublicShifter }) {
  return (
    <dl class="pairs">
      <dt>Name</dt>
      <dd>
        {s.display_name}
        {s.accept_shift_req ? null : (
          <>
            {' '}
            <span class="badge">Paused: not taking requests</span>
          </>
        )}
      </dd>
      {s.headline ? (
        <>
          <dt>Works as</dt>
          <dd>{s.headline}</dd>
        </>
      ) : null}
      {s.city ? (
        <>
          <dt>City</dt>
          <dd>{s.city}</dd>
        </>
      ) : null}
      <dt>Rating</dt>
      <dd>{ratingText(s.ratings)}</dd>
      <dt>On Shiftmarket since</dt>
      <dd>{longDate(new Date(s.created_at).toISOString().slice(0, 10))}</dd>
    </dl>
  );
}

function CredentialList({ base, shifterId, items }: { base: DashboardBase; shifterId: string; items: CredentialView[] }) {
  if (!items.length) return <p class="empty">No credentials shared with businesses.</p>;
  return (
    <ul class="list-plain">
      {items.map((cr) => (
        <li>
          <p>
            <strong>{cr.label}</strong>
            {cr.issuer ? <span class="muted">{` · ${cr.issuer}`}</span> : null}{' '}
            {cr.expired ? (
              <span class="badge badge-warn">Expired</span>
            ) : cr.expiring ? (
              <span class="badge badge-info">Expires soon</span>
            ) : null}
          </p>
          <p class="muted">
            {[cr.issued_on ? `Issued ${longDate(cr.issued_on)}` : null, cr.expires_on ? `expires ${longDate(cr.expires_on)}` : 'no expiry']
              .filter(Boolean)
              .join(', ')}
            {cr.has_document ? (
              <>
                {' · '}
                <a href={dashboardHref(base, `${shifterPath(shifterId)}/credentials/${encodeURIComponent(cr.id)}/document`)}>
                  Download the document<span class="visually-hidden">{` of ${cr.label}`}</span>
                </a>
              </>
            ) : null}
          </p>
        </li>
      ))}
    </ul>
  );
}

/** GET /dashboard/crew/shifters/:shifterId: a shifter connected to (or asking to join) the business. */
export async function renderCrewShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const shifterId = c.req.param('shifterId') ?? '';
  const ctx = serviceCtx(c);
  const lists = await listConnections(ctx, { business_id: base.business.id });
  const conn = [...lists.accepted, ...lists.incoming, ...lists.outgoing].find((x) => x.shifter_id === shifterId);
  if (!conn) return renderError(c, 404, 'Not found', 'This shifter is not in your crew and has no request with your business.');
  const [profile, credentials, analytics] = await Promise.all([
    findPublicShifter(ctx, conn.shifter_slug),
    listCredentials(ctx, shifterId),
    crewAnalytics(ctx, base.business.id),
  ]);
  if (!profile) return renderError(c, 404, 'Not found', 'This shifter has no public profile any more.');
  const m = analytics.per_shifter.find((p) => p.shifter_id === shifterId);
  const pay = seesPay(base.business?.role);
  const state = conn.status === 'accepted' ? 'In your crew' : lists.incoming.includes(conn) ? 'Asking to join' : 'Your request is waiting';
  return renderPage(
    c,
    <AppShell base={base} title={profile.display_name} current={CREW}>
      <p>
        <span class="badge badge-info">{state}</span>
      </p>
      <Card title="Public details">
        <ShifterFacts s={profile} />
        {profile.bio ? <p class="bio">{profile.bio}</p> : null}
      </Card>
      <Card title="Credentials they share">
        <CredentialList base={base} shifterId={shifterId} items={credentials.data} />
      </Card>
      {m ? (
        <Card title={`At ${base.business.name}, last ${analytics.window_days} days`}>
          <dl class="pairs">
            <dt>Shifts worked</dt>
            <dd>{m.completed_shifts_90d}</dd>
            <dt>Hours</dt>
            <dd>{m.hours_90d}</dd>
            {pay && m.total_paid_90d !== null ? (
              <>
                <dt>Paid</dt>
                <dd>{formatMoney(m.total_paid_90d, analytics.currency)}</dd>
              </>
            ) : null}
            <dt>No-shows</dt>
            <dd>{m.no_shows_90d}</dd>
            <dt>Cancelled by them</dt>
            <dd>{m.cancellations_90d}</dd>
            <dt>Reliability</dt>
            <dd>{m.reliability_score === null ? 'Unrated: no finished shift yet' : `${m.reliability_score}%`}</dd>
          </dl>
        </Card>
      ) : null}
      <p class="actions">
        {conn.status === 'accepted' ? (
          <a class="button button-primary" href={dashboardHref(base, '/dashboard/shifts/new', { shifter_id: shifterId })}>
            Send them a shift
          </a>
        ) : null}
        <a class="button button-secondary" href={dashboardHref(base, CREW)}>
          Back to the crew
        </a>
      </p>
    </AppShell>,
  );
}

/** A shared credential's document, for those the service lets see it (never inline: see storedFileHeaders). */
export async function downloadCredential(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const shifterId = c.req.param('shifterId') ?? '';
  const lists = await listConnections(serviceCtx(c), { business_id: base.business.id });
  const known = [...lists.accepted, ...lists.incoming, ...lists.outgoing].some((x) => x.shifter_id === shifterId);
  if (!known) return renderError(c, 404, 'Not found', 'There is no such document.');
  try {
    const doc = await readCredentialDocument(serviceCtx(c), shifterId, c.req.param('credentialId') ?? '');
    return c.body(doc.body, 200, storedFileHeaders(doc));
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return renderError(c, 404, 'Not found', 'There is no such document.');
    throw err;
  }
}

/** POST /dashboard/crew/teammates/invite: checked, then confirmed on a page of its own, then sent. */
export async function postInviteTeammate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const body = await c.req.parseBody();
  const email = typeof body.email === 'string' ? body.email.slice(0, 300).trim() : '';
  const again = async (error: string, status: ContentfulStatusCode) =>
    renderPage(
      c,
      <CrewView base={base} data={await loadCrew(c, base)} error="The invitation was not sent." teammate={{ email, error }} />,
      status,
    );
  const parsed = inviteTeammateInput.safeParse({ email });
  if (!parsed.success) return again('Enter an email address, e.g. sam@example.com.', 400);
  if (body.confirm !== '1') {
    return renderPage(
      c,
      <ConfirmPage
        base={base}
        title="Invite a teammate"
        current={CREW}
        action={`${CREW}/teammates/invite`}
        button={`Invite ${parsed.data.email}`}
        back={CREW}
        hidden={{ email: parsed.data.email, confirm: '1' }}
      >
        <p>{`Invite ${parsed.data.email} to the team of ${base.business.name}? Once they accept, they post and change shifts, answer the crew and run the clock board. They do not see pay figures.`}</p>
      </ConfirmPage>,
    );
  }
  try {
    await inviteTeammate(serviceCtx(c), base.business.id, parsed.data);
  } catch (err) {
    const r = refusalOf(err, ['email'] as const, { 'CONFLICT-ERR': 'email' });
    return again(r.errors.email ?? r.message, r.status);
  }
  return c.redirect(dashboardHref(base, CREW, { notice: 'team_invited' }), 303);
}

async function teammateOf(c: Context<AppEnv>, base: DashboardBase): Promise<TeammateView | null> {
  const userId = c.req.param('userId') ?? '';
  const team = await listTeammates(serviceCtx(c), base.business!.id);
  return team.data.find((t) => t.user_id === userId) ?? null;
}

export async function renderSuspendTeammate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await teammateOf(c, base);
  if (!t) return renderError(c, 404, 'Not found', 'This person is not a teammate of the business.');
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Suspend a teammate"
      current={CREW}
      action={`${CREW}/teammates/${encodeURIComponent(t.user_id)}/status`}
      button={`Suspend ${t.display_name}`}
      variant="danger"
      back={CREW}
      hidden={{ status: '0' }}
      error={managesTeam(base) ? undefined : 'Only the owner suspends teammates.'}
    >
      <p>{`Suspend ${t.display_name} (${t.email})? They no longer reach ${base.business.name} in the app, the API or through their agents until you reactivate them.`}</p>
    </ConfirmPage>,
  );
}

export async function postTeammateStatus(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const status = (await c.req.parseBody()).status === '1' ? 1 : 0;
  try {
    await setTeammateStatus(serviceCtx(c), base.business.id, c.req.param('userId') ?? '', { status });
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} error={r.message} />, r.status);
  }
  return c.redirect(dashboardHref(base, CREW, { notice: status ? 'reactivated' : 'suspended' }), 303);
}

export async function renderRevokeInvitation(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  if (!managesTeam(base)) return renderError(c, 403, 'Owner only', 'Only the owner withdraws teammate invitations.');
  const id = c.req.param('id') ?? '';
  const inv = (await listBusinessInvitations(serviceCtx(c), base.business.id)).data.find((i) => i.id === id);
  if (!inv) return renderError(c, 404, 'Not found', 'This invitation was answered, withdrawn or never sent.');
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Withdraw an invitation"
      current={CREW}
      action={`${CREW}/invitations/${encodeURIComponent(inv.id)}/revoke`}
      button="Withdraw the invitation"
      variant="danger"
      back={CREW}
    >
      <p>{`Withdraw the invitation to ${inv.email}? They can no longer accept it; you may invite them again later.`}</p>
    </ConfirmPage>,
  );
}

export async function postRevokeInvitation(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  try {
    await revokeInvitation(serviceCtx(c), base.business.id, c.req.param('id') ?? '');
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} error={r.message} />, r.status);
  }
  return c.redirect(dashboardHref(base, CREW, { notice: 'revoked' }), 303);
}
