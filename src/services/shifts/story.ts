import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import { auditLog, invoices, refunds, reviews, shiftRequests, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor } from '../../lib/money';
import { type BusinessRole, seesPay, shiftParty } from '../access';
import { cancelRefusal, type LoadedShift, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { chargedAmount } from '../invoices';
import { notUpheld } from '../reviews';
import { loadShift, viewLoaded } from './load';
import type { ShiftRequestView } from './schemas';
import { storyLines, versionOf } from './story-lines';
import type { AuditRow, StoryLine, StoryMoney, StoryVersion } from './story-types';
import { unassignRefusal } from './unassign';

/** Audit rows read for one story at most (a shift gathers a handful; a bound all the same). */
const STORY_AUDIT_MAX = 200;

/** What the business may do with the shift now, as the services would answer (null reasons: it may). */
export interface ShiftActions {
  cancel: {
    /** Why cancel would be refused (kernel `cancelRefusal`), or null. */
    refusal: string | null;
    /** The shifter who is told, if it has one. */
    tells: string | null;
    /** An open broadcast: cancelling takes it off the crew's open shifts. */
    open_broadcast: boolean;
    /** It was paid in advance: cancelling refunds the payment in full. */
    prepaid: boolean;
    /** The amount refunded (null unless the reader sees pay). */
    refund: StoryMoney | null;
  };
  unassign: {
    /** Unassign concerns this shift: accepted, offered to one shifter. */
    offered: boolean;
    /** Why unassign would be refused (`unassignRefusal`), or null. */
    refusal: string | null;
    shifter: string | null;
  };
}

export interface ShiftStory {
  /** The shift as the API shows it, without its pay (that is `pay`, for those who see it). */
  shift: Omit<ShiftRequestView, 'hourly_rate' | 'scheduled_pay'>;
  pay: { hourly_rate: number; scheduled_pay: number; currency: string } | null;
  /** The side the reader stands on, and their standing toward the business (null for the shifter). */
  side: 'business' | 'shifter';
  role: BusinessRole | null;
  sees_pay: boolean;
  geofence_radius_m: number | null;
  /** The request it came from (a change, a cancelled assignment) and those that came from it. */
  parent: StoryVersion | null;
  children: StoryVersion[];
  /** What happened to it, oldest first. */
  lines: StoryLine[];
  /** Its invoice, for those who see pay. */
  invoice: { id: string; status: 'pending' | 'paid' | 'failed'; amount: StoryMoney } | null;
  /** What the business may do now (null for the shifter). */
  actions: ShiftActions | null;
}

/**
 * One shift's story for its parties (the access rule of the shift's details: the business's owner,
 * active teammates and admins, and its shifter; a crew member who may only claim it, and anyone
 * else, get 404): the shift, what happened to it in time order in people's words, and what the
 * business may do now. Pay figures only for those `seesPay` allows on the business side, and for the
 * shifter (it is their pay).
 */
export async function shiftStory(ctx: ServiceContext, id: string): Promise<ShiftStory> {
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  if (!party.businessRole && !party.isShifter) throw new AppError('SHFT-NOT-FND-ERR');
  const side = party.businessRole ? 'business' : 'shifter';
  const pays = side === 'shifter' || seesPay(party.businessRole);
  const row = s.row;

  const [parent, children, invoice, pinned] = await Promise.all([
    row.parent_id ? loadShift(ctx, row.parent_id).catch(() => null) : Promise.resolve(null),
    ctx.db.select().from(shiftRequests).where(eq(shiftRequests.parent_id, id)).orderBy(shiftRequests.created_at).limit(20),
    ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.shift_request_id, id))
      .limit(1)
      .then((r) => r[0] ?? null),
    ctx.db
      .select()
      .from(reviews)
      .where(and(or(eq(reviews.shift_request_id, id), eq(reviews.counted_shift_id, id)), notUpheld))
      .orderBy(reviews.created_at)
      .limit(10),
  ]);
  const subjects: SQL[] = [
    and(eq(auditLog.subject_type, 'shift_request'), inArray(auditLog.subject_id, [id, ...(parent ? [parent.row.id] : [])]))!,
  ];
  if (invoice) subjects.push(and(eq(auditLog.subject_type, 'invoice'), eq(auditLog.subject_id, invoice.id))!);
  const [audits, refundRows] = await Promise.all([
    ctx.db
      .select()
      .from(auditLog)
      .where(or(...subjects))
      .orderBy(auditLog.created_at)
      .limit(STORY_AUDIT_MAX),
    invoice ? ctx.db.select().from(refunds).where(eq(refunds.invoice_id, invoice.id)).orderBy(refunds.created_at) : Promise.resolve([]),
  ]);
  const names = side === 'business' ? await namesOf(ctx, s, audits) : new Map<string, string>();

  const lines = storyLines({ s, parent, children, audits, names, invoice, refunds: refundRows, reviews: pinned, side, seesPay: pays });
  const { hourly_rate, scheduled_pay, ...shift } = viewLoaded(s);
  const money = (minor: number, currency: string): StoryMoney => ({ amount: fromMinor(minor, currency), currency, per_hour: false });
  const charged = invoice ? money(chargedAmount(invoice).amount, chargedAmount(invoice).currency) : null;
  const prepaid = invoice?.status === 'paid' && row.shift_end_at === null;
  return {
    shift,
    pay: pays ? { hourly_rate, scheduled_pay, currency: row.currency } : null,
    side,
    role: party.businessRole,
    sees_pay: pays,
    geofence_radius_m: s.business.geofence_radius_m,
    parent: parent ? versionOf(parent.row) : null,
    children: children.map(versionOf),
    lines,
    invoice: invoice && pays && charged ? { id: invoice.id, status: invoice.status, amount: charged } : null,
    actions:
      side === 'business'
        ? {
            cancel: {
              refusal: cancelRefusal(row)?.message ?? null,
              tells: row.shifter_id ? (s.shifter?.display_name ?? 'The shifter') : null,
              open_broadcast: row.is_broadcast && row.shifter_id === null && row.request_status === SHIFT_STATUS.pending,
              prepaid,
              refund: prepaid && pays ? charged : null,
            },
            unassign: {
              offered: !row.is_broadcast && row.shifter_id !== null && row.request_status === SHIFT_STATUS.accepted,
              refusal: unassignRefusal(row, ctx.now())?.message ?? null,
              shifter: s.shifter?.display_name ?? null,
            },
          }
        : null,
  };
}

/** Display names of the people the shift's records name (business-side readers only see them). */
async function namesOf(ctx: ServiceContext, s: LoadedShift, audits: AuditRow[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const a of audits) if (a.actor_user_id) ids.add(a.actor_user_id);
  for (const u of [s.row.created_by_user_id, s.row.shift_start_by_id, s.row.shift_end_by_id]) if (u) ids.add(u);
  if (!ids.size) return new Map();
  const rows = await ctx.db
    .select({ id: users.id, name: users.display_name })
    .from(users)
    .where(inArray(users.id, [...ids].slice(0, 50)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
