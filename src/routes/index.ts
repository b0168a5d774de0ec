import { adminRouter } from './admin/admin.index';
import { authRouter } from './auth/auth.index';
import { businessRouter } from './business/business.index';
import { connectionsRouter } from './connections/connections.index';
import { insightsRouter } from './insights/insights.index';
import { shiftRequestsRouter } from './shift-requests/shift-requests.index';
import { shifterRouter } from './shifter/shifter.index';
import { shifterRecordsRouter } from './shifter-records/shifter-records.index';
import { templatesRouter } from './templates/templates.index';
import { userRouter } from './user/user.index';

/** Every API router; app.ts mounts them all at the root (their paths carry /v1/). */
export const routers = [authRouter, userRouter, shifterRouter, businessRouter, adminRouter, shiftRequestsRouter, connectionsRouter, templatesRouter, insightsRouter, shifterRecordsRouter];
