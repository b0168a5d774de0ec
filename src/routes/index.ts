import { createRouter } from '../http/create-app';
import { adminRouter } from './admin/admin.index';
import { agentsRouter } from './agents/agents.index';
import { aiPassportsRouter } from './ai-passports/ai-passports.index';
import { deliverablesRouter } from './deliverables/deliverables.index';
import { assistantRouter } from './assistant/assistant.index';
import { authRouter } from './auth/auth.index';
import { businessRouter, paymentMethodsRouter } from './business/business.index';
import { connectionsRouter } from './connections/connections.index';
import { financeRouter } from './finance/finance.index';
import { goingRateRouter } from './going-rate/going-rate.index';
import { partnerRouter } from './partner/partner.index';
import { partnerWebhooksRouter } from './partner/webhooks.index';
import { reviewRouter } from './review/review.index';
import { helpRouter } from './help/help.index';
import { invoicesRouter } from './invoices/invoices.index';
import { messagingRouter } from './messaging/messaging.index';
import { notificationsRouter } from './notifications/notifications.index';
import { prepayRouter, shiftRequestsRouter } from './shift-requests/shift-requests.index';
import { shifterRecordsRouter } from './shifter/records.index';
import { shifterRouter } from './shifter/shifter.index';
import { scheduleRouter } from './schedule/schedule.index';
import { timesheetsRouter } from './timesheets/timesheets.index';
import { templatesRouter } from './templates/templates.index';
import { userRouter } from './user/user.index';
import { embedRouter } from '../web/embed';

/**
 * Every API router, one folder per URL prefix, mounted at the root (their paths carry /v1/). Chained
 * rather than looped so the type keeps every route: `AppType` (src/app.ts) types hono/client from it.
 */
export const apiRouter = createRouter()
  .route('/', authRouter)
  .route('/', userRouter)
  .route('/', agentsRouter)
  .route('/', embedRouter)
  .route('/', shifterRouter)
  .route('/', shifterRecordsRouter)
  .route('/', businessRouter)
  .route('/', adminRouter)
  .route('/', shiftRequestsRouter)
  .route('/', connectionsRouter)
  .route('/', messagingRouter)
  .route('/', templatesRouter)
  .route('/', scheduleRouter)
  .route('/', timesheetsRouter)
  .route('/', notificationsRouter)
  .route('/', goingRateRouter)
  .route('/', partnerRouter)
  .route('/', partnerWebhooksRouter)
  .route('/', reviewRouter)
  .route('/', assistantRouter)
  .route('/', helpRouter)
  // invoicesRouter ends with the invoice charge route; the payment-method and prepay routes stay right after it.
  .route('/', invoicesRouter)
  .route('/', paymentMethodsRouter)
  .route('/', prepayRouter)
  .route('/', financeRouter)
  .route('/', aiPassportsRouter)
  .route('/', deliverablesRouter);
