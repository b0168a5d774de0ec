import type { auditLog, invoices, refunds, reviews } from '../../db/schema';
import { toIso } from '../../lib/time';
import type { LoadedShift, ShiftRow } from '../kernel';

/** The shapes of a shift's story (story.ts `shiftStory`, story-lines.ts) and the helpers its parts share. */

export type StoryKind =
  | 'posted'
  | 'counter_offer'
  | 'accepted'
  | 'claimed'
  | 'declined'
  | 'changed'
  | 'expired'
  | 'clocked_in'
  | 'clocked_out'
  | 'no_show'
  | 'cancelled'
  | 'unassigned'
  | 'invoiced'
  | 'charge'
  | 'authentication'
  | 'payment_failed'
  | 'paid'
  | 'paid_out'
  | 'refund'
  | 'reviewed';

export interface StoryMoney {
  amount: number;
  currency: string;
  /** An hourly rate rather than a sum. */
  per_hour: boolean;
}

/** Another version of the shift a line is about: the request it changed or was changed into, the broadcast it became. */
export interface StoryVersion {
  id: string;
  shift_date: string;
  shift_in: string;
  shift_out: string;
  /** Its state in words (`shiftStateWords`). */
  state: string;
}

export interface StoryLine {
  /** When it happened (ISO 8601). */
  at: string;
  kind: StoryKind;
  /** What happened, in people's words. */
  said: string;
  /** Who did it, in people's words; null when nobody did (the clock, an automatic step). */
  by: string | null;
  /** A pay figure (a rate, an invoice, a charge, a refund): null unless the reader sees pay. */
  money: StoryMoney | null;
  /** A person's own words: a reason, a review. */
  quote: string | null;
  /** Worth a look: outside the radius, a no-show, a declined charge. */
  attention: boolean;
  other: StoryVersion | null;
  /** The clock photo of a punch: its /v1/uploads address (pages serve it through their own route). */
  photo: { url: string; side: 'in' | 'out' } | null;
}

export type AuditRow = typeof auditLog.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;

export interface StoryRecords {
  s: LoadedShift;
  parent: LoadedShift | null;
  children: ShiftRow[];
  /** The audit rows of the shift, of its parent, and of its invoice. */
  audits: AuditRow[];
  /** Display names of the people the records name, by user id. */
  names: Map<string, string>;
  invoice: InvoiceRow | null;
  refunds: RefundRow[];
  reviews: ReviewRow[];
  /** The reader's side: the business reads its people's names, the shifter only the business's. */
  side: 'business' | 'shifter';
  seesPay: boolean;
}

/** Whoever an audit row names, in words (null: nobody in particular, an automatic step). */
export type ActorWords = (a: AuditRow | undefined) => string | null;

/** A line with nothing but what it says; `more` adds the rest. */
export const line = (
  at: number,
  kind: StoryKind,
  said: string,
  more: Partial<Omit<StoryLine, 'at' | 'kind' | 'said'>> = {},
): StoryLine => ({
  at: toIso(at),
  kind,
  said,
  by: null,
  money: null,
  quote: null,
  attention: false,
  other: null,
  photo: null,
  ...more,
});

/** An audit row's JSON data, or nothing. */
export function parse(data: string | null): Record<string, unknown> {
  if (!data) return {};
  try {
    const v: unknown = JSON.parse(data);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
