import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/client';
import { partnerBusinessLinks, partnerClients } from '../../db/schema';
import type { PartnerScope } from '../../db/schema/partners';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { decodeCursor, encodeCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { accessBusiness } from '../access';
import { committedSubject, existsIn, markedWrite, prepareWrite, type ServiceContext } from '../kernel';
import type { LinkInput, LinkList, PageQuery, PartnerLinkView, UpdateLinkInput } from './schemas';

/**
 * A business's consent to a partner client (spec 4.10): its owner (or an admin) links the client,
 * granting it some of the client's scopes for this business only; teammates may see the links.
 * Changing a link's scopes replaces what it grants (within the client's scopes); unlinking deletes the
 * link. Either way the partner's next request for the business sees the change.
 */

const linkColumns = {
  link: partnerBusinessLinks,
  clientName: partnerClients.name,
  clientTier: partnerClients.client_tier,
  clientStatus: partnerClients.status,
};
type LinkRead = {
  link: typeof partnerBusinessLinks.$inferSelect;
  clientName: string;
  clientTier: PartnerLinkView['client_tier'];
  clientStatus: PartnerLinkView['client_status'];
};

function linkView(r: LinkRead): PartnerLinkView {
  return {
    business_id: r.link.business_id,
    client_id: r.link.client_id,
    client_name: r.clientName,
    client_tier: r.clientTier,
    client_status: r.clientStatus,
    scopes: r.link.scopes,
    linked_by_user_id: r.link.linked_by_user_id,
    created_at: toIso(r.link.created_at),
  };
}

const selectLinks = (ctx: ServiceContext) =>
  ctx.db.select(linkColumns).from(partnerBusinessLinks).innerJoin(partnerClients, eq(partnerClients.id, partnerBusinessLinks.client_id));

async function readLink(ctx: ServiceContext, where: SQL): Promise<LinkRead | null> {
  const [r] = await selectLinks(ctx).where(where).limit(1);
  return r ?? null;
}

/** Refuses scopes the client itself does not have: a business grants only from what the client holds. */
function assertWithinClient(scopes: readonly PartnerScope[], clientScopes: readonly PartnerScope[]): void {
  const beyond = scopes.filter((s) => !clientScopes.includes(s));
  if (beyond.length) {
    const message = `the client does not have ${beyond.join(', ')}`;
    throw new AppError('VALIDATION-ERR', `scopes: ${message}`, [{ field: 'scopes', message }]);
  }
}

/** Links a partner client to the business (owner or admin). Already linked: 409 PARTNER-LINK-EXISTS-ERR. */
export async function linkPartnerClient(ctx: ServiceContext, businessId: string, input: LinkInput): Promise<PartnerLinkView> {
  const { business, actor } = await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const done = committedSubject(ctx, 'partner_link');
  const replayed = done ? await readLink(ctx, eq(partnerBusinessLinks.id, done)) : null;
  if (replayed) return linkView(replayed);

  const [client] = await ctx.db.select().from(partnerClients).where(eq(partnerClients.id, input.client_id)).limit(1);
  if (client?.status !== 'active') throw new AppError('PARTNER-CLIENT-NOT-FND-ERR');
  const scopes = input.scopes ?? client.scopes;
  assertWithinClient(scopes, client.scopes);
  const id = newId('partnerLink');
  try {
    await prepareWrite(ctx, { type: 'partner_link', id }).commit({
      guard: ctx.db.insert(partnerBusinessLinks).values({
        id,
        business_id: business.id,
        client_id: client.id,
        scopes,
        linked_by_user_id: actor.userId,
        created_at: ctx.now(),
      }),
      audit: { action: 'partner_link.create', data: { business_id: business.id, client_id: client.id, scopes } },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('PARTNER-LINK-EXISTS-ERR');
    throw err;
  }
  const read = await readLink(ctx, eq(partnerBusinessLinks.id, id));
  if (!read) throw new AppError('PARTNER-LINK-NOT-FND-ERR');
  return linkView(read);
}

/** The business's partner links (owner, active teammate or admin), oldest first. */
export async function listPartnerLinks(ctx: ServiceContext, businessId: string, q: PageQuery): Promise<LinkList> {
  const { business } = await accessBusiness(ctx, businessId);
  const conds: SQL[] = [eq(partnerBusinessLinks.business_id, business.id)];
  if (q.cursor)
    conds.push(
      gt(
        partnerBusinessLinks.id,
        decodeCursor(q.cursor, (v): v is string => typeof v === 'string'),
      ),
    );
  const rows = await selectLinks(ctx)
    .where(and(...conds))
    .orderBy(asc(partnerBusinessLinks.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { data: page.map(linkView), next_cursor: rows.length > q.limit && last ? encodeCursor(last.link.id) : null };
}

/**
 * Replaces the scopes a link grants (owner or admin; teammates only see links). The new scopes must
 * be the client's own. Written only if the link still grants what was read, so two owners changing
 * it at once cannot interleave: the later one is a 409 and tries again on what is there now.
 */
export async function updatePartnerLink(
  ctx: ServiceContext,
  businessId: string,
  clientId: string,
  input: UpdateLinkInput,
): Promise<PartnerLinkView> {
  const { business } = await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const pair = and(eq(partnerBusinessLinks.business_id, business.id), eq(partnerBusinessLinks.client_id, clientId))!;
  const read = await readLink(ctx, pair);
  if (!read) throw new AppError('PARTNER-LINK-NOT-FND-ERR');
  const [client] = await ctx.db
    .select({ scopes: partnerClients.scopes })
    .from(partnerClients)
    .where(eq(partnerClients.id, clientId))
    .limit(1);
  assertWithinClient(input.scopes, client?.scopes ?? []);
  const id = read.link.id;
  const applied = await markedWrite(
    ctx,
    { type: 'partner_link', id },
    {
      precondition: existsIn(
        partnerBusinessLinks,
        and(eq(partnerBusinessLinks.id, id), eq(partnerBusinessLinks.scopes, read.link.scopes))!,
      ),
      change: (ok) =>
        ctx.db
          .update(partnerBusinessLinks)
          .set({ scopes: input.scopes })
          .where(and(eq(partnerBusinessLinks.id, id), ok)),
      audit: {
        action: 'partner_link.update',
        data: { business_id: business.id, client_id: clientId, scopes: input.scopes, previous_scopes: read.link.scopes },
      },
    },
  );
  const now = await readLink(ctx, eq(partnerBusinessLinks.id, id));
  if (!now) throw new AppError('PARTNER-LINK-NOT-FND-ERR');
  if (!applied) throw new AppError('CONFLICT-ERR', 'The link changed at the same moment; read it again and retry.');
  return linkView(now);
}

/** Unlinks a partner client (owner or admin): its access to the business ends with this answer. */
export async function unlinkPartnerClient(ctx: ServiceContext, businessId: string, clientId: string): Promise<PartnerLinkView> {
  const { business } = await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const read = await readLink(ctx, and(eq(partnerBusinessLinks.business_id, business.id), eq(partnerBusinessLinks.client_id, clientId))!);
  if (!read) throw new AppError('PARTNER-LINK-NOT-FND-ERR');
  const applied = await markedWrite(
    ctx,
    { type: 'partner_link', id: read.link.id },
    {
      precondition: existsIn(partnerBusinessLinks, eq(partnerBusinessLinks.id, read.link.id)),
      change: (ok) => ctx.db.delete(partnerBusinessLinks).where(and(eq(partnerBusinessLinks.id, read.link.id), ok)),
      audit: { action: 'partner_link.delete', data: { business_id: business.id, client_id: clientId } },
    },
  );
  // A concurrent unlink took it first: the link is gone either way.
  if (!applied) throw new AppError('PARTNER-LINK-NOT-FND-ERR');
  return linkView(read);
}
