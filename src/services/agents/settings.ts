import { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mcpUserSettings } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { requirePerson, type ServiceContext } from '../kernel';

/**
 * A person's settings for agents acting for them on the agent tool server (/v1/mcp/): whether write
 * tools ask for confirmation first (on by default; the tool server reads it, the person changes it
 * through the API or /account/agents).
 */
export async function confirmWritesFor(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ confirm: mcpUserSettings.confirm_writes })
    .from(mcpUserSettings)
    .where(eq(mcpUserSettings.user_id, userId))
    .limit(1);
  return row?.confirm ?? true;
}

export async function setConfirmWrites(db: Db, userId: string, confirm: boolean, now: number): Promise<void> {
  await db
    .insert(mcpUserSettings)
    .values({ user_id: userId, confirm_writes: confirm, updated_at: now })
    .onConflictDoUpdate({ target: mcpUserSettings.user_id, set: { confirm_writes: confirm, updated_at: now } });
}

export const agentSettingsSchema = z
  .object({
    confirm_writes: z.boolean().openapi({
      description: 'Write tools ask for confirmation before they run (default true). The payment tool always needs its confirm page.',
    }),
  })
  .openapi('AgentSettings');

export type AgentSettings = z.infer<typeof agentSettingsSchema>;

/** The caller's own agent settings (defaults when never changed). */
export async function getAgentSettings(ctx: ServiceContext): Promise<AgentSettings> {
  const person = requirePerson(ctx);
  return { confirm_writes: await confirmWritesFor(ctx.db, person.userId) };
}

/** Changes the caller's own agent settings. An agent cannot switch its own confirmations off. */
export async function updateAgentSettings(ctx: ServiceContext, input: AgentSettings): Promise<AgentSettings> {
  const person = requirePerson(ctx);
  if (person.kind === 'agent') throw new AppError('FORBIDDEN-ERR', 'Agents cannot change the settings that govern them.');
  await setConfirmWrites(ctx.db, person.userId, input.confirm_writes, ctx.now());
  return { confirm_writes: input.confirm_writes };
}
