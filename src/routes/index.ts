import { adminRouter } from './admin/admin.index';
import { authRouter } from './auth/auth.index';
import { businessRouter } from './business/business.index';
import { connectionsRouter } from './connections/connections.index';
import { goingRateRouter } from './going-rate/going-rate.index';
import { shiftRequestsRouter } from './shift-requests/shift-requests.index';
import { shifterRecordsRouter } from './shifter/records.index';
import { shifterRouter } from './shifter/shifter.index';
import { templatesRouter } from './templates/templates.index';
import { userRouter } from './user/user.index';

/** Every API router, one folder per URL prefix; app.ts mounts them all at the root (their paths carry /v1/). */
export const routers = [
  authRouter,
  userRouter,
  shifterRouter,
  shifterRecordsRouter,
  businessRouter,
  adminRouter,
  shiftRequestsRouter,
  connectionsRouter,
  templatesRouter,
  goingRateRouter,
] as const;
