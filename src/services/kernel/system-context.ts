import { createDb } from '../../db/client';
import { type AppBindings, getSettings } from '../../env';
import { createLogger } from '../../lib/log';
import type { Actor, ServiceContext } from './context';

/** A service context for work no person started: queue consumers and cron jobs. */
export function systemContext(
  env: AppBindings,
  exec: { waitUntil(p: Promise<unknown>): void },
  job: string,
  actor?: Actor,
): ServiceContext {
  const requestId = `job_${crypto.randomUUID().replaceAll('-', '')}`;
  const settings = getSettings(env);
  return {
    env,
    db: createDb(env.DB),
    settings,
    actor: actor ?? { kind: 'system', job },
    requestId,
    log: createLogger({ request_id: requestId, job }, settings.LOG_LEVEL),
    now: () => Date.now(),
    waitUntil: (p) => exec.waitUntil(p),
  };
}
