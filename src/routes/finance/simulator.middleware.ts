import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/app-types';
import { serviceCtx } from '../../http/create-app';
import { AppError } from '../../lib/errors';
import { simulatorActive } from '../../services/payments';

/** The simulator's routes exist only while it is the processor (no STRIPE_SECRET_KEY); otherwise they are 404. */
export const onlyWithSimulator: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!simulatorActive(serviceCtx(c))) throw new AppError('NOT-FOUND-ERR', 'The payment simulator is not running: payments go to Stripe.');
  await next();
};
