import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { type ConnectionLists, type ListedConnection, listConnections } from '@/services/connections';
import { CsrfField, IdempotencyField } from '@/web/components';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { type FinderQuery, FinderSection, type FinderState, finderQueryOf, findBusinesses } from './business-finder';
import { BusinessItem, CONNECTIONS, connectionAction, dayOf, NOTICES, Refused, type Standing } from './parts';

/*
 * The shifter's businesses ({app_url}/dashboard/shifter/connections): the invitations businesses
 * sent (accept; decline after a confirmation), the crews they are in (each business's public profile,
 * its open shifts, remove after a confirmation), the requests they sent (withdraw after a
 * confirmation), and finding more businesses to ask. Everything comes from the connections domain
 * (`listConnections` as the shifter) and the public profiles' search; plain forms throughout.
 */

export interface PageExtra {
  /** The search to show; undefined: the one the address asks for. */
  query?: FinderQuery | null;
  /** An answer to an invitation the service refused: its words beside that invitation. */
  refused?: { connection: ListedConnection; message: string } | undefined;
  /** An "Ask to connect" the service refused: its words beside that business. */
  askRefusal?: { businessId: string; message: string } | undefined;
  error?: string | undefined;
  status?: ContentfulStatusCode | undefined;
}

function standingsOf(lists: ConnectionLists): Map<string, Standing> {
  const out = new Map<string, Standing>();
  for (const x of lists.incoming) out.set(x.business_id, { kind: 'invited', connection: x });
  for (const x of lists.outgoing) out.set(x.business_id, { kind: 'asked', connection: x });
  for (const x of lists.accepted) out.set(x.business_id, { kind: 'connected', connection: x });
  return out;
}

function Invitation({ base, x, refused }: { base: DashboardBase; x: ListedConnection; refused?: string | undefined }) {
  return (
    <BusinessItem name={x.business_name} slug={x.business_slug} id={`invitation-${x.id}`}>
      <p class="muted">{`Wants to add you to their crew · ${dayOf(x.updated_at)}`}</p>
      <Refused message={refused} />
      <div class="sc-actions">
        <form method="post" action={connectionAction(x.id, 'accept')}>
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <button type="submit" class="button button-primary" aria-label={`Accept: ${x.business_name}`}>
            Accept
          </button>
        </form>
        <a class="button button-secondary" href={connectionAction(x.id, 'decline')} aria-label={`Decline: ${x.business_name}`}>
          Decline
        </a>
      </div>
    </BusinessItem>
  );
}

function Invitations({ base, lists, refused }: { base: DashboardBase; lists: ConnectionLists; refused?: PageExtra['refused'] }) {
  // A refused answer to an invitation that is no longer waiting (withdrawn meanwhile) still shows, with the service's words.
  const gone = refused && !lists.incoming.some((x) => x.id === refused.connection.id) ? refused : undefined;
  const n = lists.incoming.length;
  return (
    <section class="sf-section" id="invitations" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">{n ? `Invitations (${n})` : 'Invitations'}</h2>
      {n || gone ? (
        <ul class="sc-list">
          {gone ? (
            <BusinessItem name={gone.connection.business_name} slug={gone.connection.business_slug} id={`invitation-${gone.connection.id}`}>
              <Refused message={gone.message} />
            </BusinessItem>
          ) : null}
          {lists.incoming.map((x) => (
            <Invitation base={base} x={x} refused={refused?.connection.id === x.id ? refused.message : undefined} />
          ))}
        </ul>
      ) : (
        <p class="empty">No invitation waiting. When a business invites you to its crew, it shows here and in your notifications.</p>
      )}
    </section>
  );
}

function MyBusinesses({ lists }: { lists: ConnectionLists }) {
  return (
    <section class="sf-section" id="crews" aria-labelledby="crews-heading">
      <h2 id="crews-heading">My businesses</h2>
      {lists.accepted.length ? (
        <ul class="sc-list">
          {lists.accepted.map((x) => (
            <BusinessItem name={x.business_name} slug={x.business_slug}>
              <p class="muted">{`In their crew since ${dayOf(x.responded_at ?? x.updated_at)}`}</p>
              <div class="sc-actions">
                <a
                  class="button button-secondary"
                  href={`/dashboard/shifter/find?${new URLSearchParams({ business: x.business_id })}`}
                  aria-label={`Open shifts: ${x.business_name}`}
                >
                  Open shifts
                </a>
                <a class="button button-secondary" href={connectionAction(x.id, 'remove')} aria-label={`Remove: ${x.business_name}`}>
                  Remove
                </a>
              </div>
            </BusinessItem>
          ))}
        </ul>
      ) : (
        <>
          <p class="empty">
            You are not in a crew yet. Accept an invitation, or find a business and ask to connect: once they accept, their open shifts show
            on Find shifts.
          </p>
          <p>
            <a class="button button-secondary" href="#find">
              Find a business
            </a>
          </p>
        </>
      )}
    </section>
  );
}

function SentRequests({ lists }: { lists: ConnectionLists }) {
  return (
    <section class="sf-section" id="sent" aria-labelledby="sent-heading">
      <h2 id="sent-heading">Requests you sent</h2>
      {lists.outgoing.length ? (
        <ul class="sc-list">
          {lists.outgoing.map((x) => (
            <BusinessItem name={x.business_name} slug={x.business_slug}>
              <p class="muted">{`Asked on ${dayOf(x.updated_at)} · waiting for their answer`}</p>
              <div class="sc-actions">
                <a class="button button-secondary" href={connectionAction(x.id, 'remove')} aria-label={`Withdraw: ${x.business_name}`}>
                  Withdraw
                </a>
              </div>
            </BusinessItem>
          ))}
        </ul>
      ) : (
        <p class="empty">No request waiting for a business's answer. Find a business below to ask one.</p>
      )}
    </section>
  );
}

function ConnectionsView(p: {
  base: DashboardBase;
  lists: ConnectionLists;
  finder: FinderState;
  extra: PageExtra;
  notice?: string | undefined;
}) {
  const { base, lists, finder, extra } = p;
  // A refused ask about a business the results do not show (an altered form) is said above the page.
  const askShown = extra.askRefusal && finder.result?.data.some((b) => b.id === extra.askRefusal!.businessId);
  const error = extra.error ?? (extra.askRefusal && !askShown ? extra.askRefusal.message : undefined);
  return (
    <AppShell base={base} side="shifter" current={CONNECTIONS} title="Businesses" notice={p.notice} error={error}>
      <p class="muted">
        Businesses send their open shifts to their crew. Answer their invitations, see the crews you are in, and find more.
      </p>
      <Invitations base={base} lists={lists} refused={extra.refused} />
      <MyBusinesses lists={lists} />
      <SentRequests lists={lists} />
      <FinderSection base={base} state={finder} standings={standingsOf(lists)} askRefusal={askShown ? extra.askRefusal : undefined} />
    </AppShell>
  );
}

/** GET /dashboard/shifter/connections (and the page again after a refused form, with its words). */
export async function renderConnections(c: Context<AppEnv>, extra: PageExtra = {}): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const query = extra.query === undefined ? finderQueryOf(c) : extra.query;
  const [lists, finder] = await Promise.all([listConnections(serviceCtx(c), { as: 'shifter' }), findBusinesses(c, query)]);
  const notice = extra.error || extra.refused || extra.askRefusal ? undefined : noticeOf(c, NOTICES);
  return renderPage(
    c,
    <ConnectionsView base={base} lists={lists} finder={finder} extra={extra} notice={notice} />,
    extra.status ?? finder.status ?? 200,
  );
}
