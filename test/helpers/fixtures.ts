import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { PARTNER_SCOPES } from '../../src/db/schema/partners';
import { newId } from '../../src/lib/ids';
import { escalateSupportThread, openSupportThread } from '../../src/services/messaging';
import { SimulatorGateway } from '../../src/local/payment-simulator';
import { call } from './api';
import { contextAt } from './clock';
import { addTeammate, connect, makeUser, TEST_PASSWORD, type TestUser } from './factory';
import { oauthTokens } from './mcp';
import { daysFromToday, insertShift as insertHistoryRow } from './rows';
import { dateAhead, HOUR, insertShift, MINUTE, NY, pngBytes } from './shifts';
import { approveShiftTime, submittedTimesheet } from './timesheets';

/** A small but real PDF, for a credential document. */
export const PDF_BYTES = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** Text only the parties may ever see, to search answers for. */
export const PRIVATE_NOTE = 'private-note-for-the-other-business';
/** The first message of the business's thread with the crew member. */
export const PRIVATE_MESSAGE = 'private-message-between-the-parties';

/**
 * One business and its shifter with everything an attacker might reach for, plus the attackers.
 *
 * - owner: owns `business` (New York); activeTeammate (status 1) and suspendedTeammate (status 0) of it;
 * - crew: a shifter connected to the business, with a mileage entry, a counter rule, a visible and a
 *   hidden credential (the hidden one with a PDF document), and shifts in every state;
 * - applicant: a shifter whose connection request to the business is pending;
 * - elsewhere: another business the crew member is connected to and works an accepted shift for,
 *   next to the victim business's accepted shift (what the conflicts endpoint must not reveal);
 * - invitee: a verified user the owner invited to join the team (not answered yet);
 * - stranger: a verified user with a shifter and a business profile, related to nobody.
 * The owner also has a sign-in session.
 */
export interface VictimWorld {
  owner: TestUser;
  business: string;
  activeTeammate: TestUser;
  suspendedTeammate: TestUser;
  crew: TestUser;
  crewShifter: string;
  applicant: TestUser;
  invitee: TestUser;
  stranger: TestUser;
  /** The crew member's accepted shift at another business; `busy` is its start and end as the API writes them. */
  elsewhere: { owner: TestUser; business: string; shift: string; busy: { starts_at: string; ends_at: string } };
  connection: string;
  pendingConnection: string;
  /** The owner's invitation of the invitee (the answer's id: an invitation, or a teammate where adding is immediate). */
  invitation: string;
  /** The business's crew invitation to an address with no account (pending), and its crew join link. */
  crewInvite: string;
  /** A live sign-in session of the owner. */
  ownerSession: string;
  /** An in-app notification of the owner, and a browser the owner registered for Web Push. */
  ownerNotification: string;
  ownerPushSubscription: string;
  shifts: {
    /** Targeted at the crew member, pending, two days ahead. */
    pending: string;
    /** An open broadcast three days ahead. */
    broadcast: string;
    /** Accepted by the crew member, four days ahead 09:00–13:00 (the conflicts window's day). */
    accepted: string;
    /** Accepted, started 30 minutes ago, not clocked in (clock-in window open; no-show markable). */
    started: string;
    /** Accepted and clocked in two hours ago, ends in two hours. */
    inProgress: string;
    /** Worked three days ago. */
    worked: string;
  };
  /** The worked shift's invoice (pending; the business has no card). */
  invoice: string;
  /** A timesheet submitted by the crew member two days ago, awaiting approval (no invoice). */
  timesheet: string;
  /** A window on the accepted shift's day that covers it and the crew member's shift elsewhere. */
  conflictWindow: { date: string; shift_in: string; shift_out: string };
  template: string;
  mileage: string;
  counterRule: string;
  visibleCredential: string;
  hiddenCredential: string;
  clockPhoto: { shift: string; side: 'in'; file: string };
  /** Reviews pinned to the worked shift: the crew member's of the business, and the owner's of the crew member. */
  reviews: { ofBusiness: string; ofShifter: string };
  /** The crew member's help conversation (support_ai), started by asking the help assistant. */
  helpConversation: string;
  /**
   * Partner clients with every scope: `linked`, registered by the owner and linked to the business;
   * `outsider`, registered by the stranger and linked to the stranger's business only.
   */
  partners: { linked: PartnerKey; outsider: PartnerKey };
  /**
   * The direct thread of the business and the crew member (the owner wrote PRIVATE_MESSAGE, the crew
   * member accepted), and the crew member's support thread, escalated to the support team.
   */
  messaging: { thread: string; supportThread: string };
  /**
   * Partner webhooks: the linked client's endpoint with one finished delivery, and the outside
   * client's own endpoint (subscribed to invoice.paid only, which nothing produces yet, so the
   * world's own events never reach them).
   */
  webhooks: { endpoint: string; delivery: string; outsiderEndpoint: string };
  /** The payment simulator's SetupIntent for the business (not confirmed) and the crew member's connected account (not onboarded). */
  paymentSimulator: { setupIntent: string; account: string };
  /** The owner's AI passport, the crew member's deliverable on the worked shift, and a PDF attached to it. */
  agentRecords: { passport: string; deliverable: string; deliverableFile: string };
  /** The owner's OAuth grant: an app connected to the agent tool server through the consent page. */
  agentGrant: string;
}

/** A partner client and its x-api-key. */
export interface PartnerKey {
  clientId: string;
  apiKey: string;
}

function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`fixture: ${what} is missing`);
  return value;
}

async function created<T extends { id: string }>(res: Promise<{ status: number; body: unknown }>, what: string): Promise<T> {
  const r = await res;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(200);
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body as T;
}

/** Builds the victim world straight in D1 (and through the API where that is simpler). Dates are relative to now. */
export async function buildVictimWorld(): Promise<VictimWorld> {
  const [owner, activeTeammate, suspendedTeammate, crew, applicant, invitee, stranger, otherOwner] = await Promise.all([
    makeUser({ business: true, name: 'Victim Owner' }),
    makeUser({ name: 'Active Teammate' }),
    makeUser({ name: 'Suspended Teammate' }),
    makeUser({ shifter: { timezone: NY }, name: 'Crew Member' }),
    makeUser({ shifter: true, name: 'Applicant' }),
    makeUser({ name: 'Invitee' }),
    makeUser({ shifter: true, business: true, name: 'Stranger' }),
    makeUser({ business: true, name: 'Other Owner' }),
  ]);
  const business = must(owner.businessId, "the owner's business");
  const crewShifter = must(crew.shifterId, "the crew member's shifter profile");
  const elsewhere = must(otherOwner.businessId, "the other owner's business");
  await Promise.all([
    addTeammate(business, activeTeammate.userId, 1),
    addTeammate(business, suspendedTeammate.userId, 0),
    connect(business, crewShifter),
    connect(elsewhere, crewShifter),
  ]);

  const now = Date.now();
  const day4 = dateAhead(4);
  const [pending, broadcast, accepted, started, inProgress, elsewhereShift] = await Promise.all([
    insertShift({ businessId: business, shifterId: crewShifter, date: dateAhead(2), in: '09:00', out: '17:00', status: 1 }),
    insertShift({ businessId: business, date: dateAhead(3), in: '10:00', out: '14:00', status: 1, broadcast: true }),
    insertShift({ businessId: business, shifterId: crewShifter, date: day4, in: '09:00', out: '13:00' }),
    insertShift({ businessId: business, shifterId: crewShifter, startsAt: now - 30 * MINUTE, minutes: 4 * 60 }),
    insertShift({
      businessId: business,
      shifterId: crewShifter,
      startsAt: now - 2 * HOUR,
      minutes: 4 * 60,
      set: { shift_start_at: now - 2 * HOUR, shift_start_by_id: crew.userId },
    }),
    insertShift({
      businessId: elsewhere,
      shifterId: crewShifter,
      date: day4,
      in: '14:00',
      out: '20:00',
      rateMinor: 5500,
      set: { note: PRIVATE_NOTE },
    }),
  ]);
  const worked = await insertHistoryRow({
    businessId: business,
    shifterId: crewShifter,
    date: daysFromToday(-3, NY),
    in: '09:00',
    out: '17:00',
    rate: 2000,
    tz: NY,
  });
  const invoice = (await approveShiftTime(owner, worked)).id;
  const submitted = await insertHistoryRow({
    businessId: business,
    shifterId: crewShifter,
    date: daysFromToday(-2, NY),
    in: '09:00',
    out: '17:00',
    rate: 2000,
    tz: NY,
  });
  const timesheet = await submittedTimesheet(submitted);

  // The clock photo of the shift in progress, as clock_photo would have stored it.
  const photoFile = `${newId('upload')}.png`;
  await env.UPLOADS.put(`clock-photos/${inProgress.id}/in/${photoFile}`, pngBytes(), { httpMetadata: { contentType: 'image/png' } });

  const records = `/v1/shifter/${crewShifter}`;
  const [pendingConnection, invitation, template, mileage, counterRule, visibleCredential, hiddenCredential] = await Promise.all([
    created<{ id: string }>(
      call('POST', '/v1/request_authorization/send', { key: applicant.key, body: { business_id: business } }),
      'applicant asks to connect',
    ),
    created<{ id: string }>(
      call('POST', `/v1/business/${business}/teammates`, { key: owner.key, body: { email: invitee.email } }),
      'invitation',
    ),
    created<{ id: string }>(
      call('POST', '/v1/shift_templates/create', {
        key: owner.key,
        body: {
          business_id: business,
          label: 'Weekday lunch',
          days_of_week: '1,3,5',
          shift_in: '11:00',
          shift_out: '15:00',
          shiftrole_id: 1,
          hourly_rate: 18.5,
        },
      }),
      'template',
    ),
    created<{ id: string }>(
      call('POST', `${records}/mileage`, { key: crew.key, body: { log_date: daysFromToday(-2, NY), miles: 12.5, purpose: 'Site visit' } }),
      'mileage',
    ),
    created<{ id: string }>(
      call('POST', `${records}/counter_rules`, { key: crew.key, body: { label: 'Evenings', min_hourly_rate: 24 } }),
      'counter rule',
    ),
    created<{ id: string }>(
      call('POST', `${records}/credentials`, { key: crew.key, body: { label: 'Food handler card' } }),
      'visible credential',
    ),
    created<{ id: string }>(
      call('POST', `${records}/credentials`, { key: crew.key, body: { label: 'Medical certificate', is_visible: false } }),
      'hidden credential',
    ),
  ]);
  const crewInvite = await call('POST', '/v1/request_authorization/invite', {
    key: owner.key,
    body: { business_id: business, email: `crew-invite-${crypto.randomUUID()}@example.test` },
  });
  expect(crewInvite.status, `crew invitation: ${JSON.stringify(crewInvite.body)}`).toBe(202);
  const joinLink = await call('POST', '/v1/request_authorization/join_link/rotate', { key: owner.key, body: { business_id: business } });
  expect(joinLink.status, `crew join link: ${JSON.stringify(joinLink.body)}`).toBe(200);
  const form = new FormData();
  form.append('file', new File([PDF_BYTES], 'certificate.pdf', { type: 'application/pdf' }));
  await created(
    call('POST', `${records}/credentials/${hiddenCredential.id}/document`, { key: crew.key, body: form }),
    'credential document',
  );

  const [ofBusiness, ofShifter] = await Promise.all([
    created<{ id: string }>(
      call('POST', '/v1/review', {
        key: crew.key,
        body: { review_on: 'business', review_on_id: business, rating: 4, review_text: 'Good shifts', shift_request_id: worked },
      }),
      'review of the business',
    ),
    created<{ id: string }>(
      call('POST', '/v1/review', {
        key: owner.key,
        body: { review_on: 'shifter', review_on_id: crewShifter, review_by_id: business, rating: 5, shift_request_id: worked },
      }),
      'review of the crew member',
    ),
  ]);

  const login = await call('POST', '/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const session = must(
    await env.DB.prepare('SELECT id FROM sessions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1')
      .bind(owner.userId)
      .first<{ id: string }>(),
    "the owner's session",
  );

  const asked = await call('POST', '/v1/help/ask', { key: crew.key, body: { question: 'How do I clock in?' } });
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  const helpConversation = must(asked.body.conversation_id as string | undefined, 'the help conversation');

  const ownerNotification = newId('notification');
  await env.DB.prepare('INSERT INTO notifications (id, dedupe_key, user_id, kind, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(
      ownerNotification,
      `fixture:${ownerNotification}`,
      owner.userId,
      'clock_in',
      'The crew member clocked in',
      'owner-notification-body',
      Date.now(),
    )
    .run();
  const ownerPushSubscription = (
    await created<{ id: string }>(
      call('POST', '/v1/notifications/push_subscriptions', {
        key: owner.key,
        body: { endpoint: 'https://push.example.test/owner-browser', keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } },
      }),
      "the owner's push subscription",
    )
  ).id;

  const [listed] = (await call('POST', '/v1/request_authorization/list_of_requests', { key: owner.key, body: { business_id: business } }))
    .body.accepted as Array<{ id: string; shifter_id: string }>;
  const connection = must(listed, 'the accepted connection');
  expect(connection.shifter_id).toBe(crewShifter);

  const dm = await call('POST', '/v1/messaging/messages', {
    key: owner.key,
    body: { to: { kind: 'shifter', id: crewShifter }, body: PRIVATE_MESSAGE },
  });
  expect(dm.status, JSON.stringify(dm.body)).toBe(201);
  const messageThread = must(dm.body.thread?.id as string | undefined, 'the direct thread');
  expect((await call('POST', `/v1/messaging/threads/${messageThread}/accept`, { key: crew.key })).status).toBe(200);
  const support = await openSupportThread(contextAt(Date.now(), crew), {
    kind: 'support_ai',
    ownerUserId: crew.userId,
    subject: 'Paid late',
  });
  await escalateSupportThread(contextAt(Date.now(), crew), support.id);

  const partnerOf = async (user: TestUser, businessId: string, name: string): Promise<PartnerKey> => {
    const c = await created<{ id: string; api_key: string }>(
      call('POST', '/v1/partner/clients', { key: user.key, body: { name, scopes: [...PARTNER_SCOPES] } }),
      name,
    );
    await created(call('POST', `/v1/business/${businessId}/partners`, { key: user.key, body: { client_id: c.id } }), `${name}'s link`);
    return { clientId: c.id, apiKey: c.api_key };
  };
  const partners = {
    linked: await partnerOf(owner, business, 'Victim Integration'),
    outsider: await partnerOf(stranger, must(stranger.businessId, "the stranger's business"), 'Outside Integration'),
  };
  const webhookEndpointOf = async (apiKey: string, what: string) =>
    (
      await created(
        call('POST', '/v1/partner/webhooks/endpoints', {
          headers: { 'x-api-key': apiKey },
          body: { url: 'https://receiver.victim.example/in', event_types: ['invoice.paid'] },
        }),
        what,
      )
    ).id;
  const webhookEndpoint = await webhookEndpointOf(partners.linked.apiKey, 'the webhook endpoint');
  const webhookEventId = newId('webhookEvent');
  const webhookDelivery = newId('webhookDelivery');
  await env.DB.batch([
    env.DB.prepare('INSERT INTO webhook_events (id, type, business_id, payload, created_at) VALUES (?, ?, ?, ?, ?)').bind(
      webhookEventId,
      'invoice.paid',
      business,
      '{}',
      now,
    ),
    env.DB.prepare(
      "INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts, max_attempts, next_attempt_at, last_response_code, created_at, updated_at) VALUES (?, ?, ?, 'succeeded', 1, 10, ?, 200, ?, ?)",
    ).bind(webhookDelivery, webhookEventId, webhookEndpoint, now, now, now),
  ]);
  const simulator = new SimulatorGateway(contextAt(Date.now(), owner));
  const simCustomer = await simulator.createCustomer({
    businessId: business,
    email: null,
    name: 'Victim',
    idempotencyKey: newId('idempotency'),
  });
  const paymentSimulator = {
    setupIntent: (
      await simulator.createSetupIntent({
        customerId: simCustomer.id,
        idempotencyKey: newId('idempotency'),
        metadata: { business_id: business },
      })
    ).id,
    account: (
      await simulator.createConnectedAccount({ shifterId: crewShifter, email: null, country: 'US', idempotencyKey: newId('idempotency') })
    ).id,
  };

  const webhooks = {
    endpoint: webhookEndpoint,
    delivery: webhookDelivery,
    outsiderEndpoint: await webhookEndpointOf(partners.outsider.apiKey, "the outside partner's webhook endpoint"),
  };

  const agentRecords = {
    passport: (
      await created(
        call('POST', '/v1/ai_passports', { key: owner.key, body: { agent_name: 'Victim Agent', model: 'm-1', operator: 'Victim Owner' } }),
        "the owner's AI passport",
      )
    ).id,
    deliverable: (
      await created(
        call('POST', `/v1/shift_request/${worked}/deliverables`, { key: crew.key, body: { note: 'Delivered the stocktake.' } }),
        "the crew member's deliverable",
      )
    ).id,
    deliverableFile: '',
  };
  {
    const f = new FormData();
    f.append('file', new File([new TextEncoder().encode('%PDF-1.7\n%%EOF\n')], 'stocktake.pdf', { type: 'application/pdf' }));
    agentRecords.deliverableFile = (
      await created(
        call('POST', `/v1/shift_request/${worked}/deliverables/${agentRecords.deliverable}/files`, { key: crew.key, body: f }),
        "the crew member's deliverable file",
      )
    ).id;
  }

  await oauthTokens(owner.email, { request: ['read'] });
  const agentGrant = (await call('GET', '/v1/user/agent_grants', { key: owner.key })).body?.data?.[0]?.id;
  if (typeof agentGrant !== 'string') throw new Error("fixture: the owner's agent grant was not listed");

  return {
    owner,
    business,
    activeTeammate,
    suspendedTeammate,
    crew,
    crewShifter,
    applicant,
    invitee,
    stranger,
    elsewhere: {
      owner: otherOwner,
      business: elsewhere,
      shift: elsewhereShift.id,
      busy: { starts_at: new Date(elsewhereShift.starts_at).toISOString(), ends_at: new Date(elsewhereShift.ends_at).toISOString() },
    },
    connection: connection.id,
    pendingConnection: pendingConnection.id,
    invitation: invitation.id,
    crewInvite: crewInvite.body.invite.id,
    ownerSession: session.id,
    ownerNotification,
    ownerPushSubscription,
    shifts: { pending: pending.id, broadcast: broadcast.id, accepted: accepted.id, started: started.id, inProgress: inProgress.id, worked },
    invoice,
    timesheet,
    conflictWindow: { date: day4, shift_in: '08:00', shift_out: '22:00' },
    template: template.id,
    mileage: mileage.id,
    counterRule: counterRule.id,
    visibleCredential: visibleCredential.id,
    hiddenCredential: hiddenCredential.id,
    clockPhoto: { shift: inProgress.id, side: 'in', file: photoFile },
    reviews: { ofBusiness: ofBusiness.id, ofShifter: ofShifter.id },
    helpConversation,
    partners,
    messaging: { thread: messageThread, supportThread: support.id },
    webhooks,
    paymentSimulator,
    agentRecords,
    agentGrant,
  };
}
