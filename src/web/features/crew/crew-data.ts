// What the crew page shows, loaded at once: connections, crew analytics, ratings, teammates, (for the
// owner) the teammate invitations, the crew invitations waiting and the crew's join link.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { type InvitationView, listBusinessInvitations, listTeammates, type TeammateView } from '@/services/businesses';
import {
  type ConnectionLists,
  type CrewInviteView,
  getJoinLink,
  type JoinLinkView,
  listConnections,
  listCrewInvites,
} from '@/services/connections';
import { type CrewAnalytics, crewAnalytics } from '@/services/insights';
import { type Rating, ratingsFor } from '@/services/reviews';
import type { DashboardBase } from '@/web/features/dashboard/context';
import { appOrigin } from '@/web/urls';
import { managesTeam } from './crew-format';

export interface CrewData {
  connections: ConnectionLists;
  analytics: CrewAnalytics;
  ratings: Map<string, Rating>;
  team: TeammateView[];
  invitations: InvitationView[] | null;
  crewInvites: CrewInviteView[];
  joinLink: JoinLinkView | null;
}

export async function loadCrew(c: Context<AppEnv>, base: DashboardBase): Promise<CrewData> {
  const ctx = serviceCtx(c);
  const id = base.business!.id;
  const [connections, analytics, team, invitations, crewInvites, joinLink] = await Promise.all([
    listConnections(ctx, { business_id: id }),
    crewAnalytics(ctx, id),
    listTeammates(ctx, id),
    managesTeam(base) ? listBusinessInvitations(ctx, id).then((r) => r.data) : Promise.resolve(null),
    listCrewInvites(ctx, id).then((r) => r.data),
    getJoinLink(ctx, id, appOrigin(c)).then((r) => r.link),
  ]);
  const people = [...connections.accepted, ...connections.incoming, ...connections.outgoing];
  const ratings = await ratingsFor(
    ctx,
    people.map((p) => ({ kind: 'shifter' as const, id: p.shifter_id })),
  );
  return { connections, analytics, ratings, team: team.data, invitations, crewInvites, joinLink };
}

export const ratingOf = (data: CrewData, shifterId: string) => data.ratings.get(`shifter:${shifterId}`);
