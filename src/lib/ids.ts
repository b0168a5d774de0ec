import { customAlphabet } from 'nanoid';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const body = customAlphabet(BASE62, 20);

/** Prefixed random ids (Stripe-style) so a shifter id can never be mistaken for a user id. */
export const ID_PREFIX = {
  user: 'usr',
  shifter: 'shf',
  business: 'biz',
  teammate: 'tm',
  apiKey: 'key',
  session: 'ses',
  verification: 'ver',
  connection: 'con',
  shiftRequest: 'sr',
  template: 'tpl',
  idempotency: 'idem',
  audit: 'aud',
  email: 'eml',
  notification: 'ntf',
  deadLetter: 'dlq',
  outbox: 'evt',
  upload: 'upl',
  mileage: 'mil',
  counterRule: 'cr',
  credential: 'crd',
  invitation: 'inv',
  operation: 'op',
  backupCode: 'bkc',
  trustedDevice: 'dev',
  review: 'rev',
  conversation: 'cnv',
  message: 'msg',
  helpFeedback: 'hfb',
  assistantMessage: 'asm',
  partnerClient: 'pc',
  partnerCredential: 'pcr',
  partnerToken: 'pat',
  partnerLink: 'pbl',
  webhookEndpoint: 'wep',
  webhookEvent: 'wev',
  webhookDelivery: 'wdl',
  webhookAttempt: 'wat',
  invoice: 'in',
  refund: 'rfd',
  mcpConfirmToken: 'mct',
  mcpAudit: 'mca',
  counterOffer: 'cof',
  passport: 'psp',
  deliverable: 'dlv',
  kiosk: 'ksk',
  crewInvite: 'cin',
  crewJoinLink: 'cjl',
  textMessage: 'txt',
  codeStep: 'cst',
  timesheet: 'ts',
  timesheetDispute: 'tsd',
} as const;

/** The longest id the API accepts anywhere (path, query or body); real ids are a prefix + 20 characters. */
export const ID_MAX_LENGTH = 64;

export function newId(kind: keyof typeof ID_PREFIX): string {
  return `${ID_PREFIX[kind]}_${body()}`;
}

/** Random base62 string of `length` characters (each carries log2(62) ≈ 5.95 bits). */
export function randomBase62(length: number): string {
  return customAlphabet(BASE62, length)();
}
