import { z } from '@hono/zod-openapi';
import type { GrantSummary, OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { AppError } from '../../lib/errors';
import { auditInsert, requirePerson, type ServiceContext } from '../kernel';

/**
 * The apps a person connected to the agent tool server: the OAuth grants of their user id, as the
 * provider keeps them (OAUTH_KV), listed and revoked through the provider's own helpers, which the caller passes in (the tool server's
 * OAuth wiring builds them: mcp/oauth.ts `grantHelpers`). Revoking a
 * grant deletes it with every access and refresh token issued under it, so the app's next call is 401.
 */

/** Grant ids are the provider's random strings (16 characters of A-Z a-z 0-9 - _). */
export const GRANT_ID_MAX_LENGTH = 64;
export const grantIdSchema = z
  .string()
  .min(1)
  .max(GRANT_ID_MAX_LENGTH)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a grant id');

/** At most this many grants are listed (a person connects a handful of apps). */
export const MAX_LISTED_GRANTS = 200;
const PAGE = 100;

export const agentGrantSchema = z
  .object({
    id: z.string().openapi({ description: 'The grant id (use it to revoke).' }),
    client_id: z.string().openapi({ description: "The app's client id (a metadata document URL for apps that publish one)." }),
    client_name: z.string().nullable().openapi({ description: 'The name the app registered under, when it gave one.' }),
    scopes: z.array(z.string()).openapi({ description: 'What the person granted: read, write, payment.' }),
    created_at: z.string().openapi({ description: 'When the person approved it (ISO 8601).' }),
  })
  .openapi('AgentGrant');

export const agentGrantListSchema = z.object({ data: z.array(agentGrantSchema) }).openapi('AgentGrantList');
export const agentGrantRevokedSchema = z.object({ id: z.string(), status: z.literal('revoked') }).openapi('AgentGrantRevoked');

export type AgentGrant = z.infer<typeof agentGrantSchema>;

async function ownGrants(oauth: OAuthHelpers, userId: string, cap = Number.POSITIVE_INFINITY): Promise<GrantSummary[]> {
  const out: GrantSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(userId, cursor ? { limit: PAGE, cursor } : { limit: PAGE });
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor && out.length < cap);
  return out;
}

/** One grant of a user as the provider keeps it, or null when it is gone. */
export async function grantOf(oauth: OAuthHelpers, userId: string, grantId: string): Promise<GrantSummary | null> {
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(userId, cursor ? { limit: PAGE, cursor } : { limit: PAGE });
    const found = page.items.find((g) => g.id === grantId && g.userId === userId);
    if (found) return found;
    cursor = page.cursor;
  } while (cursor);
  return null;
}

async function clientName(oauth: OAuthHelpers, clientId: string): Promise<string | null> {
  try {
    const client = await oauth.lookupClient(clientId);
    return client?.clientName?.trim() || null;
  } catch {
    // A metadata-document client whose document cannot be read now: listed by its id alone.
    return null;
  }
}

/** The caller's grants, newest first. */
export async function listAgentGrants(ctx: ServiceContext, oauth: OAuthHelpers): Promise<{ data: AgentGrant[] }> {
  const actor = requirePerson(ctx);
  const grants = (await ownGrants(oauth, actor.userId, MAX_LISTED_GRANTS))
    .filter((g) => g.userId === actor.userId)
    .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id))
    .slice(0, MAX_LISTED_GRANTS);
  const names = new Map<string, string | null>();
  await Promise.all(
    [...new Set(grants.map((g) => g.clientId))].map(async (id) => {
      names.set(id, await clientName(oauth, id));
    }),
  );
  return {
    data: grants.map((g) => ({
      id: g.id,
      client_id: g.clientId,
      client_name: names.get(g.clientId) ?? null,
      scopes: [...g.scope],
      created_at: new Date(g.createdAt * 1000).toISOString(),
    })),
  };
}

/**
 * Revokes one of the caller's grants with all its tokens. The provider's keys are per user, so only the
 * caller's own grant can be reached; one that is not theirs (or no longer exists) is 404.
 */
export async function revokeAgentGrant(
  ctx: ServiceContext,
  oauth: OAuthHelpers,
  grantId: string,
): Promise<{ id: string; status: 'revoked' }> {
  const actor = requirePerson(ctx);
  const grant = (await ownGrants(oauth, actor.userId)).find((g) => g.id === grantId && g.userId === actor.userId);
  if (!grant) throw new AppError('AGENT-GRANT-NOT-FND-ERR');
  await oauth.revokeGrant(grant.id, actor.userId);
  await auditInsert(ctx, 'agent_grant.revoke', { type: 'agent_grant', id: grant.id }, { client_id: grant.clientId.slice(0, 200) });
  return { id: grant.id, status: 'revoked' };
}
