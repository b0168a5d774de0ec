// A shifter's page in the crew (/dashboard/crew/shifters/:shifterId): their public details, the
// credentials they share (with the document download) and their figures at the business.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { storedFileHeaders } from '@/lib/downloads';
import { AppError } from '@/lib/errors';
import { listConnections } from '@/services/connections';
import { crewAnalytics } from '@/services/insights';
import { findPublicShifter } from '@/services/profiles';
import { type CredentialView, listCredentials, readCredentialDocument } from '@/services/shifter-records';
import { Card } from '@/web/components';
import { formatMoney } from '@/web/format';
import { renderError, renderPage } from '@/web/render';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { AppShell } from '@/web/features/dashboard/shell';
import { CREW, longDate, shifterPath } from './crew-format';
import { ShifterFacts } from './shifter-facts';

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
