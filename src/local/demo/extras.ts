import { demoAgentRecords } from './agent-records';
import { demoHelp } from './help';
import { demoInvoices } from './invoices';
import { demoMessaging } from './messaging';
import { demoNotifications } from './notifications';
import { demoPayments } from './payments';
import { demoReviews } from './reviews';
import type { DemoExtra } from './world';

/** Each domain adds its part here (one line), in the order they must run. */
export const DEMO_EXTRAS: DemoExtra[] = [
  demoReviews,
  demoHelp,
  demoMessaging,
  demoNotifications,
  demoInvoices,
  demoPayments,
  demoAgentRecords,
];
