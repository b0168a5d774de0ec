import type { PersonActor, ServiceContext } from '../../services/kernel';
import { changeThread, type PartyRef, sendMessage, type ThreadAction } from '../../services/messaging';
import { BUSINESSES } from './cast';
import type { DemoExtra, DemoWorld } from './world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Line {
  /** Who writes: the business side (its owner) or the shifter. */
  from: 'business' | 'shifter';
  /** How long before the seed it was written. */
  ago: number;
  body: string;
}

interface ThreadPlan {
  business: string;
  shifter: string;
  lines: Line[];
  /** What each side does with the thread afterwards (pin, archive, accept…). */
  after?: Array<{ side: 'business' | 'shifter'; action: ThreadAction }>;
}

/**
 * Direct threads of the demo cast, written through the messaging services (the thread's Durable
 * Object numbers the messages), so the owner (Maya Ortiz) and Jordan Rivera have a thread in every
 * tab: a long accepted conversation (pinned by Jordan, its last message unread by the bistro), one
 * the owner pinned, a request each is still to accept, and one the owner archived. Support threads
 * are seeded by the help center (demo/help.ts).
 */
const PLAN: ThreadPlan[] = [
  {
    business: 'bistro',
    shifter: 'jordan',
    lines: [
      { from: 'business', ago: 3 * DAY, body: 'Hi Jordan, are you free for Saturday brunch on the line? 9 to 3, same rate as last time.' },
      { from: 'shifter', ago: 3 * DAY - 40 * MINUTE, body: 'Yes, count me in. Should I bring my own knives?' },
      { from: 'business', ago: 3 * DAY - 25 * MINUTE, body: 'No need, the kit is on site. I will send the request now.' },
      { from: 'shifter', ago: 2 * DAY, body: 'Accepted it. Is parking still on Water Street?' },
      { from: 'business', ago: 2 * DAY - 2 * HOUR, body: 'Yes, the lot behind the building. Ask for Sam at the back door.' },
      { from: 'shifter', ago: 2 * HOUR, body: 'Running 10 minutes late on Saturday, the subway is slow. Sorry!' },
    ],
    after: [{ side: 'shifter', action: 'pin' }],
  },
  {
    business: 'bistro',
    shifter: 'alex',
    lines: [
      { from: 'shifter', ago: 5 * DAY, body: 'Hi Maya, I can cover bar shifts on weekday evenings next month if you need someone.' },
      { from: 'business', ago: 5 * DAY - 3 * HOUR, body: 'That would help a lot. I will put you down for Wednesdays and send requests.' },
      { from: 'shifter', ago: 4 * DAY, body: 'Perfect, thanks.' },
    ],
    after: [{ side: 'business', action: 'pin' }],
  },
  {
    business: 'events',
    shifter: 'taylor',
    lines: [{ from: 'shifter', ago: 6 * HOUR, body: 'Hello! Do you need door staff for the gallery opening on the 21st?' }],
  },
  {
    business: 'events',
    shifter: 'jordan',
    lines: [
      {
        from: 'business',
        ago: 20 * HOUR,
        body: 'Hi Jordan, Harbor Street Events here. We have a wedding next month that needs a line cook. Interested?',
      },
    ],
  },
  {
    business: 'bistro',
    shifter: 'chris',
    lines: [
      { from: 'business', ago: 9 * DAY, body: 'Chris, can you do the early prep on Monday?' },
      { from: 'shifter', ago: 9 * DAY - HOUR, body: 'Sorry, not taking shifts this month. Next month works.' },
      { from: 'business', ago: 9 * DAY - 50 * MINUTE, body: 'No problem, I will ask again then.' },
    ],
    after: [{ side: 'business', action: 'archive' }],
  },
  {
    business: 'coffee',
    shifter: 'oliver',
    lines: [
      { from: 'business', ago: 30 * HOUR, body: 'Morning Oliver, could you open on Sunday? 7am start.' },
      { from: 'shifter', ago: 29 * HOUR, body: 'Yes, happy to. I have the keys from last week.' },
    ],
  },
];

const personActor = (userId: string): PersonActor => ({
  kind: 'user',
  userId,
  isAdmin: false,
  isDemo: true,
  via: 'session',
  credentialId: 'demo-seed',
});

/** The context as a person, its clock at `at`. */
const as = (ctx: ServiceContext, userId: string, at: number): ServiceContext => ({ ...ctx, actor: personActor(userId), now: () => at });

async function seedThread(ctx: ServiceContext, world: DemoWorld, plan: ThreadPlan): Promise<void> {
  const business: PartyRef = { kind: 'business', id: world.businessId(plan.business) };
  const shifter: PartyRef = { kind: 'shifter', id: world.shifterId(plan.shifter) };
  // The business side writes through its owner.
  const owner = world.userId(BUSINESSES.find((b) => b.key === plan.business)!.owner);
  const writer = (from: 'business' | 'shifter') => (from === 'business' ? owner : world.userId(plan.shifter));
  let threadId: string | null = null;
  for (const line of plan.lines) {
    const at = world.now - line.ago;
    const sent = await sendMessage(as(ctx, writer(line.from), at), {
      to: line.from === 'business' ? shifter : business,
      as: line.from === 'business' ? business : shifter,
      body: line.body,
    });
    threadId = sent.thread.id;
  }
  if (!threadId) return;
  for (const step of plan.after ?? []) {
    await changeThread(as(ctx, writer(step.side), world.now - MINUTE), threadId, step.action, {
      as: step.side === 'business' ? business : shifter,
    });
  }
}

export const demoMessaging: DemoExtra = {
  name: 'message_threads',
  async seed(ctx, world) {
    for (const plan of PLAN) await seedThread(ctx, world, plan);
    return PLAN.length;
  },
};
