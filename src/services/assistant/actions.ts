import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { requestAuthorizations, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { isValidDate, TIME_RE, todayIn } from '../../lib/shift-time';
import type { BusinessRow } from '../access';
import type { ServiceContext } from '../kernel';
import type { AssistantAction } from './schemas';

/** The internal event an invite_shifter proposal fires (spec 6.3). */
export const INVITE_EVENT = 'copilot:invite-shifter';
const URL_MAX = 2000;

const label = z.string().trim().min(1).max(80).optional();

/** What the model may propose through `propose_action`, checked before anything is kept. */
export const proposalSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('invite_shifter'), label, shifter_id: z.string().min(1).max(ID_MAX_LENGTH) }),
  z.strictObject({
    type: z.literal('open_shift_form'),
    label,
    date: z.string().refine(isValidDate, 'must be a calendar date YYYY-MM-DD'),
    in: z.string().regex(TIME_RE, 'must be HH:MM (24-hour)'),
    out: z.string().regex(TIME_RE, 'must be HH:MM (24-hour)'),
  }),
  z.strictObject({ type: z.literal('open_url'), label, url: z.string().min(1).max(URL_MAX) }),
]);
export type Proposal = z.infer<typeof proposalSchema>;

/** The JSON Schema the model sees: one flat object (providers want an object at the top), checked per type by proposalSchema. */
export const proposalParameters = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['invite_shifter', 'open_shift_form', 'open_url'], description: 'Which action.' },
    label: { type: 'string', description: 'Short button text (at most 80 characters).' },
    shifter_id: { type: 'string', description: 'invite_shifter: the shifter id (shf_…) from a tool result.' },
    date: { type: 'string', description: 'open_shift_form: the shift date, YYYY-MM-DD, today or later.' },
    in: { type: 'string', description: "open_shift_form: start time HH:MM in the business's zone." },
    out: { type: 'string', description: 'open_shift_form: end time HH:MM (earlier than in: ends the next day).' },
    url: {
      type: 'string',
      description:
        'open_url: a path of the app starting with / (e.g. /dashboard), or a full https:// URL on a host the instructions allow.',
    },
  },
  required: ['type'],
  additionalProperties: false,
} as const;

const refuse = (message: string): never => {
  throw new AppError('VALIDATION-ERR', message);
};

const APP_BASE = 'https://app.invalid';

/**
 * A link the app may follow: a relative path stays in the app; a full https URL opens in a new tab,
 * only on a host the operator listed (ASSISTANT_LINK_HOSTS, exact names; none by default), since the
 * model's words can be steered by text other parties wrote (names, notes) and a button is trusted.
 * Everything else is refused: other schemes (javascript:, data:, http:), protocol-relative `//host`,
 * backslashes and control characters (which browsers read as slashes or drop), credentials in the URL,
 * any host not listed (a subdomain of a listed host included), an explicit port.
 */
export function classifyUrl(raw: string, allowedHosts: readonly string[]): { url: string; target: 'in_app' | 'new_tab' } | null {
  const url = raw.trim();
  if (!url || url.length > URL_MAX || /[\s\\\p{Cc}]/u.test(url)) return null;
  if (url.startsWith('/')) {
    if (url.startsWith('//')) return null;
    const u = new URL(url, APP_BASE);
    if (u.origin !== APP_BASE) return null;
    return { url: `${u.pathname}${u.search}${u.hash}`, target: 'in_app' };
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port || !allowedHosts.includes(u.hostname)) return null;
  return { url: u.href, target: 'new_tab' };
}

/** The dashboard's new-shift form, prefilled (spec 2.12). Values are already checked: digits, dashes, colons. */
export function shiftFormUrl(businessId: string, date: string, shiftIn: string, shiftOut: string): string {
  return `/dashboard?openShift=1&date=${date}&in=${shiftIn}&out=${shiftOut}&business_id=${encodeURIComponent(businessId)}`;
}

export interface Invite {
  shifterId: string;
  shifterName: string;
}

/**
 * Turns a proposal into the action stored on the message, or refuses it (VALIDATION-ERR with a reason
 * the model is told). invite_shifter needs a shifter that is not in the crew and has no pending
 * request with this business; open_shift_form a date from today on (business zone) and two different times.
 */
export async function acceptProposal(
  ctx: ServiceContext,
  business: BusinessRow,
  p: Proposal,
): Promise<{ action: AssistantAction; invite?: Invite }> {
  switch (p.type) {
    case 'invite_shifter': {
      const [row] = await ctx.db
        .select({ id: shifters.id, name: shifters.display_name, connection: requestAuthorizations.status })
        .from(shifters)
        .leftJoin(
          requestAuthorizations,
          and(eq(requestAuthorizations.shifter_id, shifters.id), eq(requestAuthorizations.business_id, business.id)),
        )
        .where(eq(shifters.id, p.shifter_id))
        .limit(1);
      if (!row) return refuse(`No shifter has the id ${p.shifter_id}.`);
      if (row.connection === 'accepted') return refuse(`${row.name} is already in the crew.`);
      if (row.connection === 'pending') return refuse(`A connection request with ${row.name} is already pending.`);
      return {
        action: { type: 'invite_shifter', label: p.label ?? `Invite ${row.name}`.slice(0, 80), shifter_id: row.id, shifter_name: row.name },
        invite: { shifterId: row.id, shifterName: row.name },
      };
    }
    case 'open_shift_form': {
      if (p.date < todayIn(business.timezone, ctx.now())) refuse('The date has passed; propose today or a later date.');
      if (p.in === p.out) refuse('The start and end times are the same.');
      return {
        action: {
          type: 'open_shift_form',
          label: p.label ?? `Post a shift on ${p.date}, ${p.in}–${p.out}`,
          url: shiftFormUrl(business.id, p.date, p.in, p.out),
          date: p.date,
          in: p.in,
          out: p.out,
        },
      };
    }
    case 'open_url': {
      const hosts = ctx.settings.ASSISTANT_LINK_HOSTS;
      const link = classifyUrl(p.url, hosts);
      if (!link) {
        return refuse(
          hosts.length
            ? `Only a path of the app starting with /, or a full https:// URL on ${hosts.join(', ')}, can be opened.`
            : 'Only a path of the app starting with / can be opened.',
        );
      }
      return { action: { type: 'open_url', label: p.label ?? 'Open', url: link.url, target: link.target } };
    }
  }
}

/** Two proposals for the same thing are one action. */
export const actionKey = (a: AssistantAction) =>
  a.type === 'invite_shifter' ? `invite:${a.shifter_id}` : a.type === 'open_shift_form' ? `form:${a.url}` : `url:${a.url}`;
