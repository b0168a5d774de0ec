/**
 * The catalog of every notification the service sends: one entry per kind, with its group, default
 * channels, urgency, audience and the text each channel carries. Producers name a kind in their
 * guarded write's `notify`; the consumer looks it up here, and businessRecipients (recipients.ts)
 * reads `audience` from here, so who hears of a business's event is decided in this one table.
 *
 * Pure data: this module imports nothing of the services, so any of them can read it.
 */

/** in_app is always on (the notifications list); the others follow the user's preferences. */
export const CHANNELS = ['in_app', 'push', 'email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];
export const OUTBOUND_CHANNELS = ['push', 'email', 'sms'] as const;
export type OutboundChannel = (typeof OUTBOUND_CHANNELS)[number];

export const NOTIFICATION_GROUPS = [
  'shift_offers',
  'shift_updates',
  'connections',
  'team',
  'messages',
  'reviews',
  'money',
  'account',
] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number];

export const GROUP_LABELS: Record<NotificationGroup, string> = {
  shift_offers: 'Shift offers: requests to you and open shifts of your crews',
  shift_updates: 'Changes to your shifts: accepted, declined, claimed, changed, cancelled, no-shows, clock-ins',
  connections: 'Connection requests and answers',
  team: 'Teammate invitations and new teammates',
  messages: 'Direct messages',
  reviews: 'Reviews, responses and disputes',
  money: 'Payments, payouts, refunds, disputes and cards',
  account: 'Your account and integrations',
};

/**
 * Who of a business hears of its events: `business` = the owner and every active teammate;
 * `owner` = the owner only (money leaving or reaching the business's account, its cards). `person`
 * kinds are addressed to one person the producer names (a shifter, an invitee).
 */
export type Audience = 'business' | 'owner' | 'person';

export interface CatalogEntry {
  kind: string;
  group: NotificationGroup;
  label: string;
  /** Urgent kinds go out at once, in quiet hours too; the reason is written beside each. */
  urgent: boolean;
  audience: Audience;
  /** Default of each outbound channel (in_app is always on). SMS is off everywhere by default. */
  defaults: Record<OutboundChannel, boolean>;
  /** What the reader can do next: the last line of the email, after the producer's body. */
  action: string;
  /**
   * The text carries a secret (a one-time confirm link): the email is drafted sensitive, and the
   * delivery's copy of the text is not kept readable once sent (unless LOCAL_MAILBOX is on).
   */
  sensitive?: boolean;
}

const PUSH = { push: true, email: false, sms: false };
const PUSH_EMAIL = { push: true, email: true, sms: false };

const entries: CatalogEntry[] = [
  // ── Shift offers ──
  {
    kind: 'shift_request',
    group: 'shift_offers',
    label: 'A business sends you a shift request',
    urgent: false,
    audience: 'person',
    defaults: PUSH,
    action: 'Accept or decline it in Shiftmarket.',
  },
  {
    kind: 'open_shift',
    group: 'shift_offers',
    label: 'An open shift (broadcast) of a business whose crew you are in, re-broadcasts after a cancellation included',
    urgent: false,
    audience: 'person',
    defaults: PUSH,
    action: 'Open Shiftmarket to claim it: the first claim wins.',
  },
  // ── Changes to shifts ──
  {
    kind: 'shift_accepted',
    group: 'shift_updates',
    label: 'A shifter accepted your shift request',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'See it in your schedule.',
  },
  {
    kind: 'shift_declined',
    group: 'shift_updates',
    label: 'A shifter declined your shift request',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Send it to someone else or broadcast it to your crew.',
  },
  {
    kind: 'broadcast_claimed',
    group: 'shift_updates',
    label: 'A shifter claimed your open shift',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'See it in your schedule.',
  },
  {
    kind: 'shift_changed',
    group: 'shift_updates',
    label: 'A business changed a shift request sent to you',
    urgent: false,
    audience: 'person',
    defaults: PUSH,
    action: 'Accept or decline the new terms in Shiftmarket.',
  },
  {
    kind: 'counter_offer',
    group: 'shift_updates',
    label: 'A shifter proposes another rate for a shift request',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Change the request to that rate, or leave it as it is, in Shiftmarket.',
  },
  {
    // Urgent: a cancellation often comes close to the start; someone may be on the way to the shift.
    kind: 'cancellation',
    group: 'shift_updates',
    label: 'A shift you are part of was cancelled',
    urgent: true,
    audience: 'business',
    defaults: PUSH_EMAIL,
    action: 'See your schedule in Shiftmarket.',
  },
  {
    kind: 'no_show',
    group: 'shift_updates',
    label: 'A business marked you as a no-show',
    urgent: false,
    audience: 'person',
    defaults: PUSH_EMAIL,
    action: 'If this is wrong, contact the business.',
  },
  {
    kind: 'clock_in',
    group: 'shift_updates',
    label: 'A shifter clocked in for your shift',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'See the shift in progress in Shiftmarket.',
  },
  {
    kind: 'timesheet_submitted',
    group: 'shift_updates',
    label: 'A timesheet awaits your approval',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Review and approve it in Timesheets.',
  },
  {
    kind: 'timesheet_disputed',
    group: 'money',
    label: 'A worker disputed their timesheet',
    urgent: false,
    audience: 'business',
    defaults: PUSH_EMAIL,
    action: 'Answer it in Timesheets before its deadline, or the worker’s times stand.',
  },
  {
    kind: 'timesheet_edited',
    group: 'money',
    label: 'A business changed your timesheet',
    urgent: false,
    audience: 'person',
    defaults: PUSH_EMAIL,
    action: 'If it is wrong, dispute it in My timesheets before the deadline.',
  },
  {
    kind: 'timesheet_approved',
    group: 'money',
    label: 'Your timesheet was approved',
    urgent: false,
    audience: 'person',
    defaults: PUSH_EMAIL,
    action: 'See it in My timesheets.',
  },
  {
    kind: 'timesheet_dispute_answered',
    group: 'money',
    label: 'Your timesheet dispute was answered',
    urgent: false,
    audience: 'person',
    defaults: PUSH_EMAIL,
    action: 'See the answer in My timesheets.',
  },
  // ── Connections and team ──
  {
    kind: 'connection_request',
    group: 'connections',
    label: 'A business or shifter asks to connect with you',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Accept or decline it in your connections.',
  },
  {
    kind: 'connection_accepted',
    group: 'connections',
    label: 'Your connection request was accepted',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'You can now send each other shift requests.',
  },
  {
    kind: 'teammate_invitation',
    group: 'team',
    label: 'A business invites you to its team',
    urgent: false,
    audience: 'person',
    defaults: PUSH_EMAIL,
    action: 'Accept or decline it under your invitations.',
  },
  {
    kind: 'teammate_joined',
    group: 'team',
    label: 'Someone accepted your teammate invitation',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'Manage your teammates in Shiftmarket.',
  },
  // ── Messages ──
  {
    kind: 'message.received',
    group: 'messages',
    label: 'A new direct message',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Reply in Shiftmarket.',
  },
  {
    kind: 'message.request',
    group: 'messages',
    label: 'A message request from someone new',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Accept or ignore it in Shiftmarket.',
  },
  {
    kind: 'support.escalated',
    group: 'messages',
    label: 'A help conversation waits for a person from support (admins)',
    urgent: false,
    audience: 'person',
    defaults: PUSH_EMAIL,
    action: 'Answer it from the support queue.',
  },
  {
    kind: 'copilot:invite-shifter',
    group: 'team',
    label: 'The business assistant proposes inviting a shifter (to the person who asked)',
    urgent: false,
    audience: 'person',
    // In-app only: the proposal waits in the asker's list until they act on it; nothing reaches the shifter.
    defaults: { push: false, email: false, sms: false },
    action: 'Open the proposal to send the invitation, or ignore it.',
  },
  // ── Reviews ──
  {
    kind: 'review.received',
    group: 'reviews',
    label: 'A new review of you or your business',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Read it and respond on your profile.',
  },
  {
    kind: 'review.response',
    group: 'reviews',
    label: 'A response to a review you wrote',
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'Read it in Shiftmarket.',
  },
  {
    kind: 'review.disputed',
    group: 'reviews',
    label: 'A review you wrote is disputed',
    urgent: false,
    audience: 'business',
    defaults: PUSH_EMAIL,
    action: 'An admin decides whether it stays visible.',
  },
  {
    kind: 'review.dispute_resolved',
    group: 'reviews',
    label: 'A review dispute was decided',
    urgent: false,
    audience: 'business',
    defaults: PUSH_EMAIL,
    action: 'See the review in Shiftmarket.',
  },
  // ── Money (the payments issue produces these) ──
  {
    kind: 'payout_paid',
    group: 'money',
    label: 'A payout reached your bank account',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'See your payouts in Shiftmarket.',
  },
  {
    kind: 'payout_failed',
    group: 'money',
    label: 'A payout failed',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'Check your bank details in Shiftmarket.',
  },
  {
    kind: 'refund_issued',
    group: 'money',
    label: 'A refund was made',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'See the invoice in Shiftmarket.',
  },
  {
    kind: 'payment_dispute',
    group: 'money',
    label: 'A payment was disputed (chargeback)',
    urgent: false,
    audience: 'business',
    defaults: PUSH_EMAIL,
    action: 'Answer the dispute in Shiftmarket before its deadline.',
  },
  {
    kind: 'invoice_paid',
    group: 'money',
    label: 'An invoice was paid',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'See the invoice in Shiftmarket.',
  },
  {
    kind: 'payment_failed',
    group: 'money',
    label: 'A payment failed',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'Check the card on file in Shiftmarket; the invoice stays unpaid.',
  },
  {
    // Urgent: a charge waits on the card holder's authentication (3DS); the shift stays unpaid until then.
    kind: 'payment_action_required',
    group: 'money',
    label: 'A payment needs your confirmation (3D Secure)',
    urgent: true,
    // The owner only: the authentication page admits the owner alone (spec 4.12).
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'Confirm the payment with your bank in Shiftmarket.',
  },
  {
    // Urgent: the confirm link works for 5 minutes only. Sensitive: the link is single use.
    kind: 'agent_payment_confirmation',
    group: 'money',
    label: 'An assistant asks you to confirm a payment',
    urgent: true,
    audience: 'person',
    defaults: PUSH_EMAIL,
    action: 'Open the link within 5 minutes, signed in, to confirm or ignore it.',
    sensitive: true,
  },
  {
    kind: 'card_created',
    group: 'money',
    label: 'A payment card was added to your business',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'If you did not add it, remove it and change your password.',
  },
  // ── Account ──
  {
    kind: 'webhook_endpoint_disabled',
    group: 'account',
    label: 'A partner webhook endpoint was disabled after failing',
    urgent: false,
    audience: 'owner',
    defaults: PUSH_EMAIL,
    action: 'Fix the endpoint and enable it again.',
  },
];

export const CATALOG: ReadonlyMap<string, CatalogEntry> = new Map(entries.map((e) => [e.kind, e]));
export const NOTIFICATION_KINDS = entries.map((e) => e.kind) as [string, ...string[]];

/**
 * A kind not (yet) in the catalog still reaches people: in-app and push, never urgent. The consumer
 * logs it, so a producer's new kind is noticed and added here.
 */
export function fallbackEntry(kind: string): CatalogEntry {
  return {
    kind,
    group: 'account',
    label: kind,
    urgent: false,
    audience: 'business',
    defaults: PUSH,
    action: 'See it in Shiftmarket.',
  };
}

export function catalogEntry(kind: string): CatalogEntry {
  return CATALOG.get(kind) ?? fallbackEntry(kind);
}

export const isKnownKind = (kind: string) => CATALOG.has(kind);

/** The kinds a business's owner alone hears of (businessRecipients reads this). */
export const ownerOnly = (kind: string) => catalogEntry(kind).audience === 'owner';

/** The preference scope of a group (kinds are their own scope). */
export const groupScope = (group: NotificationGroup) => `group:${group}`;

/** Texts per channel, from the producer's title and body (which are also the in-app text). */
export interface Rendered {
  title: string;
  body: string;
}

const SMS_MAX = 320;

export function render(entry: CatalogEntry, channel: OutboundChannel, title: string, body: string): Rendered {
  switch (channel) {
    case 'email':
      return { title, body: `${body}\n\n${entry.action}\n\nChange which notifications you get, and when, in your notification settings.` };
    case 'sms': {
      const text = `Shiftmarket: ${title}. ${body}`;
      return { title, body: text.length > SMS_MAX ? `${text.slice(0, SMS_MAX - 1)}…` : text };
    }
    case 'push':
      return { title, body };
  }
}
