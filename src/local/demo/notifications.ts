import { type BatchItem, runBatch } from '../../db/client';
import { notificationPreferences, notificationSettings, notifications } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { ServiceContext } from '../../services/kernel';
import { groupScope } from '../../services/notifications';
import type { DemoExtra, DemoWorld } from './world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Note {
  person: string;
  kind: string;
  title: string;
  body: string;
  ago: number;
  read?: boolean;
  data?: (w: DemoWorld) => Record<string, unknown>;
}

/** A few in-app notifications, so the lists are not empty (new ones come as the demo is used). */
const NOTES: Note[] = [
  {
    person: 'owner',
    kind: 'clock_in',
    title: 'Jordan Rivera clocked in',
    body: 'Today’s shift at Harbor Street Bistro',
    ago: 50 * MINUTE,
    data: (w) => ({ business_id: w.businessId('bistro') }),
  },
  {
    person: 'owner',
    kind: 'shift_accepted',
    title: 'Alex Kim accepted your shift request',
    body: 'Line cook, this weekend',
    ago: 5 * HOUR,
    data: (w) => ({ business_id: w.businessId('bistro') }),
  },
  {
    person: 'owner',
    kind: 'review.received',
    title: 'Jordan Rivera reviewed Harbor Street Bistro: 5 of 5',
    body: 'Read it and respond on your profile.',
    ago: 30 * HOUR,
    read: true,
  },
  {
    person: 'jordan',
    kind: 'open_shift',
    title: 'Open shift at Harbor Street Bistro',
    body: 'Friday evening service (first claim wins)',
    ago: 2 * HOUR,
    data: (w) => ({ business_id: w.businessId('bistro') }),
  },
  {
    person: 'jordan',
    kind: 'connection_accepted',
    title: 'You are connected',
    body: 'You can now get shift requests.',
    ago: 72 * HOUR,
    read: true,
  },
];

/**
 * The demo's notification settings: Jordan keeps quiet hours (22:00–07:00 in his zone), so pushes and
 * emails to him at night wait in `notification_deliveries` until the morning; Priya gets money
 * notifications by text message too. Plus a few in-app notifications. Dedupe keys are fixed, so a
 * second run adds nothing.
 */
export const demoNotifications: DemoExtra = {
  name: 'notifications',
  async seed(ctx: ServiceContext, world: DemoWorld): Promise<number> {
    const now = world.now;
    const statements: BatchItem[] = NOTES.map((n, i) =>
      ctx.db
        .insert(notifications)
        .values({
          id: newId('notification'),
          dedupe_key: `demo:${n.kind}:${i}:${world.userId(n.person)}`,
          user_id: world.userId(n.person),
          kind: n.kind,
          title: n.title,
          body: n.body,
          data: n.data ? JSON.stringify(n.data(world)) : null,
          read_at: n.read ? now - n.ago + 10 * MINUTE : null,
          created_at: now - n.ago,
        })
        .onConflictDoNothing(),
    );
    statements.push(
      ctx.db
        .insert(notificationSettings)
        .values({
          user_id: world.userId('jordan'),
          timezone: 'America/New_York',
          quiet_start: '22:00',
          quiet_end: '07:00',
          updated_at: now,
        })
        .onConflictDoNothing(),
      ctx.db
        .insert(notificationPreferences)
        .values({ user_id: world.userId('priya'), scope: groupScope('money'), channel: 'sms', enabled: true, updated_at: now })
        .onConflictDoNothing(),
    );
    await runBatch(ctx.db, statements);
    return statements.length;
  },
};
