import { createApp } from './app';
// Without STRIPE_SECRET_KEY, the local payment simulator stands in for Stripe; loading it registers it.
import './local/payment-simulator';
import type { AppBindings } from './env';
import { handleScheduled } from './jobs/scheduled';
import { withOAuth } from './mcp/oauth';
import { handleQueue } from './queues/consumer';

export { BusinessLive } from './durable-objects/business-live';
export { ClaimLock } from './durable-objects/claim-lock';
export { ConversationThread } from './durable-objects/conversation-thread';
export { RateLimiter } from './durable-objects/rate-limiter';

const app = createApp();

export default {
  // The OAuth provider wraps the app: it answers the OAuth endpoints and guards /v1/mcp/ (mcp/oauth.ts);
  // every other request reaches the app as it is.
  fetch: withOAuth({ fetch: app.fetch }),
  queue: handleQueue,
  scheduled: async (controller, env, ctx) => {
    await handleScheduled(controller, env, ctx);
  },
} satisfies ExportedHandler<AppBindings>;
