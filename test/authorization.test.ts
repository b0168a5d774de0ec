import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import {
  type Case,
  CALLERS,
  type Caller,
  type Entry,
  filledFields,
  idFields,
  isPublic,
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
  send,
  snapshotStorage,
} from './helpers/authorization';
import type { TestUser } from './helpers/factory';
import { buildVictimWorld, PDF_BYTES, PRIVATE_MESSAGE, PRIVATE_NOTE, type VictimWorld } from './helpers/fixtures';
import { dateAhead, pngBytes } from './helpers/shifts';

/*
 * Every operation of /v1/openapi.json, fetched from the Worker when this file loads, so a route is
 * covered the day it is added: an operation without an entry in TABLE fails. Each operation that
 * takes an id is called by a stranger, a suspended teammate of the victim business and the other
 * party; each must be 403/404 in the error envelope (never 2xx, never 5xx) and change nothing.
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
  access: 'resource',
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

/** The owner's notification and browsers, as the owner reads them. */
const ownerNotificationRead = (w: VictimWorld): Reread => ({
  as: (x) => x.owner,
  method: 'GET',
  path: `/v1/notifications/${w.ownerNotification}`,
});
const ownerPushSubscriptions = (): Reread => ({ as: (x) => x.owner, method: 'GET', path: '/v1/notifications/push_subscriptions' });

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

/**
 * Who may do what, keyed by operationId (or by `METHOD path`: both are looked up, so an operation
 * without an operationId can be classified too).
 */
const TABLE: Record<string, Entry> = {
  // ── Accounts ──
  registerAccount: { access: 'public' },
  verifyEmail: { access: 'public' },
  resendVerification: { access: 'public' },
  login: { access: 'public' },
  completeTwoFactorLogin: { access: 'public' },
  cancelTwoFactorLogin: { access: 'public' },
  requestPasswordReset: { access: 'public' },
  confirmPasswordReset: { access: 'public' },
  logout: { access: 'self' },
  changePassword: { access: 'self' },
  listSessions: { access: 'self' },
  revokeOtherSessions: { access: 'self' },
  revokeSession: {
    access: 'resource',
    cases: [
      {
        target: "the owner's sign-in session",
        side: 'business',
        req: (w) => ({ params: { id: w.ownerSession } }),
        reread: () => ({ as: (x) => x.owner, method: 'GET', path: '/v1/user/sessions' }),
      },
    ],
  },
  getUserDetails: {
    access: 'self',
    cases: [
      { target: "the owner's account", side: 'business', req: (w) => ({ query: { user_id: w.owner.userId } }) },
      { target: "the crew member's account", side: 'shifter', req: (w) => ({ query: { user_id: w.crew.userId } }) },
    ],
  },
  updateUserDetails: { access: 'self' },
  getApiKey: { access: 'self' },
  getAgentSettings: { access: 'self' },
  updateAgentSettings: { access: 'self' },
  listAgentGrants: { access: 'self' },
  revokeAgentGrant: {
    access: 'self',
    cases: [
      {
        target: "the owner's connected app (OAuth grant)",
        side: 'business',
        req: (w) => ({ params: { grant_id: w.agentGrant } }),
        reread: () => ({ as: (x) => x.owner, method: 'GET', path: '/v1/user/agent_grants' }),
      },
    ],
  },
  regenerateApiKey: { access: 'self' },
  getShifterOfUser: {
    access: 'self',
    cases: [{ target: "the crew member's shifter profile", side: 'shifter', req: (w) => ({ query: { user_id: w.crew.userId } }) }],
  },
  createShifterProfile: { access: 'self' },
  listBusinessesOfUser: {
    access: 'self',
    cases: [{ target: "the owner's businesses", side: 'business', req: (w) => ({ query: { user_id: w.owner.userId } }) }],
  },
  createBusiness: { access: 'self' },
  grantAdmin: {
    access: 'admin',
    cases: [{ target: 'admin rights for oneself', side: 'business', control: false, req: (_w, c) => ({ body: { user_id: c.userId } }) }],
  },

  // ── Teammates ──
  makeDefaultBusiness: { access: 'resource', cases: [onBusiness(() => ({}), { reread: ownerBusinesses })] },
  listTeammates: { access: 'resource', cases: [onBusiness()] },
  inviteTeammate: {
    access: 'resource',
    cases: [
      onBusiness((_w, c) => ({ body: { email: c.email } }), { target: 'the victim business (inviting oneself)', reread: teammatesOf }),
    ],
  },
  listTeammateInvitations: { access: 'resource', cases: [onBusiness()] },
  revokeTeammateInvitation: {
    access: 'resource',
    cases: [
      {
        target: "the business's invitation",
        side: 'business',
        req: (w) => ({ params: { id: w.business, invitation_id: w.invitation } }),
        reread: invitationsOf,
      },
      {
        target: "the business's invitation under the caller's own business",
        side: 'business',
        req: (w, c) => (c.businessId && c.businessId !== w.business ? { params: { id: c.businessId, invitation_id: w.invitation } } : null),
        reread: invitationsOf,
      },
    ],
  },
  // Only the invitee answers an invitation: not the business that sent it, nor anyone else.
  listMyTeammateInvitations: { access: 'self' },
  acceptTeammateInvitation: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
    cases: [
      onShift('accepted', 'business', { allow: ['otherParty'] }),
      onShift('pending', 'business', { allow: ['otherParty'] }),
      onShift('broadcast', 'business', { allow: ['otherParty'] }),
    ],
  },
  acceptShiftRequest: { access: 'resource', cases: [onShift('pending', 'shifter'), onShift('broadcast', 'shifter')] },
  declineShiftRequest: {
    access: 'resource',
    cases: [onShift('pending', 'shifter', { extra: () => ({ body: { reason: 'not mine to decline' } }) })],
  },
  claimShiftRequest: { access: 'resource', cases: [onShift('broadcast', 'shifter')] },
  markShiftNoShow: { access: 'resource', cases: [onShift('started', 'business')] },
  cancelShiftRequest: {
    access: 'resource',
    cases: [onShift('accepted', 'business', { allow: ['otherParty'], extra: () => ({ body: { reason: 'hijack' } }) })],
  },
  clockIn: {
    access: 'resource',
    // The shifter clocks in, or the business as a kiosk passing the shifter's id.
    cases: [onShift('started', 'shifter', { allow: ['otherParty'], extra: (w) => ({ body: { actor_id: w.crewShifter } }) })],
  },
  clockOut: {
    access: 'resource',
    cases: [onShift('inProgress', 'shifter', { allow: ['otherParty'], extra: (w) => ({ body: { actor_id: w.crewShifter } }) })],
  },
  uploadClockPhoto: {
    access: 'resource',
    cases: [onShift('started', 'shifter', { allow: ['otherParty'], extra: () => ({ query: { side: 'in' }, form: pngForm }) })],
  },
  getClockPhoto: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
    read: true,
    cases: [{ target: "the business's connections", side: 'business', req: (w) => ({ body: { business_id: w.business } }) }],
  },

  // ── Messaging ── (a thread's parties act on their own side; nobody else learns more than that it exists)
  getMessagingInbox: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
    access: 'admin',
    cases: [{ target: 'the support queue', side: 'business', control: false, req: () => ({}), hide: () => ['Paid late'] }],
  },

  // ── Templates ──
  listShiftTemplates: { access: 'resource', cases: [onBusiness()] },
  createShiftTemplate: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
    cases: [{ target: "the business's template", side: 'business', req: (w) => ({ params: { id: w.template } }), reread: templatesOf }],
  },
  previewShiftsFromTemplate: {
    access: 'resource',
    cases: [{ target: "the business's template", side: 'business', req: (w) => ({ params: { id: w.template }, query: { weeks: 2 } }) }],
  },
  generateShiftsFromTemplate: {
    access: 'resource',
    cases: [
      {
        target: "the business's template",
        side: 'business',
        req: (w) => ({ params: { id: w.template }, query: { weeks: 1 } }),
        reread: businessShifts,
      },
    ],
  },

  // ── Business settings and figures ──
  updateBusinessSettings: {
    access: 'resource',
    cases: [
      {
        target: "the business's settings",
        side: 'business',
        req: (w) => ({ body: { business_id: w.business, name: 'Hijacked', weekly_labor_budget: 1, require_clock_photo: false } }),
        reread: ownerBusinesses,
      },
    ],
  },
  getLaborCosts: { access: 'resource', cases: [onBusiness()] },
  setWeeklyLaborBudget: {
    access: 'resource',
    cases: [onBusiness(() => ({ body: { weekly_labor_budget: 1 } }), { reread: ownerBusinesses })],
  },
  getCrewAnalytics: {
    access: 'resource',
    cases: [{ target: 'the victim business', side: 'business', req: (w) => ({ params: { business_id: w.business } }) }],
  },
  getGoingRate: { access: 'signed-in' },

  // ── Invoices ── (the business owner or an admin only; an active teammate is refused too)
  listInvoices: {
    access: 'resource',
    cases: [{ target: "the victim business's invoices", side: 'business', req: (w) => ({ query: { business_id: w.business } }) }],
  },
  exportInvoicesCsv: {
    access: 'resource',
    cases: [{ target: "the victim business's invoice export", side: 'business', req: (w) => ({ query: { business_id: w.business } }) }],
  },
  // Stripe calls it, signed (Stripe-Signature), never with a bearer token.
  receiveStripeWebhook: { access: 'public' },
  // The payment simulator's stand-ins for Stripe.js and hosted onboarding (only without Stripe keys).
  confirmSimulatorSetupIntent: {
    access: 'resource',
    cases: [
      {
        target: "the business's SetupIntent (saving a card to its customer)",
        side: 'business',
        req: (w) => ({ params: { id: w.paymentSimulator.setupIntent }, body: { test_token: 'pm_card_visa' } }),
      },
    ],
  },
  completeSimulatorOnboarding: {
    access: 'resource',
    cases: [
      { target: "the crew member's connected account", side: 'shifter', req: (w) => ({ params: { id: w.paymentSimulator.account } }) },
    ],
  },
  chargeInvoice: {
    access: 'resource',
    cases: [{ target: "the victim business's invoice", side: 'business', req: (w) => ({ params: { invoiceId: w.invoice } }) }],
  },
  prepayShift: { access: 'resource', cases: [onShift('accepted', 'business')] },

  // ── Saved cards ── (the business owner or an admin only; an active teammate is refused too)
  createPaymentMethodSetupIntent: { access: 'resource', cases: [onBusiness()] },
  savePaymentMethod: { access: 'resource', cases: [onBusiness(() => ({ body: { setup_intent_id: 'seti_attacker' } }))] },
  listPaymentMethods: { access: 'resource', cases: [onBusiness()] },
  setDefaultPaymentMethod: {
    access: 'resource',
    cases: [
      {
        target: "the victim business's card",
        side: 'business',
        req: (w) => ({ params: { id: w.business, payment_method_id: 'pm_card_visa' } }),
      },
    ],
  },
  deletePaymentMethod: {
    access: 'resource',
    cases: [
      {
        target: "the victim business's card",
        side: 'business',
        req: (w) => ({ params: { id: w.business, payment_method_id: 'pm_card_visa' } }),
      },
    ],
  },

  // ── Refunds and payouts ── (a refund: the invoice's business owner or an admin; a payout account: its shifter, an admin may read)
  refundInvoice: {
    access: 'resource',
    cases: [
      {
        target: "the victim business's invoice",
        side: 'business',
        req: (w) => ({ params: { invoiceId: w.invoice }, body: { amount: 1 } }),
      },
    ],
  },
  startPayoutOnboarding: { access: 'self' },
  getPayoutAccount: {
    access: 'resource',
    cases: [{ target: "the crew member's payout account", side: 'shifter', req: (w) => ({ query: { shifter_id: w.crewShifter } }) }],
  },

  // ── Reviews ── (public to any signed-in user: profiles show them; only the parties write)
  createReview: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
    cases: [publicReviewRead('the average of the business', (w) => ({ review_on: 'business', review_on_id: w.business }))],
  },
  getReviewAverages: { access: 'signed-in', read: true },
  getReviewHistogram: {
    access: 'resource',
    cases: [publicReviewRead('the histogram of the crew member', (w) => ({ review_on: 'shifter', review_on_id: w.crewShifter }))],
  },
  getReviewTrend: {
    access: 'resource',
    cases: [publicReviewRead('the trend of the business', (w) => ({ review_on: 'business', review_on_id: w.business, days: 7 }))],
  },
  // Only the reviewed party answers or disputes: not the reviewer (the other party), nor anyone else.
  respondToReview: {
    access: 'resource',
    cases: [
      onReview('ofBusiness', 'business', { response_text: 'Hijacked response' }),
      onReview('ofShifter', 'shifter', { response_text: 'Hijacked response' }),
    ],
  },
  disputeReview: {
    access: 'resource',
    cases: [
      onReview('ofBusiness', 'business', { reason: 'Hijacked dispute' }),
      onReview('ofShifter', 'shifter', { reason: 'Hijacked dispute' }),
    ],
  },
  resolveReviewDispute: {
    access: 'admin',
    cases: [
      {
        ...onReview('ofBusiness', 'business'),
        control: false,
        req: (w) => ({ query: { review_id: w.reviews.ofBusiness, decision: 'upheld' } }),
      },
    ],
  },
  listReviewDisputes: { access: 'admin' },

  // ── Business assistant ──
  getBusinessAssistantChat: {
    access: 'resource',
    cases: [{ target: 'the victim business', side: 'business', req: (w) => ({ params: { business_id: w.business } }) }],
  },
  sendBusinessAssistantMessage: {
    access: 'resource',
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
  // Reading help content needs no account; a vote is always the caller's own, on public content.
  searchHelp: { access: 'public' },
  listHelpArticles: { access: 'public' },
  getHelpArticle: { access: 'public' },
  listHelpVideos: { access: 'public' },
  getHelpVideo: { access: 'public' },
  sendHelpArticleFeedback: {
    access: 'signed-in',
    notAttacked: { id: "a help article is public content; the vote recorded is always the caller's own" },
  },
  // A help conversation is its owner's alone: nobody else may ask in it or escalate it (404).
  askHelp: {
    access: 'resource',
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
    access: 'resource',
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
  getEarnings: { access: 'resource', cases: [onShifter()] },
  setEarningsGoal: {
    access: 'resource',
    cases: [onShifter(() => ({ body: { monthly_earnings_goal: 1 } }), { reread: crewProfile })],
  },
  listMileageEntries: { access: 'resource', cases: [onShifter()] },
  createMileageEntry: {
    access: 'resource',
    cases: [onShifter(() => ({ body: { log_date: dateAhead(-1), miles: 999 } }), { reread: crewRead('/mileage') })],
  },
  getMileageEntry: { access: 'resource', cases: onRecord('entry_id', (w) => w.mileage) },
  updateMileageEntry: {
    access: 'resource',
    cases: onRecord('entry_id', (w) => w.mileage, { extra: () => ({ body: { miles: 999 } }), reread: crewRead('/mileage') }),
  },
  replaceMileageEntry: {
    access: 'resource',
    cases: onRecord('entry_id', (w) => w.mileage, { extra: () => ({ body: { miles: 999 } }), reread: crewRead('/mileage') }),
  },
  deleteMileageEntry: { access: 'resource', cases: onRecord('entry_id', (w) => w.mileage, { reread: crewRead('/mileage') }) },
  listCounterRules: { access: 'resource', cases: [onShifter()] },
  createCounterRule: {
    access: 'resource',
    cases: [onShifter(() => ({ body: { label: 'Forged', min_hourly_rate: 1 } }), { reread: crewRead('/counter_rules') })],
  },
  suggestCounterRate: {
    access: 'resource',
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
  getCounterRule: { access: 'resource', cases: onRecord('rule_id', (w) => w.counterRule) },
  updateCounterRule: {
    access: 'resource',
    cases: onRecord('rule_id', (w) => w.counterRule, {
      extra: () => ({ body: { label: 'Hijacked' } }),
      reread: crewRead('/counter_rules'),
    }),
  },
  deleteCounterRule: {
    access: 'resource',
    cases: onRecord('rule_id', (w) => w.counterRule, { reread: crewRead('/counter_rules') }),
  },
  listCredentials: {
    access: 'resource',
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
    access: 'resource',
    cases: [onShifter(() => ({ body: { label: 'Forged licence' } }), { reread: crewRead('/credentials') })],
  },
  getCredential: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
    cases: [
      ...onRecord('credential_id', (w) => w.hiddenCredential, { reread: crewRead('/credentials') }),
      ...onRecord('credential_id', (w) => w.visibleCredential, { reread: crewRead('/credentials') }),
    ],
  },
  uploadCredentialDocument: {
    access: 'resource',
    cases: [
      ...onRecord('credential_id', (w) => w.hiddenCredential, { extra: () => ({ form: pdfForm }), reread: crewRead('/credentials') }),
      ...onRecord('credential_id', (w) => w.visibleCredential, { extra: () => ({ form: pdfForm }), reread: crewRead('/credentials') }),
    ],
  },
  getCredentialDocument: {
    access: 'resource',
    cases: onRecord('credential_id', (w) => w.hiddenCredential),
  },
  deleteCredentialDocument: {
    access: 'resource',
    cases: onRecord('credential_id', (w) => w.hiddenCredential, {
      reread: (w) => ({
        as: (x) => x.crew,
        method: 'GET',
        path: `/v1/shifter/${w.crewShifter}/credentials/${w.hiddenCredential}/document`,
      }),
    }),
  },

  // ── Notifications ──
  listNotifications: { access: 'self' },
  markAllNotificationsRead: { access: 'self' },
  getNotificationPreferences: { access: 'self' },
  updateNotificationPreferences: { access: 'self' },
  listPushSubscriptions: { access: 'self' },
  registerPushSubscription: { access: 'self' },
  getNotification: {
    access: 'resource',
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
    access: 'resource',
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
  unregisterPushSubscription: {
    access: 'resource',
    cases: [
      {
        target: "the owner's browser",
        side: 'business',
        req: (w) => ({ params: { id: w.ownerPushSubscription } }),
        reread: ownerPushSubscriptions,
      },
    ],
  },
  listNotificationDeliveries: {
    access: 'admin',
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
  createPartnerClient: { access: 'self' },
  listPartnerClients: { access: 'self' },
  getPartnerClient: { access: 'resource', cases: [onPartnerClient()] },
  updatePartnerClient: { access: 'resource', cases: [onPartnerClient({ body: { status: 'disabled', scopes: ['shifts:read'] } })] },
  rotatePartnerApiKey: { access: 'resource', cases: [onPartnerClient()] },
  rotatePartnerClientSecret: { access: 'resource', cases: [onPartnerClient()] },
  issuePartnerToken: {
    access: 'self',
    notAttacked: {
      client_id:
        "the client proves itself with its own secret; an unknown client, a wrong or another client's secret is invalid_client (test/partner-api.test.ts)",
    },
  },
  linkPartnerClient: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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
  unlinkPartnerClient: {
    access: 'resource',
    cases: [
      {
        target: "the business's partner link",
        side: 'business',
        req: (w) => ({ params: { business_id: w.business, client_id: w.partners.linked.clientId } }),
        reread: partnerLinksOf,
      },
      {
        target: "the business's partner link under the caller's own business",
        side: 'business',
        req: (w, c) =>
          c.businessId && c.businessId !== w.business
            ? { params: { business_id: c.businessId, client_id: w.partners.linked.clientId } }
            : null,
        reread: partnerLinksOf,
      },
    ],
  },
  listPartnerBusinesses: {
    access: 'partner',
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
    access: 'partner',
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
    access: 'partner',
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
    access: 'partner',
    cases: [onPartnerBusiness({ show: (w) => [w.shifts.broadcast], hide: (w) => allShiftIds(w) })],
  },
  listPartnerShifters: {
    access: 'partner',
    cases: [onPartnerBusiness({ show: (w) => [w.crewShifter], hide: (w) => [w.crewShifter, 'Crew Member'] })],
  },

  // ── Partner webhooks ── (an endpoint and its deliveries belong to the client that made them)
  // Registers an endpoint of the calling client; it takes no one's id.
  createWebhookEndpoint: { access: 'self' },
  listWebhookEndpoints: {
    access: 'partner',
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
  deleteWebhookEndpoint: { access: 'partner', cases: [onWebhookEndpoint()] },
  rotateWebhookSecret: { access: 'partner', cases: [onWebhookEndpoint({ body: { previous_secret_valid_for_seconds: 0 } })] },
  enableWebhookEndpoint: { access: 'partner', cases: [onWebhookEndpoint()] },
  sendWebhookTestEvent: { access: 'partner', cases: [onWebhookEndpoint()] },
  listWebhookDeliveries: {
    access: 'partner',
    cases: [{ ...onWebhookEndpoint(), show: (w) => [w.webhooks.delivery], hide: (w) => [w.webhooks.delivery] }],
  },
  redeliverWebhook: {
    access: 'partner',
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
  recordAiPassport: { access: 'self' },
  listAiPassports: { access: 'self' },
  revokeAiPassport: {
    access: 'resource',
    cases: [
      {
        target: "the owner's AI passport",
        side: 'business',
        req: (w) => ({ params: { id: w.agentRecords.passport } }),
        reread: () => ({ as: (x) => x.owner, method: 'GET', path: '/v1/ai_passports' }),
      },
    ],
  },
  listShiftDeliverables: { access: 'resource', cases: [onShift('worked', 'business', { allow: ['otherParty'] })] },
  recordShiftDeliverable: {
    access: 'resource',
    cases: [
      onShift('worked', 'business', {
        allow: ['otherParty'],
        extra: () => ({ body: { note: 'forged deliverable' } }),
        reread: (w) => ({ as: (x) => x.owner, method: 'GET', path: `/v1/shift_request/${w.shifts.worked}/deliverables` }),
      }),
    ],
  },
  deleteShiftDeliverable: {
    access: 'resource',
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
    access: 'resource',
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
    access: 'resource',
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

const entryFor = (o: Operation): Entry | undefined => (o.operationId ? TABLE[o.operationId] : undefined) ?? TABLE[o.key];
const label = (o: Operation) => (o.operationId ? `${o.key} (${o.operationId})` : o.key);
const isRead = (o: Operation, e: Entry) => o.method === 'GET' || e.read === true;

let w: VictimWorld;
let storageBefore: Record<string, unknown>;

beforeAll(async () => {
  w = await buildVictimWorld();
  storageBefore = await snapshotStorage();
});

function callerOf(c: Caller, k: Case): TestUser {
  if (c === 'stranger') return w.stranger;
  if (c === 'suspendedTeammate') return w.suspendedTeammate;
  return k.other?.(w) ?? (k.side === 'business' ? w.crew : w.owner);
}
const ownerOf = (k: Case) => k.owner?.(w) ?? (k.side === 'business' ? w.owner : w.crew);

/** Runs one case; returns what went wrong, one line each. */
async function runCase(o: Operation, e: Entry, k: Case): Promise<string[]> {
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
  await Promise.all([...attempts, control]);
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

describe('authorization across every operation of /v1/openapi.json', () => {
  it('finds the operations in the document', () => {
    expect(OPERATIONS.length).toBeGreaterThan(50);
  });

  it('has no table entry for an operation the document no longer has', () => {
    const known = new Set(OPERATIONS.flatMap((o) => [o.key, ...(o.operationId ? [o.operationId] : [])]));
    expect(Object.keys(TABLE).filter((k) => !known.has(k))).toEqual([]);
  });

  for (const o of OPERATIONS) {
    it(label(o), async () => {
      const e = entryFor(o);
      if (!e) throw new Error(`${label(o)} has no entry: classify this operation in test/authorization.test.ts`);

      const documentedPublic = isPublic(doc, o);
      if (documentedPublic !== (e.access === 'public')) {
        throw new Error(
          `${label(o)}: the table says ${e.access}, the document says ${documentedPublic ? 'public (no bearer requirement)' : 'bearer required'}`,
        );
      }
      if (e.access === 'public') return;

      // Every id the operation takes is attacked by some case, or deliberately left out with a reason.
      const cases = e.cases ?? [];
      const filled = new Set(cases.flatMap((k) => CALLERS.flatMap((c) => filledFields(k.req(w, callerOf(c, k)) ?? {}))));
      const missing = idFields(doc, o).filter((f) => !filled.has(f) && !(e.notAttacked && f in e.notAttacked));
      expect(
        missing,
        `${label(o)} takes ids no case attacks: add cases (or notAttacked with a reason) in test/authorization.test.ts`,
      ).toEqual([]);

      const run = (k: Case) => (e.access === 'partner' ? runPartnerCase(o, isRead(o, e), k, w) : runCase(o, e, k));
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
  const selfReads = OPERATIONS.filter((o) => o.method === 'GET' && entryFor(o)?.access === 'self' && !entryFor(o)?.cases?.length);
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
