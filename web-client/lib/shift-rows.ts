/**
 * A shift written as a row of text (bulk posting, templates): the checks made in the browser before
 * anything is sent, and the send_request body it becomes. The service checks everything again; these
 * checks only spare a round trip for what is plainly wrong.
 */
export interface RowInput {
  date: string;
  in: string;
  out: string;
  role: string;
  rate: string;
  shifter: string;
  note: string;
}

export interface Role {
  id: number;
  slug: string;
  label: string;
}

export interface Crew {
  id: string;
  name: string;
}

export interface RowProblem {
  field: keyof RowInput;
  message: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const RATE = /^\d+(\.\d{1,2})?$/;

const norm = (s: string) => s.trim().toLowerCase();

export function findRole(value: string, roles: Role[]): Role | undefined {
  const v = norm(value);
  return roles.find((r) => norm(r.label) === v || r.slug === v || String(r.id) === v);
}

/** '' or "broadcast" is a broadcast; anything else names one shifter of the crew (name or id). */
export function findShifter(value: string, crew: Crew[]): Crew | 'broadcast' | undefined {
  const v = norm(value);
  if (v === '' || v === 'broadcast') return 'broadcast';
  return crew.find((s) => norm(s.name) === v || s.id === value.trim());
}

function realDate(d: string): boolean {
  if (!DATE.test(d)) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
}

export function checkRow(row: RowInput, roles: Role[], crew: Crew[]): RowProblem[] {
  const p: RowProblem[] = [];
  if (!realDate(row.date)) p.push({ field: 'date', message: 'A date as YYYY-MM-DD.' });
  if (!TIME.test(row.in)) p.push({ field: 'in', message: 'A time as HH:MM.' });
  if (!TIME.test(row.out)) p.push({ field: 'out', message: 'A time as HH:MM.' });
  else if (row.out === row.in) p.push({ field: 'out', message: 'Must differ from the start.' });
  if (!findRole(row.role, roles)) p.push({ field: 'role', message: 'Not a role: use its name.' });
  if (!RATE.test(row.rate) || Number(row.rate) <= 0) p.push({ field: 'rate', message: 'An amount such as 18.50.' });
  if (!findShifter(row.shifter, crew)) p.push({ field: 'shifter', message: 'Not in your crew: a name, or "broadcast".' });
  if (row.note.length > 1000) p.push({ field: 'note', message: 'At most 1000 characters.' });
  return p;
}

/** The send_request body of a checked row. */
export function toRequest(row: RowInput, businessId: string, roles: Role[], crew: Crew[]) {
  const who = findShifter(row.shifter, crew);
  const targeted = who && who !== 'broadcast' ? who : null;
  return {
    business_id: businessId,
    shift_date: row.date,
    shift_in: row.in,
    shift_out: row.out,
    shiftrole_id: findRole(row.role, roles)?.id ?? 0,
    hourly_rate: Number(row.rate),
    shifter_id: targeted ? targeted.id : null,
    is_broadcast: !targeted,
    note: row.note || null,
  };
}
