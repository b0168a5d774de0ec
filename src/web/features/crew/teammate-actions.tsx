// The team's actions from the crew page (/dashboard/crew/teammates/…, /dashboard/crew/invitations/…):
// invite a teammate by email, suspend or reactivate one, withdraw an invitation.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import {
  inviteTeammate,
  inviteTeammateInput,
  listBusinessInvitations,
  listTeammates,
  revokeInvitation,
  setTeammateStatus,
  type TeammateView,
} from '@/services/businesses';
import { renderError, renderPage } from '@/web/render';
import { ConfirmPage } from '@/web/features/dashboard/confirm-page';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { refusalOf } from '@/web/features/dashboard/refusals';
import { loadCrew } from './crew-data';
import { CREW, managesTeam } from './crew-format';
import { CrewView } from './crew-view';

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
