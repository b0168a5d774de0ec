import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import {
  AUTHORIZATION_CLASSES,
  type AuthorizationClass,
  type Case,
  CALLERS,
  type Caller,
  classOf,
  type Entry,
  filledFields,
  generatedCases,
  idFields,
  isSuccess,
  leaked,
  notDenied,
  type OpenApiDoc,
  type Operation,
  operations,
  type Req,
  reread,
  type Reread,
  runPartnerCase,
  securityMismatch,
  send,
  snapshotStorage,
  type Target,
} from './helpers/authorization';
import type { TestUser } from './helpers/factory';
import { buildVictimWorld, PDF_BYTES, PRIVATE_MESSAGE, PRIVATE_NOTE, type VictimWorld } from './helpers/fixtures';
import { dateAhead, pngBytes } from './helpers/shifts';

/*
 * Every operation of /v1/openapi.json, fetched from the Worker when this file loads, so a route is
 * covered the day it is added. Each operation declares its authorization class in its route contract
 * (`authorization` in authRoute, written into the document as `x-authorization`; src/http/openapi.ts):
 * an operation without one fails, and the class must agree with the document's security. The class
 * names the checks: each operation that takes an id is called by a stranger, a suspended teammate of
 * the victim business and the other party; each must be 403/404 in the error envelope (never 2xx,
 * never 5xx) and change nothing. The business's active teammate is refused on a business-owner
 * operation and reads on a business-member one. The cases come from the class and TARGETS where the
 * operation takes nothing but ids; CASES holds the rest (docs/decisions/authorization-test.md).
 */

const doc = (await call<OpenApiDoc>('GET', '/v1/openapi.json')).body;
const OPERATIONS = operations(doc);

// ── Reads the owner's side compares before and after a write attempt ──────────────────────────
const businessShifts = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'POST',
  path: '/v1/shift_request/list_of_requests',
  body: { as: 'business', business_id: w.business, limit: 200 },
});
const teammatesOf = (w: VictimWorld): Reread => ({ as: (x) => x.owner, method: 'GET', path: `/v1/business/${w.business}/teammates` });
const ownerBusinesses = (): Reread => ({ as: (x) => x.owner, method: 'GET', path: '/v1/business/of_user' });
const connectionsOf = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'POST',
  path: '/v1/request_authorization/list_of_requests',
  body: { business_id: w.business },
});
const invitationsOf = (w: VictimWorld): Reread => ({ as: (x) => x.owner, method: 'GET', path: `/v1/business/${w.business}/invitations` });
const crewInvitesOf = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'GET',
  path: '/v1/request_authorization/invites',
  query: { business_id: w.business },
});
const joinLinkOf = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'GET',
  path: '/v1/request_authorization/join_link',
  query: { business_id: w.business },
});
const templatesOf = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'GET',
  path: `/v1/shift_templates/by_business/${w.business}`,
});
const crewRead =
  (sub: string) =>
  (w: VictimWorld): Reread => ({ as: (x) => x.crew, method: 'GET', path: `/v1/shifter/${w.crewShifter}${sub}` });
const crewProfile = (): Reread => ({ as: (x) => x.crew, method: 'GET', path: '/v1/shifter/of_user' });

/** The owner's view of the direct thread with the crew member (state, last message) and its messages. */
const ownerThread = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'GET',
  path: `/v1/messaging/threads/${w.messaging.thread}`,
});
const ownerThreadMessages = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'GET',
  path: `/v1/messaging/threads/${w.messaging.thread}/messages`,
});
/** The crew member's support thread as they see it (participants: nobody else joined). */
const crewSupportThread = (w: VictimWorld): Reread => ({
  as: (x) => x.crew,
  method: 'GET',
  path: `/v1/messaging/threads/${w.messaging.supportThread}`,
});

/**
 * A state change of the business's side of the direct thread: the crew member takes part in the
 * thread (their own side), so they are not attacked; anyone else is MSG-NOT-PARTICIPANT.
 */
const onThreadSide = (): Entry => ({
  cases: [
    {
      target: 'the direct thread of the business and the crew member',
      side: 'business',
      allow: ['otherParty'],
      req: (w) => ({ params: { id: w.messaging.thread }, body: {} }),
      reread: ownerThread,
    },
    {
      target: "the direct thread, as the victim business's side",
      side: 'business',
      req: (w) => ({ params: { id: w.messaging.thread }, body: { as: { kind: 'business', id: w.business } } }),
      reread: ownerThread,
    },
  ],
});
/** The crew member's help conversation as they see it (kind, last message). */
const helpConversationOf = (w: VictimWorld): Reread => ({
  as: (x) => x.crew,
  method: 'GET',
  path: `/v1/messaging/threads/${w.helpConversation}`,
});

/** The owner's notification, as the owner reads it. */
const ownerNotificationRead = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'GET',
  path: `/v1/notifications/${w.ownerNotification}`,
});

// ── Case builders ───────────────────────────────────────────────────────────────────────────────
const allShiftIds = (w: VictimWorld) => [...Object.values(w.shifts), w.elsewhere.shift];
const elsewhereShift = (w: VictimWorld) => [w.elsewhere.shift, w.elsewhere.business, PRIVATE_NOTE];
const hiddenCredential = (w: VictimWorld) => [w.hiddenCredential, 'Medical certificate'];

/** A business-side case on the victim business, `{id}` = the business. */
const onBusiness = (extra: (w: VictimWorld, c: TestUser) => Omit<Req, 'params'> = () => ({}), more: Partial<Case> = {}): Case => ({
  target: 'the victim business',
  side: 'business',
  req: (w, c) => ({ params: { id: w.business }, ...extra(w, c) }),
  ...more,
});

/** A case on one of the victim business's shifts, `{id}` = the shift. */
const onShift = (
  which: keyof VictimWorld['shifts'],
  side: Case['side'],
  more: Partial<Case> & { extra?: (w: VictimWorld, c: TestUser) => Omit<Req, 'params'> } = {},
): Case => {
  const { extra, ...rest } = more;
  return {
    target: `the ${which} shift`,
    side,
    req: (w, c) => ({ params: { id: w.shifts[which] }, ...extra?.(w, c) }),
    reread: businessShifts,
    ...rest,
  };
};

/**
 * The crew member's records: `{id}` = their shifter id and the record id; and the same record
 * reached through the caller's own shifter profile (the record must belong to the path's shifter).
 */
const onRecord = (
  idName: string,
  pick: (w: VictimWorld) => string,
  more: Partial<Case> & { extra?: (w: VictimWorld, c: TestUser) => Omit<Req, 'params'> } = {},
): Case[] => {
  const { extra, ...rest } = more;
  return [
    {
      target: `the crew member's ${idName}`,
      side: 'shifter',
      req: (w, c) => ({ params: { id: w.crewShifter, [idName]: pick(w) }, ...extra?.(w, c) }),
      ...rest,
    },
    {
      target: `the crew member's ${idName} under the caller's own shifter profile`,
      side: 'shifter',
      req: (w, c) =>
        c.shifterId && c.shifterId !== w.crewShifter ? { params: { id: c.shifterId, [idName]: pick(w) }, ...extra?.(w, c) } : null,
      ...rest,
    },
  ];
};

/** The submitted timesheet as the owner reads it. */
const timesheetRead = (w: VictimWorld): Reread => ({ as: (x) => x.owner, method: 'GET', path: `/v1/timesheets/${w.timesheet}` });

/** A case on the crew member's submitted timesheet, `{id}` = the timesheet. */
const onTimesheet = (side: Case['side'], body: unknown): Case => ({
  target: "the crew member's submitted timesheet",
  side,
  req: (w) => ({ params: { id: w.timesheet }, ...(body === undefined ? {} : { body }) }),
  reread: timesheetRead,
});

const onShifter = (extra: (w: VictimWorld, c: TestUser) => Omit<Req, 'params'> = () => ({}), more: Partial<Case> = {}): Case => ({
  target: "the crew member's records",
  side: 'shifter',
  req: (w, c) => ({ params: { id: w.crewShifter }, ...extra(w, c) }),
  ...more,
});

/** The reviews of one side of the fixture, as the owner lists them. */
const reviewsOf =
  (kind: 'business' | 'shifter') =>
  (w: VictimWorld): Reread => ({
    as: (x) => x.owner,
    method: 'GET',
    path: '/v1/review/list',
    query: { review_on: kind, review_on_id: kind === 'business' ? w.business : w.crewShifter },
  });

/** A review read every signed-in caller may make (reviews show on profiles). */
const publicReviewRead = (
  target: string,
  query: (w: VictimWorld) => Record<string, string | number>,
  show?: (w: VictimWorld) => string,
): Case => ({
  target,
  side: 'business',
  allow: ['stranger', 'suspendedTeammate', 'otherParty'],
  ...(show ? { show: (w: VictimWorld) => [show(w)] } : {}),
  req: (w) => ({ query: query(w) }),
});

/** A write on one of the fixture's reviews by someone who is not the reviewed party. */
const onReview = (which: 'ofBusiness' | 'ofShifter', side: Case['side'], body?: Record<string, string>): Case => ({
  target: `the review ${which === 'ofBusiness' ? 'of the business' : 'of the crew member'}`,
  side,
  req: (w) => ({ query: { review_id: w.reviews[which] }, ...(body ? { body } : {}) }),
  reread: reviewsOf(side),
});

const pdfForm = () => {
  const f = new FormData();
  f.append('file', new File([PDF_BYTES], 'forged.pdf', { type: 'application/pdf' }));
  return f;
};
const pngForm = () => {
  const f = new FormData();
  f.append('file', new File([pngBytes()], 'photo.png', { type: 'image/png' }));
  return f;
};
const newShiftBody = (w: VictimWorld) => ({
  business_id: w.business,
  shifter_id: w.crewShifter,
  shift_date: dateAhead(6),
  shift_in: '09:00',
  shift_out: '13:00',
  shiftrole_id: 1,
  hourly_rate: 20,
});

// ── Partner API cases ─────────────────────────────────────────────────────────────────────────
const partnerLinksOf = (w: VictimWorld): Reread => ({ as: (x) => x.owner, method: 'GET', path: `/v1/business/${w.business}/partners` });
/** The owner's partner client (`{client_id}`), read back by the owner before and after each attempt. */
const onPartnerClient = (extra: Omit<Req, 'params'> = {}): Case => ({
  target: "the owner's partner client",
  side: 'business',
  req: (w) => ({ params: { client_id: w.partners.linked.clientId }, ...extra }),
  reread: (w) => ({ as: (x) => x.owner, method: 'GET', path: `/v1/partner/clients/${w.partners.linked.clientId}` }),
});
/** A partner route on the victim business (`{business_id}`). */
const onPartnerBusiness = (more: Partial<Case> & { extra?: (w: VictimWorld) => Omit<Req, 'params'> } = {}): Case => {
  const { extra, ...rest } = more;
  return { target: 'the victim business', side: 'business', req: (w) => ({ params: { business_id: w.business }, ...extra?.(w) }), ...rest };
};

/** The linked client's webhook endpoint (`{id}`): only that client reaches it. */
const onWebhookEndpoint = (extra: Omit<Req, 'params'> = {}): Case => ({
  target: "the linked client's webhook endpoint",
  side: 'business',
  req: (w) => ({ params: { id: w.webhooks.endpoint }, ...extra }),
});

// ── Targets: the victim's records the class-implied cases attack ────────────────────────────
/**
 * For an operation whose inputs are ids only, the class and these targets make its cases
 * (generatedCases in test/helpers/authorization.ts): keyed by the id's name, or for a path's `{id}` by
 * the path segment before it. A new route on a resource listed here needs no entry in CASES.
 */
const TARGETS: Record<string, Target> = {
  business: { what: 'the victim business', pick: (w) => w.business, kind: 'business' },
  by_business: { what: 'the victim business', pick: (w) => w.business, kind: 'business' },
  business_id: { what: 'the victim business', pick: (w) => w.business, kind: 'business' },
  invitation_id: { what: "the business's invitation", pick: (w) => w.invitation, kind: 'record' },
  // The payment simulator names a card by its test token, the same for every business: not a record.
  payment_method_id: { what: "the victim business's card", pick: () => 'pm_card_visa' },
  invoiceId: { what: "the victim business's invoice", pick: (w) => w.invoice },
  client_id: {
    what: "the owner's partner client (linked to the victim business)",
    pick: (w) => w.partners.linked.clientId,
    kind: 'record',
  },
  shifter: { what: "the crew member's records", pick: (w) => w.crewShifter, kind: 'shifter' },
  shifter_id: { what: "the crew member's records", pick: (w) => w.crewShifter, kind: 'shifter' },
  entry_id: { what: "the crew member's mileage entry", pick: (w) => w.mileage, kind: 'record' },
  rule_id: { what: "the crew member's counter rule", pick: (w) => w.counterRule, kind: 'record' },
  credential_id: { what: "the crew member's hidden credential", pick: (w) => w.hiddenCredential, kind: 'record' },
  accounts: { what: "the crew member's connected account (payment simulator)", pick: (w) => w.paymentSimulator.account },
  sessions: { what: "the owner's sign-in session", pick: (w) => w.ownerSession },
  grant_id: { what: "the owner's connected app (OAuth grant)", pick: (w) => w.agentGrant },
  push_subscriptions: { what: "the owner's browser", pick: (w) => w.ownerPushSubscription },
  ai_passports: { what: "the owner's AI passport", pick: (w) => w.agentRecords.passport },
  endpoints: { what: "the linked client's webhook endpoint", pick: (w) => w.webhooks.endpoint },
  timesheets: { what: "the crew member's submitted timesheet", pick: (w) => w.timesheet },
};

/**
 * The cases a class cannot make: a body to compose, a shift in a given state, text an answer must
 * show or hide, another owner or other party, a second record. Keyed by operationId (or by
 * `METHOD path`: both are looked up, so an operation without an operationId can have cases too).
 */
const CASES: Record<string, Entry> = {
  // ── Accounts ──
  getUserDetails: {
    cases: [
      { target: "the owner's account", side: 'business', req: (w) => ({ query: { user_id: w.owner.userId } }) },
      { target: "the crew member's account", side: 'shifter', req: (w) => ({ query: { user_id: w.crew.userId } }) },
    ],
  },
  getShifterOfUser: {
    cases: [{ target: "the crew member's shifter profile", side: 'shifter', req: (w) => ({ query: { user_id: w.crew.userId } }) }],
  },
  listBusinessesOfUser: {
    cases: [{ target: "the owner's businesses", side: 'business', req: (w) => ({ query: { user_id: w.owner.userId } }) }],
  },
  grantAdmin: {
    cases: [{ target: 'admin rights for oneself', side: 'business', control: false, req: (_w, c) => ({ body: { user_id: c.userId } }) }],
  },

  // ── Teammates ──
  makeDefaultBusiness: { cases: [onBusiness(() => ({}), { reread: ownerBusinesses })] },
  inviteTeammate: {
    cases: [
      onBusiness((_w, c) => ({ body: { email: c.email } }), { target: 'the victim business (inviting oneself)', reread: teammatesOf }),
    ],
  },
  // Only the invitee answers an invitation: not the business that sent it, nor anyone else.
  acceptTeammateInvitation: {
    cases: [
      {
        target: "the invitee's invitation",
        side: 'shifter',
        owner: (w) => w.invitee,
        other: (w) => w.owner,
        req: (w) => ({ params: { id: w.invitation } }),
        reread: invitationsOf,
      },
    ],
  },
  declineTeammateInvitation: {
    cases: [
      {
        target: "the invitee's invitation",
        side: 'shifter',
        owner: (w) => w.invitee,
        other: (w) => w.owner,
        req: (w) => ({ params: { id: w.invitation } }),
        reread: invitationsOf,
      },
    ],
  },
  setTeammateStatus: {
    cases: [
      {
        target: 'the suspended teammate (reactivating)',
        side: 'business',
        req: (w) => ({ params: { id: w.business, user_id: w.suspendedTeammate.userId }, body: { status: 1 } }),
        reread: teammatesOf,
      },
      {
        target: 'the active teammate (suspending)',
        side: 'business',
        req: (w) => ({ params: { id: w.business, user_id: w.activeTeammate.userId }, body: { status: 0 } }),
        reread: teammatesOf,
      },
    ],
  },

  // ── Shift requests ──
  sendShiftRequest: {
    cases: [
      {
        target: 'a shift posted for the victim business',
        side: 'business',
        req: (w) => ({ body: newShiftBody(w) }),
        reread: businessShifts,
      },
    ],
  },
  listShiftRequests: {
    read: true,
    cases: [
      {
        target: "the business's requests (as business)",
        side: 'business',
        req: (w) => ({ body: { as: 'business', business_id: w.business } }),
      },
      {
        target: "the business's requests",
        side: 'business',
        filter: true,
        allow: ['otherParty'],
        // The crew member sees their own shifts with the business.
        hide: (w, c) => (c === 'otherParty' ? elsewhereShift(w) : allShiftIds(w)),
        req: (w) => ({ body: { business_id: w.business } }),
      },
      {
        target: "the crew member's requests",
        side: 'shifter',
        filter: true,
        allow: ['otherParty'],
        // The owner sees the crew member's shifts at the owner's business, never those elsewhere.
        hide: (w, c) => (c === 'otherParty' ? elsewhereShift(w) : allShiftIds(w)),
        req: (w) => ({ body: { shifter_id: w.crewShifter } }),
      },
      {
        target: 'requests with the business as counterparty',
        side: 'business',
        filter: true,
        allow: ['otherParty'],
        hide: (w, c) => (c === 'otherParty' ? elsewhereShift(w) : allShiftIds(w)),
        req: (w) => ({ body: { counterparty_id: w.business } }),
      },
    ],
  },
  listBroadcastRequests: {
    read: true,
    cases: [
      {
        target: "the crew member's view, ranked",
        side: 'shifter',
        req: (w) => ({ body: { shifter_id: w.crewShifter, sort_by_relevance: true } }),
      },
      {
        target: "the business's broadcasts",
        side: 'business',
        filter: true,
        allow: ['otherParty'],
        hide: (w, c) => (c === 'otherParty' ? [] : [w.shifts.broadcast]),
        req: (w) => ({ body: { business_id: w.business } }),
      },
    ],
  },
  getShiftConflicts: {
    cases: [
      {
        target: "the crew member's busy times (in the business's zone)",
        side: 'shifter',
        // A connected business may see when the shifter is busy, but nothing of shifts at other businesses.
        allow: ['otherParty'],
        show: (w) => [w.elsewhere.busy.starts_at, w.elsewhere.busy.ends_at],
        hide: elsewhereShift,
        req: (w) => ({
          query: { shifter_id: w.crewShifter, ...w.conflictWindow, business_id: w.business, exclude_shift_request_id: w.shifts.worked },
        }),
      },
      {
        target: "the crew member's busy times (in the shifter's zone)",
        side: 'shifter',
        allow: ['otherParty'],
        show: (w) => [w.elsewhere.busy.starts_at, w.elsewhere.busy.ends_at],
        hide: elsewhereShift,
        req: (w) => ({ query: { shifter_id: w.crewShifter, ...w.conflictWindow } }),
      },
    ],
  },
  changeShiftRequest: {
    cases: [
      {
        target: 'the pending shift',
        side: 'business',
        req: (w) => ({ body: { shift_request_id: w.shifts.pending, hourly_rate: 99 } }),
        reread: businessShifts,
      },
    ],
  },
  getShiftRequest: {
    cases: [
      onShift('accepted', 'business', { allow: ['otherParty'] }),
      onShift('pending', 'business', { allow: ['otherParty'] }),
      onShift('broadcast', 'business', { allow: ['otherParty'] }),
    ],
  },
  acceptShiftRequest: { cases: [onShift('pending', 'shifter'), onShift('broadcast', 'shifter')] },
  declineShiftRequest: {
    cases: [onShift('pending', 'shifter', { extra: () => ({ body: { reason: 'not mine to decline' } }) })],
  },
  claimShiftRequest: { cases: [onShift('broadcast', 'shifter')] },
  markShiftNoShow: { cases: [onShift('started', 'business')] },
  cancelShiftRequest: {
    cases: [onShift('accepted', 'business', { allow: ['otherParty'], extra: () => ({ body: { reason: 'hijack' } }) })],
  },
  // The business side only: the accepted shift's own shifter (the other party) is refused too.
  unassignShiftRequest: { cases: [onShift('accepted', 'business', { extra: () => ({ body: { reason: 'hijack' } }) })] },
  clockIn: {
    // The shifter clocks in, or the business as a kiosk passing the shifter's id.
    cases: [onShift('started', 'shifter', { allow: ['otherParty'], extra: (w) => ({ body: { actor_id: w.crewShifter } }) })],
  },
  // ── Timesheets ── (the business approves, edits and answers; only the worker disputes)
  approveTimesheet: { cases: [onTimesheet('business', undefined)] },
  editTimesheet: { cases: [onTimesheet('business', { out_at: '2026-01-01T17:00:00Z', reason: 'early_release' })] },
  disputeTimesheet: {
    cases: [onTimesheet('shifter', { in_at: '2026-01-01T08:00:00Z', out_at: '2026-01-01T18:00:00Z', reason: 'hijack' })],
  },
  resolveTimesheetDispute: { cases: [onTimesheet('business', { decision: 'accept' })] },
  clockOut: {
    cases: [onShift('inProgress', 'shifter', { allow: ['otherParty'], extra: (w) => ({ body: { actor_id: w.crewShifter } }) })],
  },
  uploadClockPhoto: {
    cases: [onShift('started', 'shifter', { allow: ['otherParty'], extra: () => ({ query: { side: 'in' }, form: pngForm }) })],
  },
  getClockPhoto: {
    cases: [
      {
        target: 'the clock photo of the shift in progress',
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ params: { shift_request_id: w.clockPhoto.shift, side: w.clockPhoto.side, file: w.clockPhoto.file } }),
      },
    ],
  },

  // ── Connections ──
  sendConnectionRequest: {
    cases: [
      {
        target: 'a request from the victim business (to the stranger)',
        side: 'business',
        req: (w) => ({ body: { business_id: w.business, shifter_id: w.stranger.shifterId, as: 'business' } }),
        reread: connectionsOf,
      },
      {
        target: "a request in the crew member's name",
        side: 'shifter',
        req: (w, c) => ({ body: { business_id: c.businessId ?? w.stranger.businessId, shifter_id: w.crewShifter, as: 'shifter' } }),
        reread: connectionsOf,
      },
    ],
  },
  acceptConnectionRequest: {
    cases: [
      // Only the receiving side answers a request: the applicant may not accept their own.
      {
        target: "the applicant's pending request",
        side: 'business',
        other: (w) => w.applicant,
        req: (w) => ({ params: { id: w.pendingConnection } }),
        reread: connectionsOf,
      },
      {
        target: 'the accepted connection',
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ params: { id: w.connection } }),
        reread: connectionsOf,
      },
    ],
  },
  declineConnectionRequest: {
    cases: [
      {
        target: "the applicant's pending request",
        side: 'business',
        other: (w) => w.applicant,
        req: (w) => ({ params: { id: w.pendingConnection } }),
        reread: connectionsOf,
      },
      {
        target: 'the accepted connection',
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ params: { id: w.connection } }),
        reread: connectionsOf,
      },
    ],
  },
  removeConnection: {
    cases: [
      {
        target: 'the accepted connection',
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ params: { id: w.connection } }),
        reread: connectionsOf,
      },
    ],
  },
  listConnectionRequests: {
    read: true,
    cases: [{ target: "the business's connections", side: 'business', req: (w) => ({ body: { business_id: w.business } }) }],
  },
  // Crew invitations and the join link: the victim business's side only (its owner, active teammates, admins).
  inviteToCrew: {
    cases: [
      {
        target: 'an invitation by email from the victim business',
        side: 'business',
        req: (w) => ({ body: { business_id: w.business, email: `walk-${crypto.randomUUID()}@example.test` } }),
        reread: (w) => [crewInvitesOf(w), connectionsOf(w)],
      },
      {
        target: "a connection request from the victim business, by the stranger's verified email",
        side: 'business',
        req: (w) => ({ body: { business_id: w.business, email: w.stranger.email } }),
        reread: (w) => [crewInvitesOf(w), connectionsOf(w)],
      },
    ],
  },
  withdrawCrewInvite: {
    cases: [
      { target: "the business's crew invitation", side: 'business', req: (w) => ({ params: { id: w.crewInvite } }), reread: crewInvitesOf },
    ],
  },
  rotateCrewJoinLink: {
    cases: [
      {
        target: "the victim business's join link",
        side: 'business',
        req: (w) => ({ body: { business_id: w.business } }),
        reread: joinLinkOf,
      },
    ],
  },

  // ── Messaging ── (a thread's parties act on their own side; nobody else learns more than that it exists)
  getMessagingInbox: {
    cases: [
      {
        target: "the victim business's inbox",
        side: 'business',
        req: (w) => ({ query: { as_kind: 'business', as_id: w.business } }),
        hide: () => [PRIVATE_MESSAGE],
      },
      {
        target: "the crew member's inbox",
        side: 'shifter',
        req: (w) => ({ query: { as_kind: 'shifter', as_id: w.crewShifter } }),
        hide: () => [PRIVATE_MESSAGE],
      },
    ],
  },
  lookupMessageThread: {
    cases: [
      {
        target: 'the thread of the victim business with the crew member',
        side: 'business',
        req: (w) => ({ query: { with_kind: 'shifter', with_id: w.crewShifter, as_kind: 'business', as_id: w.business } }),
        hide: () => [PRIVATE_MESSAGE],
      },
      {
        target: "the crew member's thread with the victim business",
        side: 'shifter',
        req: (w) => ({ query: { with_kind: 'business', with_id: w.business, as_kind: 'shifter', as_id: w.crewShifter } }),
        hide: () => [PRIVATE_MESSAGE],
      },
    ],
  },
  sendMessage: {
    cases: [
      {
        target: 'the direct thread of the business and the crew member',
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ body: { conversation_id: w.messaging.thread, body: 'forged' } }),
        reread: ownerThreadMessages,
      },
      {
        target: 'a message in the name of the victim business',
        side: 'business',
        req: (w) => ({ body: { to: { kind: 'shifter', id: w.crewShifter }, as: { kind: 'business', id: w.business }, body: 'forged' } }),
        reread: ownerThreadMessages,
      },
      {
        target: "a message in the name of the crew member's shifter profile",
        side: 'shifter',
        req: (w) => ({ body: { to: { kind: 'business', id: w.business }, as: { kind: 'shifter', id: w.crewShifter }, body: 'forged' } }),
        reread: ownerThreadMessages,
      },
      {
        target: "the crew member's support thread",
        side: 'shifter',
        req: (w) => ({ body: { conversation_id: w.messaging.supportThread, body: 'forged' } }),
        reread: crewSupportThread,
      },
    ],
  },
  getMessageThread: {
    cases: [
      {
        target: 'the direct thread of the business and the crew member',
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ params: { id: w.messaging.thread } }),
        show: () => [PRIVATE_MESSAGE],
      },
      {
        target: "the direct thread, as the victim business's side",
        side: 'business',
        req: (w) => ({ params: { id: w.messaging.thread }, query: { as_kind: 'business', as_id: w.business } }),
        hide: () => [PRIVATE_MESSAGE],
      },
      {
        target: "the crew member's support thread",
        side: 'shifter',
        req: (w) => ({ params: { id: w.messaging.supportThread } }),
        hide: () => ['Paid late'],
      },
    ],
  },
  listThreadMessages: {
    cases: [
      {
        target: 'the messages of the direct thread',
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ params: { id: w.messaging.thread } }),
        show: () => [PRIVATE_MESSAGE],
      },
      {
        target: "the crew member's support thread",
        side: 'shifter',
        req: (w) => ({ params: { id: w.messaging.supportThread } }),
      },
    ],
  },
  markMessageThreadRead: onThreadSide(),
  pinMessageThread: onThreadSide(),
  unpinMessageThread: onThreadSide(),
  archiveMessageThread: onThreadSide(),
  unarchiveMessageThread: onThreadSide(),
  acceptMessageThread: onThreadSide(),
  blockMessageThread: onThreadSide(),
  unblockMessageThread: onThreadSide(),
  // Only an admin over the person helped joins their escalated support thread.
  joinSupportThread: {
    cases: [
      {
        target: "the crew member's escalated support thread",
        side: 'shifter',
        req: (w) => ({ params: { id: w.messaging.supportThread } }),
        reread: crewSupportThread,
      },
    ],
  },
  listSupportQueue: {
    cases: [{ target: 'the support queue', side: 'business', control: false, req: () => ({}), hide: () => ['Paid late'] }],
  },

  // ── Templates ──
  createShiftTemplate: {
    cases: [
      {
        target: 'a template for the victim business',
        side: 'business',
        req: (w) => ({
          body: {
            business_id: w.business,
            label: 'Forged',
            days_of_week: '1,2,3,4,5',
            shift_in: '09:00',
            shift_out: '13:00',
            shiftrole_id: 1,
            hourly_rate: 20,
            is_broadcast: 0,
            default_shifter_id: w.crewShifter,
          },
        }),
        reread: templatesOf,
      },
    ],
  },
  updateShiftTemplate: {
    cases: [
      {
        target: "the business's template",
        side: 'business',
        req: (w) => ({ params: { id: w.template }, body: { label: 'Hijacked', is_broadcast: 0, default_shifter_id: w.crewShifter } }),
        reread: templatesOf,
      },
    ],
  },
  deleteShiftTemplate: {
    cases: [{ target: "the business's template", side: 'business', req: (w) => ({ params: { id: w.template } }), reread: templatesOf }],
  },
  previewShiftsFromTemplate: {
    cases: [{ target: "the business's template", side: 'business', req: (w) => ({ params: { id: w.template }, query: { weeks: 2 } }) }],
  },
  generateShiftsFromTemplate: {
    cases: [
      {
        target: "the business's template",
        side: 'business',
        req: (w) => ({ params: { id: w.template }, query: { weeks: 1 } }),
        reread: businessShifts,
      },
    ],
  },
  // Copy a week: the victim's shifts of the week of dateAhead(3) into the week after it.
  previewCopyWeek: {
    cases: [
      {
        target: "the business's schedule",
        side: 'business',
        req: (w) => ({ query: { business_id: w.business, source_week: dateAhead(3), target_week: dateAhead(10) } }),
      },
    ],
  },
  copyWeek: {
    cases: [
      {
        target: "the business's schedule",
        side: 'business',
        req: (w) => ({ body: { business_id: w.business, source_week: dateAhead(3), target_week: dateAhead(10) } }),
        reread: businessShifts,
      },
    ],
  },

  // ── Business settings and figures ──
  updateBusinessSettings: {
    cases: [
      {
        target: "the business's settings",
        side: 'business',
        req: (w) => ({ body: { business_id: w.business, name: 'Hijacked', weekly_labor_budget: 1, require_clock_photo: false } }),
        reread: ownerBusinesses,
      },
    ],
  },
  setWeeklyLaborBudget: {
    cases: [onBusiness(() => ({ body: { weekly_labor_budget: 1 } }), { reread: ownerBusinesses })],
  },

  // ── Invoices ── (the business owner or an admin only: business-owner)
  // The payment simulator's stand-in for Stripe.js (only without Stripe keys).
  confirmSimulatorSetupIntent: {
    cases: [
      {
        target: "the business's SetupIntent (saving a card to its customer)",
        side: 'business',
        req: (w) => ({ params: { id: w.paymentSimulator.setupIntent }, body: { test_token: 'pm_card_visa' } }),
      },
    ],
  },
  prepayShift: { cases: [onShift('accepted', 'business')] },

  // ── Saved cards ── (the business owner or an admin only; an active teammate is refused too)
  savePaymentMethod: { cases: [onBusiness(() => ({ body: { setup_intent_id: 'seti_attacker' } }))] },

  // ── Refunds and payouts ── (a refund: the invoice's business owner or an admin; a payout account: its shifter, an admin may read)
  refundInvoice: {
    cases: [
      {
        target: "the victim business's invoice",
        side: 'business',
        req: (w) => ({ params: { invoiceId: w.invoice }, body: { amount: 1 } }),
      },
    ],
  },

  // ── Reviews ── (public to any signed-in user: profiles show them; only the parties write)
  createReview: {
    cases: [
      {
        target: 'a review written as the victim business',
        side: 'business',
        req: (w) => ({
          body: {
            review_on: 'shifter',
            review_on_id: w.crewShifter,
            review_by_id: w.business,
            rating: 1,
            shift_request_id: w.shifts.worked,
          },
        }),
        reread: reviewsOf('shifter'),
      },
      {
        target: "a review written as the crew member's shifter profile",
        side: 'shifter',
        req: (w) => ({
          body: {
            review_on: 'business',
            review_on_id: w.business,
            review_by_id: w.crewShifter,
            rating: 1,
            shift_request_id: w.shifts.worked,
          },
        }),
        reread: reviewsOf('business'),
      },
    ],
  },
  listReviews: {
    cases: [
      publicReviewRead(
        'reviews of the business',
        (w) => ({ review_on: 'business', review_on_id: w.business }),
        (w) => w.reviews.ofBusiness,
      ),
      publicReviewRead(
        'reviews by the crew member',
        (w) => ({ review_by: 'shifter', review_by_id: w.crewShifter }),
        (w) => w.reviews.ofBusiness,
      ),
    ],
  },
  getAverageReview: {
    cases: [publicReviewRead('the average of the business', (w) => ({ review_on: 'business', review_on_id: w.business }))],
  },
  getReviewHistogram: {
    cases: [publicReviewRead('the histogram of the crew member', (w) => ({ review_on: 'shifter', review_on_id: w.crewShifter }))],
  },
  getReviewTrend: {
    cases: [publicReviewRead('the trend of the business', (w) => ({ review_on: 'business', review_on_id: w.business, days: 7 }))],
  },
  // Only the reviewed party answers or disputes: not the reviewer (the other party), nor anyone else.
  respondToReview: {
    cases: [
      onReview('ofBusiness', 'business', { response_text: 'Hijacked response' }),
      onReview('ofShifter', 'shifter', { response_text: 'Hijacked response' }),
    ],
  },
  disputeReview: {
    cases: [
      onReview('ofBusiness', 'business', { reason: 'Hijacked dispute' }),
      onReview('ofShifter', 'shifter', { reason: 'Hijacked dispute' }),
    ],
  },
  resolveReviewDispute: {
    cases: [
      {
        ...onReview('ofBusiness', 'business'),
        control: false,
        req: (w) => ({ query: { review_id: w.reviews.ofBusiness, decision: 'upheld' } }),
      },
    ],
  },

  // ── Business assistant ──
  sendBusinessAssistantMessage: {
    cases: [
      {
        target: 'the victim business',
        side: 'business',
        req: (w) => ({ params: { business_id: w.business }, body: { message: 'What did labor cost this week?' } }),
        reread: (w) => ({ as: (x) => x.owner, method: 'GET', path: `/v1/ai/chat/business/${w.business}` }),
      },
    ],
  },

  // ── Help center ──
  // A vote is always the caller's own, on public content.
  sendHelpArticleFeedback: {
    notAttacked: { id: "a help article is public content; the vote recorded is always the caller's own" },
  },
  // A help conversation is its owner's alone: nobody else may ask in it or escalate it (404).
  askHelp: {
    cases: [
      {
        target: "the crew member's help conversation",
        side: 'shifter',
        req: (w) => ({ body: { question: 'What is in this conversation?', conversation_id: w.helpConversation } }),
        reread: helpConversationOf,
      },
    ],
  },
  escalateHelpConversation: {
    cases: [
      {
        target: "the crew member's help conversation",
        side: 'shifter',
        req: (w) => ({ body: { conversation_id: w.helpConversation } }),
        reread: helpConversationOf,
      },
    ],
  },

  // ── Shifter records ──
  setEarningsGoal: {
    cases: [onShifter(() => ({ body: { monthly_earnings_goal: 1 } }), { reread: crewProfile })],
  },
  createMileageEntry: {
    cases: [onShifter(() => ({ body: { log_date: dateAhead(-1), miles: 999 } }), { reread: crewRead('/mileage') })],
  },
  updateMileageEntry: {
    cases: onRecord('entry_id', (w) => w.mileage, { extra: () => ({ body: { miles: 999 } }), reread: crewRead('/mileage') }),
  },
  replaceMileageEntry: {
    cases: onRecord('entry_id', (w) => w.mileage, { extra: () => ({ body: { miles: 999 } }), reread: crewRead('/mileage') }),
  },
  createCounterRule: {
    cases: [onShifter(() => ({ body: { label: 'Forged', min_hourly_rate: 1 } }), { reread: crewRead('/counter_rules') })],
  },
  suggestCounterRate: {
    cases: [
      onShifter((w) => ({ query: { shift_request_id: w.shifts.pending } })),
      {
        target: "the crew member's pending request under the caller's own shifter profile",
        side: 'shifter',
        req: (w, c) =>
          c.shifterId && c.shifterId !== w.crewShifter
            ? { params: { id: c.shifterId }, query: { shift_request_id: w.shifts.pending } }
            : null,
      },
    ],
  },
  updateCounterRule: {
    cases: onRecord('rule_id', (w) => w.counterRule, {
      extra: () => ({ body: { label: 'Hijacked' } }),
      reread: crewRead('/counter_rules'),
    }),
  },
  listCredentials: {
    // Anyone signed in sees the visible credentials; the hidden one only its owner (and admins).
    cases: [
      onShifter(() => ({}), {
        allow: ['stranger', 'suspendedTeammate', 'otherParty'],
        show: (w) => [w.visibleCredential],
        hide: hiddenCredential,
      }),
    ],
  },
  createCredential: {
    cases: [onShifter(() => ({ body: { label: 'Forged licence' } }), { reread: crewRead('/credentials') })],
  },
  getCredential: {
    cases: [
      ...onRecord('credential_id', (w) => w.hiddenCredential, { hide: hiddenCredential }),
      {
        target: "the crew member's visible credential",
        side: 'shifter',
        allow: ['stranger', 'suspendedTeammate', 'otherParty'],
        req: (w) => ({ params: { id: w.crewShifter, credential_id: w.visibleCredential } }),
      },
    ],
  },
  updateCredential: {
    cases: [
      ...onRecord('credential_id', (w) => w.hiddenCredential, {
        extra: () => ({ body: { is_visible: true } }),
        reread: crewRead('/credentials'),
      }),
      ...onRecord('credential_id', (w) => w.visibleCredential, {
        extra: () => ({ body: { label: 'Hijacked' } }),
        reread: crewRead('/credentials'),
      }),
    ],
  },
  deleteCredential: {
    cases: [
      ...onRecord('credential_id', (w) => w.hiddenCredential, { reread: crewRead('/credentials') }),
      ...onRecord('credential_id', (w) => w.visibleCredential, { reread: crewRead('/credentials') }),
    ],
  },
  uploadCredentialDocument: {
    cases: [
      ...onRecord('credential_id', (w) => w.hiddenCredential, { extra: () => ({ form: pdfForm }), reread: crewRead('/credentials') }),
      ...onRecord('credential_id', (w) => w.visibleCredential, { extra: () => ({ form: pdfForm }), reread: crewRead('/credentials') }),
    ],
  },

  // ── Notifications ──
  getNotification: {
    cases: [
      {
        target: "the owner's notification",
        side: 'business',
        req: (w) => ({ params: { id: w.ownerNotification } }),
        hide: () => ['owner-notification-body'],
      },
    ],
  },
  markNotificationRead: {
    cases: [
      {
        target: "the owner's notification",
        side: 'business',
        req: (w) => ({ params: { id: w.ownerNotification } }),
        hide: () => ['owner-notification-body'],
        reread: ownerNotificationRead,
      },
    ],
  },
  listNotificationDeliveries: {
    cases: [
      {
        target: "the owner's notification deliveries",
        side: 'business',
        control: false,
        req: (w) => ({ query: { user_id: w.owner.userId } }),
      },
    ],
  },

  // ── Partner API: clients (their owner), links (the business's consent) and the partner routes. The
  // partner routes run as 'partner' cases (runPartnerCase): no person's key reaches them, the outside
  // partner is turned away, the linked partner succeeds; more partner isolation in test/partner-api.test.ts.
  updatePartnerClient: { cases: [onPartnerClient({ body: { status: 'disabled', scopes: ['shifts:read'] } })] },
  issuePartnerToken: {
    notAttacked: {
      client_id:
        "the client proves itself with its own secret; an unknown client, a wrong or another client's secret is invalid_client (test/partner-api.test.ts)",
    },
  },
  linkPartnerClient: {
    cases: [
      {
        target: "the victim business (linking the caller's own partner client)",
        side: 'business',
        req: (w) => ({ params: { business_id: w.business }, body: { client_id: w.partners.outsider.clientId } }),
        reread: partnerLinksOf,
      },
    ],
  },
  listBusinessPartnerLinks: {
    cases: [
      {
        target: "the victim business's partner links",
        side: 'business',
        req: (w) => ({ params: { business_id: w.business } }),
        hide: (w) => [w.partners.linked.clientId],
      },
    ],
  },
  updatePartnerLink: {
    cases: [
      {
        target: "the business's partner link (granting every scope)",
        side: 'business',
        req: (w) => ({
          params: { business_id: w.business, client_id: w.partners.linked.clientId },
          body: { scopes: ['shifts:read', 'shifts:write', 'shifters:read', 'webhooks:manage'] },
        }),
        reread: partnerLinksOf,
      },
      {
        target: "the business's partner link under the caller's own business",
        side: 'business',
        req: (w, c) =>
          c.businessId && c.businessId !== w.business
            ? { params: { business_id: c.businessId, client_id: w.partners.linked.clientId }, body: { scopes: ['shifts:read'] } }
            : null,
        reread: partnerLinksOf,
      },
    ],
  },
  listPartnerBusinesses: {
    cases: [
      {
        target: 'the linked businesses',
        side: 'business',
        req: () => ({}),
        filter: true,
        show: (w) => [w.business],
        hide: (w) => [w.business],
      },
    ],
  },
  listPartnerShiftRequests: {
    cases: [
      onPartnerBusiness({ show: (w) => [w.shifts.pending, w.shifts.accepted], hide: (w) => [...allShiftIds(w), PRIVATE_NOTE] }),
      {
        // The outside partner names the crew member on its own business: a filter narrows, it reaches no one else's.
        target: "the crew member's shifts through a shifter_id filter",
        side: 'business',
        req: (w, c) => ({ params: { business_id: c.businessId ?? w.business }, query: { shifter_id: w.crewShifter } }),
        filter: true,
        show: (w) => [w.shifts.pending],
        hide: (w) => [...allShiftIds(w), PRIVATE_NOTE],
      },
    ],
  },
  createPartnerShiftRequest: {
    cases: [
      onPartnerBusiness({
        reread: businessShifts,
        extra: (w) => {
          const { business_id: _b, ...body } = newShiftBody(w);
          return { body };
        },
      }),
    ],
  },
  listPartnerBroadcasts: {
    cases: [onPartnerBusiness({ show: (w) => [w.shifts.broadcast], hide: (w) => allShiftIds(w) })],
  },
  listPartnerShifters: {
    cases: [onPartnerBusiness({ show: (w) => [w.crewShifter], hide: (w) => [w.crewShifter, 'Crew Member'] })],
  },

  // ── Partner webhooks ── (an endpoint and its deliveries belong to the client that made them)
  listWebhookEndpoints: {
    cases: [
      {
        target: "the linked client's webhook endpoints",
        side: 'business',
        req: () => ({}),
        filter: true,
        show: (w) => [w.webhooks.endpoint],
        hide: (w) => [w.webhooks.endpoint],
      },
    ],
  },
  rotateWebhookSecret: { cases: [onWebhookEndpoint({ body: { previous_secret_valid_for_seconds: 0 } })] },
  listWebhookDeliveries: {
    cases: [{ ...onWebhookEndpoint(), show: (w) => [w.webhooks.delivery], hide: (w) => [w.webhooks.delivery] }],
  },
  redeliverWebhook: {
    cases: [
      {
        target: "a delivery to the linked client's webhook endpoint",
        side: 'business',
        req: (w) => ({ params: { id: w.webhooks.endpoint, delivery_id: w.webhooks.delivery } }),
      },
      {
        target: "the linked client's delivery, named through the outside client's own endpoint",
        side: 'business',
        control: false,
        req: (w) => ({ params: { id: w.webhooks.outsiderEndpoint, delivery_id: w.webhooks.delivery } }),
      },
    ],
  },

  // ── AI passports (the account's own) and shift deliverables (the parties of the shift) ──
  listShiftDeliverables: { cases: [onShift('worked', 'business', { allow: ['otherParty'] })] },
  recordShiftDeliverable: {
    cases: [
      onShift('worked', 'business', {
        allow: ['otherParty'],
        extra: () => ({ body: { note: 'forged deliverable' } }),
        reread: (w) => ({ as: (x) => x.owner, method: 'GET', path: `/v1/shift_request/${w.shifts.worked}/deliverables` }),
      }),
    ],
  },
  deleteShiftDeliverable: {
    cases: [
      {
        // Only its author deletes it: the business side (the other party here) reads it but is turned away too.
        target: "the crew member's deliverable on the worked shift",
        side: 'shifter',
        req: (w) => ({ params: { id: w.shifts.worked, deliverable_id: w.agentRecords.deliverable } }),
        reread: (w) => ({ as: (x) => x.owner, method: 'GET', path: `/v1/shift_request/${w.shifts.worked}/deliverables` }),
      },
    ],
  },
  uploadShiftDeliverableFile: {
    cases: [
      {
        target: "the crew member's deliverable on the worked shift",
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({ params: { id: w.shifts.worked, deliverable_id: w.agentRecords.deliverable }, form: pdfForm }),
        reread: (w) => ({ as: (x) => x.owner, method: 'GET', path: `/v1/shift_request/${w.shifts.worked}/deliverables` }),
      },
    ],
  },
  getShiftDeliverableFile: {
    cases: [
      {
        target: "the file on the crew member's deliverable",
        side: 'business',
        allow: ['otherParty'],
        req: (w) => ({
          params: { id: w.shifts.worked, deliverable_id: w.agentRecords.deliverable, file_id: w.agentRecords.deliverableFile },
        }),
      },
    ],
  },
};

const entryFor = (o: Operation): Entry | undefined => (o.operationId ? CASES[o.operationId] : undefined) ?? CASES[o.key];
const label = (o: Operation) => (o.operationId ? `${o.key} (${o.operationId})` : o.key);
const isRead = (o: Operation, e: Entry | undefined) => o.method === 'GET' || e?.read === true;
/** The operation's cases: its entry's in CASES, else those its class and TARGETS make. */
const casesOf = (o: Operation, c: AuthorizationClass): Case[] => entryFor(o)?.cases ?? generatedCases(doc, o, c, TARGETS);

let w: VictimWorld;
let storageBefore: Record<string, unknown>;

beforeAll(async () => {
  w = await buildVictimWorld();
  storageBefore = await snapshotStorage();
});

function callerOf(c: Caller, k: Case): TestUser {
  if (c === 'stranger') return w.stranger;
  if (c === 'suspendedTeammate') return w.suspendedTeammate;
  if (c === 'activeTeammate') return w.activeTeammate;
  return k.other?.(w) ?? (k.side === 'business' ? w.crew : w.owner);
}
const ownerOf = (k: Case) => k.owner?.(w) ?? (k.side === 'business' ? w.owner : w.crew);

/**
 * What the class says of the victim business's active teammate on a business-side case: turned away
 * (business-owner), let read (business-member), or not asked.
 */
function teammateRule(c: AuthorizationClass, k: Case): 'refused' | 'reads' | null {
  if (k.side !== 'business' || k.owner) return null;
  if (c === 'business-owner') return 'refused';
  return c === 'business-member' ? 'reads' : null;
}

/** Runs one case; returns what went wrong, one line each. */
async function runCase(o: Operation, e: Entry | undefined, k: Case, c: AuthorizationClass): Promise<string[]> {
  const problems: string[] = [];
  const read = isRead(o, e);
  const before = k.reread ? await reread(w, k.reread(w)) : null;

  let denialsAsked = 0;
  const attempts = CALLERS.map(async (c) => {
    const allowed = k.allow?.includes(c) ?? false;
    if (allowed && !read) return; // a legitimate write is not attempted
    const who = callerOf(c, k);
    const r = k.req(w, who);
    if (!r) return;
    if (!allowed) denialsAsked++;
    const res = await send(o, r, who.key);
    const say = (m: string) => problems.push(`${k.target} / ${c}: ${m}`);
    const leaks = leaked(res, k.hide?.(w, c) ?? []);
    if (leaks.length) say(`the answer reveals ${leaks.join(', ')}`);
    if (allowed) {
      if (!isSuccess(res)) say(`is allowed but answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      const text = JSON.stringify(res.body);
      const absent = (k.show?.(w, c) ?? []).filter((t) => !text.includes(t));
      if (absent.length) say(`the answer lacks ${absent.join(', ')}`);
      return;
    }
    if (k.filter && read && isSuccess(res)) return; // an empty view of the caller's own data (leaks checked above)
    const why = notDenied(res);
    if (why) say(why);
  });
  // The owner's side must succeed on a read, so a denial above is not an artefact of a wrong id.
  const control =
    read && k.control !== false
      ? (async () => {
          const r = k.req(w, ownerOf(k));
          if (!r) return;
          const res = await send(o, r, ownerOf(k).key);
          if (!isSuccess(res))
            problems.push(`${k.target} / owner's control read: answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        })()
      : Promise.resolve();
  // The active teammate sends the owner's request: refused on a business-owner operation, a read that
  // succeeds on a business-member one (a legitimate write is not attempted).
  const rule = teammateRule(c, k);
  const teammate =
    rule === 'refused' || (rule === 'reads' && read && k.control !== false)
      ? (async () => {
          const r = k.req(w, ownerOf(k));
          if (!r) return;
          const res = await send(o, r, w.activeTeammate.key);
          const say = (m: string) => problems.push(`${k.target} / activeTeammate (${c}): ${m}`);
          if (rule === 'reads') {
            if (!isSuccess(res)) say(`may read but answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
            return;
          }
          denialsAsked++;
          const leaks = leaked(res, k.hide?.(w, 'activeTeammate') ?? []);
          if (leaks.length) say(`the answer reveals ${leaks.join(', ')}`);
          if (k.filter && read && isSuccess(res)) return;
          const why = notDenied(res);
          if (why) say(why);
        })()
      : Promise.resolve();
  await Promise.all([...attempts, control, teammate]);
  const mustDeny = CALLERS.filter((c) => !k.allow?.includes(c));
  if (mustDeny.length && denialsAsked === 0)
    problems.push(`${k.target}: no caller attempted it (${mustDeny.join(', ')} should be turned away)`);

  if (k.reread && before) {
    const after = await reread(w, k.reread(w));
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      problems.push(
        `${k.target}: the owner's view changed after the attempts:\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`,
      );
    }
  }
  return problems;
}

const CLASS_NAMES = Object.keys(AUTHORIZATION_CLASSES).join(', ');

describe('authorization across every operation of /v1/openapi.json', () => {
  it('finds the operations in the document', () => {
    expect(OPERATIONS.length).toBeGreaterThan(50);
  });

  it('has no entry in CASES for an operation the document no longer has', () => {
    const known = new Set(OPERATIONS.flatMap((o) => [o.key, ...(o.operationId ? [o.operationId] : [])]));
    expect(Object.keys(CASES).filter((k) => !known.has(k))).toEqual([]);
  });

  for (const o of OPERATIONS) {
    it(label(o), async () => {
      const c = classOf(o);
      if (!c) {
        throw new Error(
          `${label(o)} declares no authorization class (x-authorization: ${JSON.stringify(o.op['x-authorization'])}): ` +
            `give its route contract \`authorization\` (one of ${CLASS_NAMES}; src/http/openapi.ts)`,
        );
      }
      const mismatch = securityMismatch(doc, o, c);
      if (mismatch) throw new Error(`${label(o)}: ${mismatch}`);
      const e = entryFor(o);
      if (c === 'public') {
        if (e) throw new Error(`${label(o)} is public: it has nothing to attack, so it takes no entry in CASES`);
        return;
      }

      // Every id the operation takes is attacked by some case, or deliberately left out with a reason.
      const cases = casesOf(o, c);
      const filled = new Set(cases.flatMap((k) => CALLERS.flatMap((caller) => filledFields(k.req(w, callerOf(caller, k)) ?? {}))));
      const missing = idFields(doc, o).filter((f) => !filled.has(f) && !(e?.notAttacked && f in e.notAttacked));
      expect(
        missing,
        `${label(o)} (${c}) takes ids no case attacks: add its cases to CASES (or notAttacked with a reason), or a target to TARGETS, in test/authorization.test.ts`,
      ).toEqual([]);

      const run = (k: Case) => (c === 'partner' ? runPartnerCase(o, isRead(o, e), k, w) : runCase(o, e, k, c));
      const problems = (await Promise.all(cases.map(run))).flat();
      expect(problems, `${label(o)}:\n${problems.join('\n')}`).toEqual([]);
    });
  }

  it('no attempt changed anything of the victim (D1 rows and R2 objects)', async () => {
    expect(await snapshotStorage()).toEqual(storageBefore);
  });
});

describe('operations on the caller’s own account ignore another user’s id', () => {
  // A self operation that reads must answer about the caller, even when handed the victim's user id.
  const selfReads = OPERATIONS.filter((o) => o.method === 'GET' && classOf(o) === 'self' && casesOf(o, 'self').length === 0);
  for (const o of selfReads) {
    it(label(o), async () => {
      const res = await send(o, { query: { user_id: w.owner.userId } }, w.stranger.key);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      expect(leaked(res, [w.owner.userId, w.owner.email, w.owner.key.slice(0, 12), w.ownerSession, w.invitation])).toEqual([]);
    });
  }
});

describe('teammates join by consent', () => {
  it('adding someone by email neither makes them a teammate nor reveals their account', async () => {
    // The stranger owns a business and names the crew member (a verified user) as a teammate.
    const invitee = w.crew;
    const res = await call('POST', `/v1/business/${w.stranger.businessId}/teammates`, {
      key: w.stranger.key,
      body: { email: invitee.email },
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect(leaked(res, [invitee.userId, 'Crew Member'])).toEqual([]);
    // The answer is the same whether or not the email has an account.
    const unknown = await call('POST', `/v1/business/${w.stranger.businessId}/teammates`, {
      key: w.stranger.key,
      body: { email: `nobody-${crypto.randomUUID()}@example.test` },
    });
    expect(unknown.status).toBe(res.status);

    const details = await call('GET', '/v1/user/details', { key: invitee.key });
    expect(details.body.teammate_of_business_ids).not.toContain(w.stranger.businessId);
    const list = await call('GET', `/v1/business/${w.stranger.businessId}/teammates`, { key: w.stranger.key });
    expect(leaked(list, [invitee.userId, 'Crew Member'])).toEqual([]);
  });
});
