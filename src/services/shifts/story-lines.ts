import { fromMinor } from '../../lib/money';
import { SHIFT_STATUS, type ShiftRow } from '../kernel';
import { shiftStateWords } from './state-words';
import { moneyLines } from './story-payments';
import { punchLines } from './story-punches';
import {
  type ActorWords,
  line,
  parse,
  type StoryKind,
  type StoryLine,
  type StoryMoney,
  type StoryRecords,
  type StoryVersion,
} from './story-types';
import { shiftSummaryView } from './view';

/**
 * The lines of a shift's story (story.ts `shiftStory`), in people's words, from what the shift and
 * the records around it already hold: the row (posted, accepted or claimed, the punches, the
 * cancellation), its parent and children (the change chain, a re-broadcast), its audit rows (who did
 * it; declines, counter-offers, no-shows, charge attempts, payouts), its invoice and refunds, and the
 * reviews pinned to it. Pure: no reads, no access checks.
 */

/** What a version of the shift is, in a line's link. */
export function versionOf(row: ShiftRow): StoryVersion {
  const v = shiftSummaryView(row);
  return { id: row.id, shift_date: row.shift_date, shift_in: row.shift_in, shift_out: row.shift_out, state: shiftStateWords(v).label };
}

/** Every line of the story, oldest first. */
export function storyLines(r: StoryRecords): StoryLine[] {
  const { s } = r;
  const row = s.row;
  const tz = s.business.timezone;
  const shifter = s.shifter?.display_name ?? 'the shifter';
  const audit = (action: string, subjectId = row.id) => r.audits.filter((a) => a.action === action && a.subject_id === subjectId);
  const first = (action: string, subjectId = row.id) => audit(action, subjectId).sort((a, b) => a.created_at - b.created_at)[0];
  const money = (minor: number | null | undefined, currency: string, perHour = false): StoryMoney | null =>
    r.seesPay && minor != null ? { amount: fromMinor(minor, currency), currency, per_hour: perHour } : null;
  /** A business-side person: named for the business, the business itself for the shifter. */
  const businessPerson = (userId: string | null | undefined) =>
    r.side === 'shifter' ? s.business.name : ((userId && r.names.get(userId)) ?? s.business.name);
  /** Whoever an audit row names, in words. */
  const actorOf: ActorWords = (a) => {
    if (!a) return null;
    if (a.actor_kind === 'system') return null;
    if (a.actor_kind === 'partner') return r.side === 'shifter' ? s.business.name : 'A connected app';
    if (s.shifter && a.actor_user_id === s.shifter.user_id && a.actor_kind !== 'user:kiosk') return s.shifter.display_name;
    const who = businessPerson(a.actor_user_id);
    if (a.actor_kind === 'user:kiosk') return r.side === 'shifter' ? s.business.name : `The kiosk of ${s.business.name}`;
    return a.actor_kind === 'agent' && r.side === 'business' ? `${who}, through an AI agent` : who;
  };
  const lines: StoryLine[] = [];

  // Posted: where it came from (a change, a re-broadcast, a template) and to whom.
  const rate = money(row.hourly_rate_minor, row.currency, true);
  const created = first(row.is_broadcast ? 'broadcast.create' : 'shift_request.create');
  const postedBy = actorOf(created) ?? (row.created_by_user_id ? businessPerson(row.created_by_user_id) : null);
  const to = row.is_broadcast ? 'to the crew' : `to ${shifter}`;
  const p = r.parent?.row;
  if (p && p.request_status === SHIFT_STATUS.superseded) {
    lines.push(
      line(row.created_at, 'posted', `Sent ${to} as a change of an earlier request`, { by: postedBy, money: rate, other: versionOf(p) }),
    );
  } else if (p && p.request_status === SHIFT_STATUS.cancelled) {
    const was = r.parent?.shifter?.display_name ?? 'the shifter';
    const unassign = first('shift_request.unassign', p.id);
    lines.push(
      unassign
        ? line(row.created_at, 'posted', `Posted to the crew after ${was} was taken off it`, {
            by: actorOf(unassign),
            money: rate,
            other: versionOf(p),
          })
        : line(row.created_at, 'posted', `Posted to the crew again after ${was} cancelled (auto-fill)`, {
            money: rate,
            other: versionOf(p),
          }),
    );
  } else {
    const how = row.is_broadcast ? 'Posted to the crew' : `Offered to ${shifter}`;
    lines.push(line(row.created_at, 'posted', row.template_id ? `${how}, from a weekly template` : how, { by: postedBy, money: rate }));
  }

  for (const a of audit('shift_request.counter_offer')) {
    const data = parse(a.data);
    const asked = typeof data.hourly_rate_minor === 'number' ? data.hourly_rate_minor : null;
    lines.push(line(a.created_at, 'counter_offer', 'Asked for another rate', { by: actorOf(a), money: money(asked, row.currency, true) }));
  }

  if (row.accepted_at !== null && s.shifter) {
    lines.push(
      row.is_broadcast
        ? line(row.accepted_at, 'claimed', 'Claimed from the crew', { by: shifter })
        : line(row.accepted_at, 'accepted', 'Accepted', { by: shifter }),
    );
  }

  if (row.request_status === SHIFT_STATUS.declined) {
    const a = first('shift_request.decline');
    lines.push(line(a?.created_at ?? row.updated_at, 'declined', 'Declined', { by: shifter, quote: row.cancel_reason }));
  }

  const replacement = row.request_status === SHIFT_STATUS.superseded ? r.children[0] : undefined;
  if (replacement) {
    const a = first('shift_request.change');
    lines.push(
      line(a?.created_at ?? replacement.created_at, 'changed', 'Changed: replaced by a new request', {
        by: actorOf(a),
        other: versionOf(replacement),
      }),
    );
  }

  if (row.request_status === SHIFT_STATUS.expired) {
    lines.push(line(row.updated_at, 'expired', 'Expired: nobody took it before it started', { attention: true }));
  }

  lines.push(...punchLines(r, tz, shifter, actorOf, businessPerson));

  if (row.is_noshow) {
    const a = first('shift_request.no_show');
    lines.push(line(a?.created_at ?? row.updated_at, 'no_show', `${shifter} marked as a no-show`, { by: actorOf(a), attention: true }));
  }

  if (row.request_status === SHIFT_STATUS.cancelled && row.cancelled_at !== null) {
    const unassign = first('shift_request.unassign');
    const cancel = first('shift_request.cancel');
    const child = r.children.find((c) => c.is_broadcast);
    const by = row.cancelled_by === 'shifter' ? shifter : actorOf(unassign ?? cancel);
    const other = child ? versionOf(child) : null;
    const quote = row.cancel_reason;
    if (unassign) {
      lines.push(
        line(row.cancelled_at, 'unassigned', `${shifter} taken off the shift and told; the shift went out to the crew`, {
          by,
          quote,
          other,
        }),
      );
    } else if (row.cancelled_by === 'shifter') {
      const said = child ? 'Cancelled; auto-fill posted it to the crew again' : 'Cancelled';
      lines.push(line(row.cancelled_at, 'cancelled', said, { by, quote, other }));
    } else {
      const told = row.shifter_id ? `; ${shifter} was told` : '';
      const said = row.cancelled_by === 'system' ? 'Cancelled automatically' : `Cancelled${told}`;
      lines.push(line(row.cancelled_at, 'cancelled', said, { by, quote, other }));
    }
  }

  lines.push(...moneyLines(r, shifter, actorOf, money));
  lines.push(...reviewLines(r, shifter));
  return lines.sort((a, b) => a.at.localeCompare(b.at) || ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
}

/** Lines at the same instant, in the order they happen (an invoice with the clock-out that makes it). */
const ORDER: StoryKind[] = [
  'posted',
  'counter_offer',
  'accepted',
  'claimed',
  'declined',
  'changed',
  'expired',
  'clocked_in',
  'no_show',
  'clocked_out',
  'cancelled',
  'unassigned',
  'invoiced',
  'charge',
  'authentication',
  'payment_failed',
  'paid',
  'paid_out',
  'refund',
  'reviewed',
];

function reviewLines(r: StoryRecords, shifter: string): StoryLine[] {
  return r.reviews.map((v) => {
    const by = v.review_by === 'business' ? r.s.business.name : shifter;
    return line(v.created_at, 'reviewed', `Reviewed: ${v.rating} of 5`, { by, quote: v.review_text });
  });
}
