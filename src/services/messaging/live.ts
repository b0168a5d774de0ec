import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../kernel';
import { readerOf } from './messages';
import { threadStub } from './thread-store';
import { loadThread } from './threads';

/**
 * Opens the live view of a thread (a WebSocket to its Durable Object, see
 * durable-objects/conversation-thread.ts) for a reader of it: a participant, or an admin over the
 * person an escalated support thread helps. `request` is the page's upgrade request; the caller has
 * checked that it comes from the application's own pages (its Origin).
 */
export async function openLiveThread(ctx: ServiceContext, conversationId: string, request: Request): Promise<Response> {
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
    throw new AppError('VALIDATION-ERR', 'The live view of a thread is a WebSocket.');
  }
  const t = await loadThread(ctx, conversationId);
  await readerOf(ctx, t);
  return threadStub(ctx, conversationId).fetch(request);
}
