// What the crew page shows, loaded at once: connections, crew analytics, ratings, teammates and
// (for the owner) the teammate invitations.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { type InvitationView, listBusinessInvitations, listTeammates, type TeammateView } from '@/services/businesses';
import { type ConnectionLists, listConnections } from '@/services/connections';
import { type CrewAnalytics, crewAnalytics } from '@/services/insights';
import { type Rating, ratingsFor } from '@/services/reviews';
import type { DashboardBase } from '@/web/features/dashboard/context';
import { managesTeam } from './crew-format';

export interface CrewData {
  connections: ConnectionLists;
  analytics: CrewAnalytics;
  ratings: Map<string, Rating>;
  team: TeammateView[];
  invitations: InvitationView[] | null;
}

export async function loadCrew(c: Context<AppEnv>, base: DashboardBase): Promise<CrewData> {
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

export const ratingOf = (data: CrewData, shifterId: string) => data.ratings.get(`shifter:${shifterId}`);
