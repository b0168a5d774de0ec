import { and, desc, eq, inArray } from 'drizzle-orm';
import { conversations } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { requirePerson, type ServiceContext } from '../kernel';

/** A help conversation of the caller's, as the help center lists it. */
export interface HelpConversation {
  id: string;
  kind: 'support_ai' | 'support';
  subject: string | null;
  created_at: string;
  escalated_at: string | null;
  last_message_at: string | null;
}

const HELP_KINDS = ['support_ai', 'support'] as const;

function view(r: typeof conversations.$inferSelect): HelpConversation {
  return {
    id: r.id,
    kind: r.kind === 'support' ? 'support' : 'support_ai',
    subject: r.subject,
    created_at: toIso(r.created_at),
    escalated_at: toIso(r.escalated_at),
    last_message_at: toIso(r.last_message_at),
  };
}

/** The caller's help conversations (with the help assistant, or escalated to the support team), newest first. */
export async function listHelpConversations(ctx: ServiceContext, limit = 10): Promise<HelpConversation[]> {
  const actor = requirePerson(ctx);
  const rows = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.owner_user_id, actor.userId), inArray(conversations.kind, [...HELP_KINDS])))
    .orderBy(desc(conversations.created_at), desc(conversations.id))
    .limit(limit);
  return rows.map(view);
}

/** One help conversation of the caller's; another person's, a direct thread or an unknown id is MSG-NOT-FND-ERR. */
export async function getHelpConversation(ctx: ServiceContext, id: string): Promise<HelpConversation> {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  if (!row || row.kind === 'direct' || row.owner_user_id !== actor.userId) {
    throw new AppError('MSG-NOT-FND-ERR', 'No such help conversation of yours.');
  }
  return view(row);
}
