import type { AppBindings } from '../env';
import { errorFields } from '../lib/log';
import { pruneAuthCodes } from '../services/accounts';
import { expireUnusedClients } from '../services/agents';
import { grantHelpers } from '../mcp/oauth';
import { resetDemoData } from '../local/demo';
import { pruneIdempotencyKeys, sweepOutbox, systemContext } from '../services/kernel';
import { advanceInsightRollups, rebuildInsightRollups } from '../services/insights';
import { sweepEmailOutbox } from '../services/mail';
import { sweepNotificationDeliveries, sweepTextOutbox } from '../services/notifications';
import { sweepSimulatorEvents } from '../local/payment-simulator';
import { sweepAutomaticCharges, sweepMissingTransfers, sweepUnworkedShiftRefunds } from '../services/payments';
import { expirePendingShifts, sweepUnusedClockPhotos } from '../services/shifts';
import { sweepTimesheets } from '../services/timesheets';
import { sweepWebhookDeliveries } from '../services/webhooks';

export const CRON = { frequent: '*/5 * * * *', nightly: '0 3 * * *' } as const;

type Job = (ctx: ReturnType<typeof systemContext>) => Promise<unknown>;

const JOBS: Record<string, Record<string, Job>> = {
  [CRON.frequent]: {
    prune_idempotency_keys: pruneIdempotencyKeys,
    prune_auth_codes: pruneAuthCodes,
    sweep_email_outbox: sweepEmailOutbox,
    sweep_text_outbox: sweepTextOutbox,
    sweep_event_outbox: sweepOutbox,
    sweep_notification_deliveries: sweepNotificationDeliveries,
    expire_pending_shifts: expirePendingShifts,
    // Disputes unanswered in time resolve for the worker; unanswered timesheets approve at their deadline.
    settle_timesheets: sweepTimesheets,
    remove_unused_clock_photos: sweepUnusedClockPhotos,
    sweep_webhook_deliveries: sweepWebhookDeliveries,
    deliver_payment_simulator_events: sweepSimulatorEvents,
    charge_worked_invoices: sweepAutomaticCharges,
    sweep_missing_transfers: sweepMissingTransfers,
    refund_unworked_prepaid_shifts: sweepUnworkedShiftRefunds,
    expire_unused_agent_clients: (ctx) => expireUnusedClients(ctx, grantHelpers(ctx.env)),
    // The figures' windowed rollups follow the clock (crew analytics, going rate).
    advance_insight_rollups: advanceInsightRollups,
  },
  [CRON.nightly]: {
    reset_demo_data: async (ctx) => (ctx.settings.DEMO_MODE ? resetDemoData(ctx) : 'skipped: DEMO_MODE off'),
    // Every rollup recomputed from the rows, business by business: the repair for one changed by hand.
    rebuild_insight_rollups: (ctx) => rebuildInsightRollups(ctx),
  },
};

/** Runs every job of the cron expression; one failing job does not stop the others. */
export async function handleScheduled(controller: ScheduledController, env: AppBindings, exec: ExecutionContext) {
  const jobs = JOBS[controller.cron] ?? {};
  const results: Record<string, unknown> = {};
  let failed = false;
  for (const [name, job] of Object.entries(jobs)) {
    const ctx = systemContext(env, exec, `cron:${name}`);
    try {
      results[name] = await job(ctx);
      ctx.log.info('job done', { result: results[name] as never });
    } catch (err) {
      failed = true;
      ctx.log.error('job failed', errorFields(err));
    }
  }
  if (failed) throw new Error(`some jobs of ${controller.cron} failed`);
  return results;
}
