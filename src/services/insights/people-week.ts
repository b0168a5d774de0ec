import { fromMinor, toMinor } from '../../lib/money';
import { addDays, mondayOf, todayIn } from '../../lib/shift-time';
import { accessBusiness, seesPay } from '../access';
import { listConnections } from '../connections';
import { hours, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { businessShiftsDated, listRequestSummaries, type ShiftSummary } from '../shifts';

/**
 * The week by person, for the schedule's people view and its CSV: the crew down the side and the
 * days of the week (Monday to Sunday in the business's zone) across, each cell the person's shifts
 * that day, each row's hours and cost, and a row of the open broadcasts nobody has claimed yet.
 *
 * A shift's cost is the labour cost rule of the service (kernel `shiftPayMinor`: scheduled hours ×
 * rate, rounded once at the minor unit, as labor costs count a worked shift), added up in minor units.
 * A week's figures count what the week costs or will cost: worked shifts, accepted ones, and pending
 * ones that have not started (the schedule's "expected": worked plus still to come); a no-show, a
 * pending request whose start has passed, a cancelled or expired shift count nothing. Cancelled and
 * expired shifts are not listed at all (the calendar shows them); superseded and declined ones never.
 * Cost is for those who see pay (the owner and admins): anyone else gets `cost: null`.
 */

/** What the people view lists: live and worked shifts (pending, accepted, completed). */
const LISTED = [SHIFT_STATUS.pending, SHIFT_STATUS.accepted, SHIFT_STATUS.completed];

/** One shift of the week as the view lists it, with what it adds to its row. */
export interface PeopleWeekShift {
  shift: ShiftSummary;
  /** Whether it counts in the week's hours and cost (see above). */
  counts: boolean;
  /** Its hours and cost (in the shift's currency) as the week counts them: 0 when it does not count; cost null for those who do not see pay. */
  hours: number;
  cost: number | null;
}

export interface PeopleWeekFigures {
  shifts: number;
  hours: number;
  /** In the business's currency; null for those who do not see pay. */
  cost: number | null;
  /** Counted shifts paid in another currency, per currency (never added to `cost`); empty for most. */
  other_costs: { currency: string; cost: number }[];
}

export interface PeopleWeekRow extends PeopleWeekFigures {
  /** Null for the open shifts' row. */
  shifter_id: string | null;
  shifter_name: string | null;
  /** An accepted connection of the business (someone with a shift but no longer in the crew is listed too). */
  in_crew: boolean;
  /** Monday to Sunday, each day's shifts by start. */
  days: PeopleWeekShift[][];
}

export interface PeopleWeek {
  business_id: string;
  currency: string;
  timezone: string;
  week_start: string;
  week_end: string;
  /** The seven dates, Monday first. */
  days: string[];
  sees_pay: boolean;
  /** The week holds more shifts than one dated read answers; those posted last are shown. */
  truncated: boolean;
  /** The crew and anyone else with a shift this week, by name. */
  people: PeopleWeekRow[];
  /** Broadcasts not claimed yet. */
  open: PeopleWeekRow;
  total: PeopleWeekFigures;
}

class Tally {
  shifts = 0;
  minutes = 0;
  minor = 0;
  readonly others = new Map<string, number>();
  constructor(private readonly currency: string) {}
  add(s: ShiftSummary) {
    this.shifts++;
    this.minutes += s.duration_minutes;
    const minor = toMinor(s.scheduled_pay, s.currency);
    if (s.currency === this.currency) this.minor += minor;
    else this.others.set(s.currency, (this.others.get(s.currency) ?? 0) + minor);
  }
  figures(pay: boolean): PeopleWeekFigures {
    return {
      shifts: this.shifts,
      hours: hours(this.minutes),
      cost: pay ? fromMinor(this.minor, this.currency) : null,
      other_costs: pay
        ? [...this.others]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([currency, minor]) => ({ currency, cost: fromMinor(minor, currency) }))
        : [],
    };
  }
}

/** Whether a listed shift counts in the week's hours and cost at `nowMs`. */
function counts(s: ShiftSummary, nowMs: number): boolean {
  if (s.is_noshow) return false;
  if (s.status === 'pending') return Date.parse(s.starts_at) > nowMs;
  return s.status === 'accepted' || s.status === 'completed';
}

/** The week of `week` (any date of it; default this week in the business's zone) by person. Anyone who may read the schedule. */
export async function peopleWeek(ctx: ServiceContext, businessId: string, query: { week?: string | undefined } = {}): Promise<PeopleWeek> {
  const { business, role } = await accessBusiness(ctx, businessId);
  const pay = seesPay(role);
  const nowMs = ctx.now();
  const monday = mondayOf(query.week ?? todayIn(business.timezone, nowMs));
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const [{ shifts, truncated }, crew] = await Promise.all([
    businessShiftsDated(ctx, business.id, { from: monday, to: days[6]!, status: [...LISTED] }, listRequestSummaries),
    listConnections(ctx, { business_id: business.id, status: 'accepted' }),
  ]);

  const cur = business.currency;
  type Building = { row: Omit<PeopleWeekRow, keyof PeopleWeekFigures>; tally: Tally };
  const building = (shifter_id: string | null, shifter_name: string | null, in_crew: boolean): Building => ({
    row: { shifter_id, shifter_name, in_crew, days: days.map(() => []) },
    tally: new Tally(cur),
  });
  const people = new Map<string, Building>();
  for (const c of crew.accepted) people.set(c.shifter_id, building(c.shifter_id, c.shifter_name, true));
  const open = building(null, null, false);
  const total = new Tally(cur);

  for (const s of [...shifts].sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id.localeCompare(b.id))) {
    const day = days.indexOf(s.shift_date);
    if (day < 0) continue;
    let into = open;
    if (s.shifter_id) {
      into = people.get(s.shifter_id) ?? building(s.shifter_id, s.shifter_name, false);
      people.set(s.shifter_id, into);
    } else if (!(s.is_broadcast && s.status === 'pending')) continue;
    const counted = counts(s, nowMs);
    if (counted) {
      into.tally.add(s);
      total.add(s);
    }
    into.row.days[day]!.push({
      shift: s,
      counts: counted,
      hours: counted ? hours(s.duration_minutes) : 0,
      cost: pay ? (counted ? s.scheduled_pay : 0) : null,
    });
  }

  const finish = (b: Building): PeopleWeekRow => ({ ...b.row, ...b.tally.figures(pay) });
  return {
    business_id: business.id,
    currency: cur,
    timezone: business.timezone,
    week_start: monday,
    week_end: days[6]!,
    days,
    sees_pay: pay,
    truncated,
    people: [...people.values()]
      .map(finish)
      .sort((a, b) => (a.shifter_name ?? '').localeCompare(b.shifter_name ?? '') || (a.shifter_id ?? '').localeCompare(b.shifter_id ?? '')),
    open: finish(open),
    total: total.figures(pay),
  };
}
