// Inviting someone to the crew by email or phone from the crew page (/dashboard/crew/invite-address),
// and withdrawing an invitation after a confirmation (/dashboard/crew/crew-invites/:id/withdraw).
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { type CrewInviteView, INVITE_NAME_MAX, inviteToCrew, listCrewInvites, withdrawCrewInvite } from '@/services/connections';
import { formFields } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { appOrigin } from '@/web/urls';
import { ConfirmPage } from '@/web/features/dashboard/confirm-page';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { refusalOf } from '@/web/features/dashboard/refusals';
import { loadCrew } from './crew-data';
import { CREW } from './crew-format';
import { CrewView } from './crew-view';

/** POST /dashboard/crew/invite-address: an email address or a mobile number, and an optional name. */
export async function postInviteAddress(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const field = await formFields(c);
  const address = field('address', 300).trim();
  const name = field('name', 300);
  const isEmail = address.includes('@');
  try {
    const sent = await inviteToCrew(
      serviceCtx(c),
      {
        business_id: base.business.id,
        email: isEmail ? address : null,
        phone: isEmail ? null : address,
        name: name.trim() ? name.slice(0, INVITE_NAME_MAX) : null,
      },
      appOrigin(c),
    );
    const notice = sent.sent_as === 'connection_request' ? 'invited' : isEmail ? 'invite_emailed' : 'invite_texted';
    return c.redirect(dashboardHref(base, CREW, { notice }), 303);
  } catch (err) {
    const r = refusalOf(err, ['email', 'phone', 'name'] as const, { 'CONNECTION-EXISTS-ERR': 'email' });
    if (err instanceof AppError && err.code === 'RATE-LIMIT-ERR') {
      const retryAfter = err.headers?.['Retry-After'];
      if (retryAfter) c.header('Retry-After', retryAfter);
    }
    const errors = { address: r.errors.email ?? r.errors.phone ?? (r.errors.name ? undefined : r.message), name: r.errors.name };
    return renderPage(
      c,
      <CrewView
        base={base}
        data={await loadCrew(c, base)}
        error="The invitation was not sent: see the message below."
        address={{ address, name, errors }}
      />,
      r.status,
    );
  }
}

async function inviteOf(c: Context<AppEnv>, base: DashboardBase): Promise<CrewInviteView | null> {
  const id = c.req.param('id') ?? '';
  return (await listCrewInvites(serviceCtx(c), base.business!.id)).data.find((x) => x.id === id) ?? null;
}

const inviteGone = (c: Context<AppEnv>) =>
  renderError(c, 404, 'Not found', 'This invitation was used, withdrawn or sent again, or it belongs to another business.');

export async function renderWithdrawCrewInvite(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const x = await inviteOf(c, base);
  if (!x) return inviteGone(c);
  const who = x.name ? `${x.name} (${x.address})` : x.address;
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Withdraw an invitation"
      current={CREW}
      action={`${CREW}/crew-invites/${encodeURIComponent(x.id)}/withdraw`}
      button="Withdraw the invitation"
      variant="danger"
      back={CREW}
    >
      <p>{`Withdraw the invitation to ${who}? Its link stops working at once; you may invite them again later.`}</p>
    </ConfirmPage>,
  );
}

export async function postWithdrawCrewInvite(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const x = await inviteOf(c, base);
  if (!x) return inviteGone(c);
  try {
    await withdrawCrewInvite(serviceCtx(c), x.id);
  } catch (err) {
    const r = refusalOf(err, []);
    return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} error={r.message} />, r.status);
  }
  return c.redirect(dashboardHref(base, CREW, { notice: 'invite_withdrawn' }), 303);
}
