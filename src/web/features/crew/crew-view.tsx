// The crew page itself (GET /dashboard/crew): its notices and the view every crew form renders again
// when it is refused.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { Card } from '@/web/components';
import { renderPage } from '@/web/render';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { noticeOf } from '@/web/features/dashboard/refusals';
import { LiveRegion } from '@/web/features/dashboard/live-region';
import { AppShell } from '@/web/features/dashboard/shell';
import { type CrewData, loadCrew } from './crew-data';
import { CREW } from './crew-format';
import type { ShifterSearchResult } from '@/services/profiles';
import { CrewTable, InviteShifterForm, Requests, Summary } from './crew-sections';
import { type AddressFormState, CrewInvitesCard, InviteAddressForm } from './invite-address-form';
import { JoinLinkCard } from './join-link-card';
import { ShifterResults } from './shifter-results';
import { TeamCard } from './team-card';

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
  invite_emailed: 'The invitation was emailed. They join your crew with its link, once, within 14 days.',
  invite_texted: 'The invitation was sent by text message. They join your crew with its link, once, within 14 days.',
  invite_withdrawn: 'The invitation was withdrawn: its link no longer works.',
  link_made: 'Your crew has a join link now: print the poster or share the link.',
  link_replaced: 'The join link was replaced: the old one no longer works. Print the new poster.',
} as const;

interface CrewViewProps {
  base: DashboardBase;
  data: CrewData;
  notice?: string | undefined;
  error?: string | undefined;
  shifter?: { value: string; error?: string | undefined };
  /** The shifters whose name matched what was typed in the invite field. */
  found?: ShifterSearchResult | undefined;
  /** The invite-by-email-or-phone form as it was refused. */
  address?: AddressFormState | undefined;
  teammate?: { email: string; error?: string | undefined };
}

export function CrewView({ base, data, notice, error, shifter, found, address, teammate }: CrewViewProps) {
  // The requests, the invitations waiting and the crew are brought up to date without a reload (the `live` island).
  const src = dashboardHref(base, CREW);
  return (
    <AppShell base={base} title="Crew" current={CREW} notice={notice} error={error}>
      <Card title="Invite a shifter">
        <InviteShifterForm base={base} value={shifter?.value} error={shifter?.error} />
        {found ? <ShifterResults base={base} data={data} found={found} /> : null}
        <h3 id="invite-address-head">Not on Shiftmarket yet? Invite them by email or text</h3>
        <InviteAddressForm base={base} state={address} />
      </Card>
      <LiveRegion id="crew-requests" on={['connections']} src={src} label="Connection requests">
        <Requests base={base} data={data} />
      </LiveRegion>
      <div class="grid">
        <LiveRegion id="crew-invites" on={['connections']} src={src} label="Invitations waiting">
          <CrewInvitesCard base={base} invites={data.crewInvites} />
        </LiveRegion>
        <JoinLinkCard base={base} link={data.joinLink} />
      </div>
      <LiveRegion id="crew-members" on={['connections']} src={src} label="Your crew">
        <section class="card" aria-labelledby="crew-head">
          <h2 id="crew-head">{`Your crew, last ${data.analytics.window_days} days`}</h2>
          <Summary a={data.analytics} />
          <CrewTable base={base} data={data} />
          {seesPay(base.business?.role) ? null : <p class="aside">Pay figures are shown to the business owner.</p>}
        </section>
      </LiveRegion>
      <TeamCard base={base} data={data} email={teammate?.email} emailError={teammate?.error} />
    </AppShell>
  );
}

export async function renderCrew(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  return renderPage(c, <CrewView base={base} data={await loadCrew(c, base)} notice={noticeOf(c, NOTICES)} />);
}
