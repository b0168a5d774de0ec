import type { Db } from '../../db/client';
import { mcpAudit } from '../../db/schema';
import { newId } from '../../lib/ids';

/**
 * One call on the agent tool server, as its audit log (`mcp_audit`, spec 4.9 rule 8) keeps it. The
 * tool server's wrapper (mcp/audit.ts) redacts and bounds the arguments before they come here.
 */
export interface ToolCallRecord {
  tokenId: string;
  userId: string;
  toolName: string;
  /** JSON, secrets already redacted. */
  arguments: string;
  /** `ok`, `denied`, or the error code the call answered with. */
  status: string;
  latencyMs: number;
  at: number;
}

/** Writes one audit row of a tool call; a failure is thrown, for the caller to log. */
export async function recordToolCall(db: Db, r: ToolCallRecord): Promise<void> {
  await db.batch([
    db.insert(mcpAudit).values({
      id: newId('mcpAudit'),
      token_id: r.tokenId,
      user_id: r.userId,
      tool_name: r.toolName,
      arguments: r.arguments,
      status: r.status,
      latency_ms: Math.max(0, Math.round(r.latencyMs)),
      created_at: r.at,
    }),
  ]);
}
