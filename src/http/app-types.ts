import type { Db } from '../db/client';
import type { AppBindings, Settings } from '../env';
import type { Actor, IdempotencyScope } from '../services/context';
import type { Logger } from '../lib/log';

export interface AppEnv {
  Bindings: AppBindings;
  Variables: {
    requestId: string;
    log: Logger;
    settings: Settings;
    db: Db;
    actor: Actor;
    idempotency: IdempotencyScope | undefined;
  };
}
