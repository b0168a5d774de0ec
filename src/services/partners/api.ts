import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { businesses, partnerBusinessLinks, requestAuthorizations, shifters } from '../../db/schema';
import { decodeCursor, encodeCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { partnerActor, partnerBusiness } from '../access';
import type { ServiceContext } from '../kernel';
import { listBroadcasts, listRequests, type PostedShift, sendRequestWithWarnings, type ShiftList } from '../shifts';
import type {
  PageQuery,
  PartnerBroadcastsQuery,
  PartnerBusinessList,
  PartnerShifterList,
  PartnerShiftInput,
  PartnerShiftsQuery,
} from './schemas';

/**
 * What a partner client does for the businesses linked to it. Each call goes through
 * `partnerBusiness` (services/access/partner.ts): no link, 404; a scope the credential or the link
 * lacks, 403 SCOPE-ERR. Shifts are read and posted by the same services the REST API uses, with the
 * partner as actor, so every posting rule is the business's own.
 */

const isId = (v: unknown): v is string => typeof v === 'string';

/** The businesses linked to the calling client, with what each granted; oldest link first. */
export async function listLinkedBusinesses(ctx: ServiceContext, q: PageQuery): Promise<PartnerBusinessList> {
  const actor = partnerActor(ctx);
  const conds: SQL[] = [eq(partnerBusinessLinks.client_id, actor.partnerId)];
  if (q.cursor) conds.push(gt(partnerBusinessLinks.id, decodeCursor(q.cursor, isId)));
  const rows = await ctx.db
    .select({ business: businesses, link: partnerBusinessLinks })
    .from(partnerBusinessLinks)
    .innerJoin(businesses, eq(businesses.id, partnerBusinessLinks.business_id))
    .where(and(...conds))
    .orderBy(asc(partnerBusinessLinks.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(({ business: b, link }) => ({
      id: b.id,
      name: b.name,
      slug: b.slug,
      timezone: b.timezone,
      currency: b.currency,
      scopes: link.scopes,
      linked_at: toIso(link.created_at),
    })),
    next_cursor: rows.length > q.limit && last ? encodeCursor(last.link.id) : null,
  };
}

/** A linked business's shift requests, newest first (shifts:read): the REST list, seen from the business side. */
export async function listPartnerShifts(ctx: ServiceContext, businessId: string, q: PartnerShiftsQuery): Promise<ShiftList> {
  const { business } = await partnerBusiness(ctx, businessId, 'shifts:read');
  return listRequests(ctx, {
    as: 'business',
    business_id: business.id,
    shifter_id: q.shifter_id,
    status: q.status,
    shiftrole_id: q.shiftrole_id,
    date_from: q.date_from,
    date_to: q.date_to,
    is_broadcast: q.is_broadcast,
    limit: q.limit,
    cursor: q.cursor,
  });
}

/** A linked business's open broadcasts, newest first (shifts:read). */
export async function listPartnerBroadcasts(ctx: ServiceContext, businessId: string, q: PartnerBroadcastsQuery): Promise<ShiftList> {
  const { business } = await partnerBusiness(ctx, businessId, 'shifts:read');
  return listBroadcasts(ctx, {
    sort_by_relevance: false,
    business_id: business.id,
    shift_date: q.shift_date,
    date_from: q.date_from,
    date_to: q.date_to,
    shiftrole_id: q.shiftrole_id,
    limit: q.limit,
    cursor: q.cursor,
  });
}

/**
 * Posts one shift for a linked business (shifts:write), targeted or broadcast, through send_request's
 * service: the same checks (role, rate, currency, window, crew, paused shifters), notifications and
 * partner events, and the same `warnings` (shifter_busy, empty_crew; services/shifts/warnings.ts),
 * the overlapping shifts shown in full only with shifts:read. The row's created_by_user_id is null
 * (no person posted it); its audit row names the partner client.
 */
export async function postPartnerShift(ctx: ServiceContext, businessId: string, input: PartnerShiftInput): Promise<PostedShift> {
  return sendRequestWithWarnings(ctx, { ...input, business_id: businessId });
}

/** A linked business's crew (shifters:read): shifters with an accepted connection, in a stable order. */
export async function listPartnerShifters(ctx: ServiceContext, businessId: string, q: PageQuery): Promise<PartnerShifterList> {
  const { business } = await partnerBusiness(ctx, businessId, 'shifters:read');
  const conds: SQL[] = [eq(requestAuthorizations.business_id, business.id), eq(requestAuthorizations.status, 'accepted')];
  if (q.cursor) conds.push(gt(requestAuthorizations.id, decodeCursor(q.cursor, isId)));
  const rows = await ctx.db
    .select({ connection: requestAuthorizations, shifter: shifters })
    .from(requestAuthorizations)
    .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
    .where(and(...conds))
    .orderBy(asc(requestAuthorizations.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(({ connection, shifter }) => ({
      shifter_id: shifter.id,
      display_name: shifter.display_name,
      slug: shifter.slug,
      headline: shifter.headline,
      accepts_requests: shifter.accept_shift_req ? 1 : 0,
      connected_at: toIso(connection.responded_at ?? connection.created_at),
    })),
    next_cursor: rows.length > q.limit && last ? encodeCursor(last.connection.id) : null,
  };
}
