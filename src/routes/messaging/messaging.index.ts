import { createRouter, serviceCtx } from '../../http/create-app';
import { AppError } from '../../lib/errors';
import {
  changeThread,
  getThread,
  joinSupportThread,
  listInbox,
  listMessages,
  listSupportQueue,
  lookupThread,
  MESSAGE_BODY_MAX,
  sendMessage,
} from '../../services/messaging';
import * as routes from './messaging.routes';

const router = createRouter();

// One service call per handler.
export const messagingRouter = router
  .openapi(routes.inbox, async (c) => c.json(await listInbox(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.lookup, async (c) => c.json(await lookupThread(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(
    routes.send,
    async (c) => c.json(await sendMessage(serviceCtx(c), c.req.valid('json')), 201),
    // A `body` field that is missing, not a string or too long is MSG-BODY-ERR (spec 7); anything else fails as usual.
    (result, c) => {
      if (!result.success && result.target === 'json' && result.error.issues.some((i) => i.path[0] === 'body')) {
        throw new AppError(
          'MSG-BODY-ERR',
          `The message body must be a string of at most ${MESSAGE_BODY_MAX} characters, not empty once trimmed.`,
        );
      }
      return router.defaultHook?.(result, c);
    },
  )
  .openapi(routes.getThread, async (c) => c.json(await getThread(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200))
  .openapi(routes.messages, async (c) => {
    const q = c.req.valid('query');
    return c.json(await listMessages(serviceCtx(c), c.req.valid('param').id, q.cursor, { limit: q.limit, order: q.order }), 200);
  })
  .openapi(routes.read, async (c) => c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'read', c.req.valid('json')), 200))
  .openapi(routes.pin, async (c) => c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'pin', c.req.valid('json')), 200))
  .openapi(routes.unpin, async (c) => c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'unpin', c.req.valid('json')), 200))
  .openapi(routes.archive, async (c) =>
    c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'archive', c.req.valid('json')), 200),
  )
  .openapi(routes.unarchive, async (c) =>
    c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'unarchive', c.req.valid('json')), 200),
  )
  .openapi(routes.accept, async (c) =>
    c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'accept', c.req.valid('json')), 200),
  )
  .openapi(routes.block, async (c) => c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'block', c.req.valid('json')), 200))
  .openapi(routes.unblock, async (c) =>
    c.json(await changeThread(serviceCtx(c), c.req.valid('param').id, 'unblock', c.req.valid('json')), 200),
  )
  .openapi(routes.join, async (c) => c.json(await joinSupportThread(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.supportQueue, async (c) => c.json(await listSupportQueue(serviceCtx(c), c.req.valid('query')), 200));
