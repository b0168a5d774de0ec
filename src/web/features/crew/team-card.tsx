// The crew page's Teammates card: the team and their state, suspend and reactivate, the waiting
// invitations and the invite-by-email form (the changes for the owner only).
import { Card, CsrfField, IdempotencyField, SubmitButton, TextField } from '@/web/components';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import type { CrewData } from './crew-data';
import { CREW, dayOf, managesTeam } from './crew-format';

export function TeamCard({
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
