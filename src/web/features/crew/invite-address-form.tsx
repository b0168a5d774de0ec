// The crew page's invite-by-email-or-phone form and the invitations waiting for someone to join.
import type { CrewInviteView } from '@/services/connections';
import { INVITE_NAME_MAX } from '@/services/connections';
import { Card, CsrfField, IdempotencyField, SubmitButton, TextField } from '@/web/components';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { CREW, dayOf } from './crew-format';

/** What the form keeps of a refused send: what was typed and the message beside its field. */
export interface AddressFormState {
  address: string;
  name: string;
  errors: { address?: string | undefined; name?: string | undefined };
}

export function InviteAddressForm({ base, state }: { base: DashboardBase; state?: AddressFormState | undefined }) {
  const errors = state?.errors ?? {};
  return (
    <form method="post" action={dashboardHref(base, `${CREW}/invite-address`)} id="invite-address" class="crew-invite-form">
      <CsrfField token={base.csrfToken} />
      <IdempotencyField />
      <TextField
        label="Their email address or mobile number"
        name="address"
        type="text"
        autocomplete="off"
        value={state?.address}
        maxLength={254}
        required
        hint="A mobile number with its country code, like +1 212 555 0100. They get a link to join (it works once, for 14 days); someone on Shiftmarket with this email gets your connection request instead."
        error={errors.address}
        autofocus={Boolean(errors.address)}
      />
      <TextField
        label="Their name (optional)"
        name="name"
        autocomplete="off"
        value={state?.name}
        maxLength={INVITE_NAME_MAX}
        hint="Only you and they see it: it greets them in the message and names the invitation below."
        error={errors.name}
        autofocus={Boolean(errors.name) && !errors.address}
      />
      <SubmitButton variant="secondary">Send the invitation</SubmitButton>
    </form>
  );
}

const channelWords = (x: CrewInviteView) => (x.channel === 'sms' ? 'Text' : 'Email');

/** The invitations waiting for someone to join, each with Withdraw; expired ones marked. */
export function CrewInvitesCard({ base, invites }: { base: DashboardBase; invites: CrewInviteView[] }) {
  const tz = base.business!.timezone;
  return (
    <Card title={`Invitations waiting (${invites.filter((x) => x.status === 'pending').length})`}>
      {invites.length ? (
        <ul class="list-plain crew-invites">
          {invites.map((x) => {
            const who = x.name ? `${x.name} (${x.address})` : x.address;
            return (
              <li class="row-split">
                <span>
                  <strong>{x.name ?? x.address}</strong>
                  {x.name ? <span class="muted">{` ${x.address}`}</span> : null} <span class="badge">{channelWords(x)}</span>{' '}
                  {x.status === 'expired' ? <span class="badge badge-warn">Expired</span> : null}
                  <br />
                  <span class="muted">
                    {`Sent ${dayOf(x.created_at, tz)}${x.status === 'expired' ? `, expired ${dayOf(x.expires_at, tz)}` : `, the link works until ${dayOf(x.expires_at, tz)}`}`}
                  </span>
                </span>
                <a class="button button-secondary" href={dashboardHref(base, `${CREW}/crew-invites/${encodeURIComponent(x.id)}/withdraw`)}>
                  Withdraw<span class="visually-hidden">{` the invitation to ${who}`}</span>
                </a>
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="empty">No invitation is waiting. Invite someone by email or text above, or share your join link.</p>
      )}
    </Card>
  );
}
