// What a template's form holds, shared by the template pages: its values and field names, the
// form as sent, the service's input made from it, and small helpers (days in words, addresses).
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { parseDays, type TemplateView } from '@/services/templates';
import type { DashboardBase } from '@/web/features/dashboard/context';
import type { Refusal } from '@/web/features/dashboard/refusals';
import { SHIFT_FIELD_LABELS, shiftCodeFields, shiftFormLookups } from '@/web/features/posting/shift-fields';

export const WEEKDAYS: readonly (readonly [number, string, string])[] = [
  [1, 'Mon', 'Monday'],
  [2, 'Tue', 'Tuesday'],
  [3, 'Wed', 'Wednesday'],
  [4, 'Thu', 'Thursday'],
  [5, 'Fri', 'Friday'],
  [6, 'Sat', 'Saturday'],
  [7, 'Sun', 'Sunday'],
];

/** "Mon, Wed, Fri", or "Every day". */
export function daysText(daysOfWeek: string): string {
  const days = parseDays(daysOfWeek);
  if (days.length === 7) return 'Every day';
  return days.map((d) => WEEKDAYS[d - 1]![1]).join(', ');
}

export interface TemplateFormValues {
  label: string;
  days: number[];
  shift_in: string;
  shift_out: string;
  shiftrole_id: string;
  hourly_rate: string;
  mode: 'broadcast' | 'targeted';
  default_shifter_id: string;
  is_flexible: boolean;
  note: string;
  is_active: boolean;
}

export type FieldName =
  | 'label'
  | 'days_of_week'
  | 'shift_in'
  | 'shift_out'
  | 'shiftrole_id'
  | 'hourly_rate'
  | 'default_shifter_id'
  | 'note';
export const FIELDS: readonly FieldName[] = [
  'label',
  'days_of_week',
  'shift_in',
  'shift_out',
  'shiftrole_id',
  'hourly_rate',
  'default_shifter_id',
  'note',
];
export const BY_CODE = shiftCodeFields('default_shifter_id');
export const LABELS: Partial<Record<FieldName, string>> = {
  label: 'Give the template a name (at most 120 characters).',
  days_of_week: 'Choose at least one day of the week.',
  ...SHIFT_FIELD_LABELS,
};

export const EMPTY: TemplateFormValues = {
  label: '',
  days: [1, 2, 3, 4, 5],
  shift_in: '09:00',
  shift_out: '17:00',
  shiftrole_id: '',
  hourly_rate: '',
  mode: 'broadcast',
  default_shifter_id: '',
  is_flexible: false,
  note: '',
  is_active: true,
};

export const valuesOf = (t: TemplateView): TemplateFormValues => ({
  label: t.label,
  days: parseDays(t.days_of_week),
  shift_in: t.shift_in,
  shift_out: t.shift_out,
  shiftrole_id: String(t.shiftrole_id),
  hourly_rate: String(t.hourly_rate),
  mode: t.is_broadcast ? 'broadcast' : 'targeted',
  default_shifter_id: t.default_shifter_id ?? '',
  is_flexible: t.is_flexible === 1,
  note: t.note ?? '',
  is_active: t.is_active === 1,
});

export const lookups = (c: Context<AppEnv>, base: DashboardBase) => shiftFormLookups(c, base.business!.id);

export const templatePath = (id: string, action: string) => `/dashboard/templates/${encodeURIComponent(id)}/${action}`;

/** The form's fields as sent, bounded (a form is never trusted to be short). */
export async function sentValues(c: Context<AppEnv>): Promise<TemplateFormValues & { idem: string }> {
  const body = await c.req.parseBody({ all: true });
  const one = (name: string, max = 256) => {
    const v = body[name];
    const s = Array.isArray(v) ? v[0] : v;
    return typeof s === 'string' ? s.slice(0, max) : '';
  };
  const many = body.days;
  const days = (Array.isArray(many) ? many : [many])
    .filter((d): d is string => typeof d === 'string')
    .slice(0, 7)
    .map(Number)
    .filter((d) => Number.isInteger(d) && d >= 1 && d <= 7);
  return {
    label: one('label', 200),
    days: [...new Set(days)].sort(),
    shift_in: one('shift_in', 10),
    shift_out: one('shift_out', 10),
    shiftrole_id: one('shiftrole_id', 10),
    hourly_rate: one('hourly_rate', 30).trim(),
    mode: one('mode') === 'targeted' ? 'targeted' : 'broadcast',
    default_shifter_id: one('default_shifter_id', 100),
    is_flexible: one('is_flexible') === '1',
    note: one('note', 1100),
    is_active: one('is_active') === '1',
    idem: one('_idem', 255),
  };
}

/** The service's input from the form: every field, so an edit sets the template to what the form shows. */
export function inputOf(v: TemplateFormValues) {
  const targeted = v.mode === 'targeted';
  return {
    label: v.label,
    days_of_week: v.days.length ? v.days : '',
    shift_in: v.shift_in,
    shift_out: v.shift_out,
    shiftrole_id: v.shiftrole_id === '' ? Number.NaN : Number(v.shiftrole_id),
    hourly_rate: v.hourly_rate === '' ? Number.NaN : Number(v.hourly_rate),
    is_broadcast: !targeted,
    default_shifter_id: targeted ? v.default_shifter_id || null : null,
    is_flexible: v.is_flexible,
    note: v.note.trim() ? v.note : null,
    is_active: v.is_active,
  };
}

/** A targeted template needs its shifter: said beside the field before the service is asked. */
export function missingShifter(v: TemplateFormValues): Refusal<FieldName> | null {
  if (v.mode !== 'targeted' || v.default_shifter_id) return null;
  return {
    status: 400,
    errors: { default_shifter_id: 'Choose the shifter to ask, or broadcast the shifts.' },
    message: 'Check the fields marked below.',
  };
}
