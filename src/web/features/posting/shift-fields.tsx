import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { listConnections } from '@/services/connections';
import { listShiftRoles, type PostingWarning, type ShiftConflicts, type ShiftRoleView } from '@/services/shifts';
import { InputField, Notice, SelectField, TextareaField } from '@/web/components';
import { shiftHours, timeIn } from '@/web/format';

/**
 * The fields a shift is made of, written once for every form that sets them: posting a shift,
 * changing one (/dashboard/shifts/:id/change) and a template. Each field keeps its name, label, step
 * and hint on all of them, shows the server's message beside it (`errors`, by field name) and takes
 * the focus when it is the first refused one (`first`).
 */

type Errors = Partial<Record<string, string | undefined>>;

interface Marks {
  errors?: Errors | undefined;
  first?: string | undefined;
}

/** The roles and the crew (accepted connections, by name) a shift form offers. */
export interface ShiftFormLookups {
  roles: ShiftRoleView[];
  crew: { id: string; name: string }[];
}

export async function shiftFormLookups(c: Context<AppEnv>, businessId: string): Promise<ShiftFormLookups> {
  const ctx = serviceCtx(c);
  const [roles, conns] = await Promise.all([listShiftRoles(ctx), listConnections(ctx, { business_id: businessId, status: 'accepted' })]);
  const crew = conns.accepted.map((x) => ({ id: x.shifter_id, name: x.shifter_name })).sort((a, b) => a.name.localeCompare(b.name));
  return { roles, crew };
}

/** The schema's refusals of the role and rate, in words for people (refusals.ts `schemaRefusal`). */
export const SHIFT_FIELD_LABELS = {
  shiftrole_id: 'Choose a role.',
  hourly_rate: 'Enter the hourly rate as a number, e.g. 18.50.',
} as const;

/** The refusals that concern the shifter or the rate though the service names no field (refusals.ts `refusalOf`). */
export function shiftCodeFields<S extends string>(shifterField: S): Partial<Record<string, S | 'hourly_rate'>> {
  return {
    'SHFT-NOT-CONNECTED-ERR': shifterField,
    'SHIFTER-PAUSED-ERR': shifterField,
    'SHIFTER-NOT-FND-ERR': shifterField,
    'MONEY-PRECISION-ERR': 'hourly_rate',
  };
}

export interface ShiftFieldsProps extends Marks {
  values: { shift_date?: string; shift_in: string; shift_out: string; shiftrole_id?: string; hourly_rate?: string };
  /** With the date field (a template has weekdays instead). */
  date?: boolean;
  /** With the role and the rate: the roles to choose from and the business's currency. */
  pay?: { roles: readonly ShiftRoleView[]; currency: string; rateHint?: Child } | undefined;
}

/** Date, start and end in 15-minute steps (an end before the start is the next day), then role and rate. */
export function ShiftFields({ values, date = false, pay, errors = {}, first }: ShiftFieldsProps) {
  return (
    <div class="form-grid">
      {date ? (
        <InputField
          label="Date"
          name="shift_date"
          type="date"
          required
          value={values.shift_date}
          error={errors.shift_date}
          autofocus={first === 'shift_date'}
        />
      ) : null}
      <InputField
        label="Starts"
        name="shift_in"
        type="time"
        step={900}
        required
        value={values.shift_in}
        hint="In 15-minute steps."
        error={errors.shift_in}
        autofocus={first === 'shift_in'}
      />
      <InputField
        label="Ends"
        name="shift_out"
        type="time"
        step={900}
        required
        value={values.shift_out}
        hint="Earlier than the start: it ends the next day."
        error={errors.shift_out}
        autofocus={first === 'shift_out'}
      />
      {pay ? (
        <>
          <SelectField
            label="Role"
            name="shiftrole_id"
            required
            value={values.shiftrole_id}
            options={[{ value: '', label: 'Choose a role' }, ...pay.roles.map((r) => ({ value: String(r.id), label: r.label }))]}
            error={errors.shiftrole_id}
            autofocus={first === 'shiftrole_id'}
          />
          <InputField
            label={`Hourly rate (${pay.currency})`}
            name="hourly_rate"
            type="text"
            inputMode="decimal"
            required
            value={values.hourly_rate}
            hint={pay.rateHint}
            error={errors.hourly_rate}
            autofocus={first === 'hourly_rate'}
          />
        </>
      ) : null}
    </div>
  );
}

/** A shift's words and a template's: one shift goes to someone, a template's shifts each time. */
const WHO = {
  shift: {
    legend: 'Who it goes to',
    broadcast: 'Broadcast to the crew: the first to claim it gets it',
    targeted: 'Ask one shifter',
    ids: 'mode',
    field: 'shifter_id',
  },
  template: {
    legend: 'Who the shifts go to',
    broadcast: 'Broadcast to the crew: the first to claim each shift gets it',
    targeted: 'Ask one shifter every time',
    ids: 'tpl-mode',
    field: 'default_shifter_id',
  },
} as const;

export interface WhoFieldsProps extends Marks {
  kind: keyof typeof WHO;
  mode: 'broadcast' | 'targeted';
  shifter: string;
  crew: ShiftFormLookups['crew'];
}

/** Broadcast or one shifter (`mode`), and which one of the crew (`shifter_id`, or a template's `default_shifter_id`). */
export function WhoFields({ kind, mode, shifter, crew, errors = {}, first }: WhoFieldsProps) {
  const w = WHO[kind];
  return (
    <fieldset>
      <legend>{w.legend}</legend>
      <div class="choice">
        <input type="radio" id={`${w.ids}-broadcast`} name="mode" value="broadcast" checked={mode === 'broadcast'} />
        <label for={`${w.ids}-broadcast`}>{w.broadcast}</label>
      </div>
      <div class="choice">
        <input type="radio" id={`${w.ids}-targeted`} name="mode" value="targeted" checked={mode === 'targeted'} />
        <label for={`${w.ids}-targeted`}>{w.targeted}</label>
      </div>
      <SelectField
        label="Shifter (when asking one)"
        name={w.field}
        value={shifter}
        options={[
          { value: '', label: crew.length ? 'Choose a shifter' : 'No one in your crew yet' },
          ...crew.map((s) => ({ value: s.id, label: s.name })),
        ]}
        error={errors[w.field]}
        autofocus={first === w.field}
      />
    </fieldset>
  );
}

/** Whether the shifter may propose other hours, and the note for them. */
export function FlexibleAndNote({ flexible, note, errors = {} }: { flexible: boolean; note: string; errors?: Errors | undefined }) {
  return (
    <>
      <div class="field checkbox">
        <input type="checkbox" id="field-is_flexible" name="is_flexible" value="1" checked={flexible} />
        <label for="field-is_flexible">Flexible: the shifter may propose other hours</label>
      </div>
      <TextareaField label="Note for the shifter (optional)" name="note" value={note} maxLength={1000} error={errors.note} />
    </>
  );
}

/**
 * A targeted shifter's accepted shifts at the time asked (the conflicts operation), before anything
 * is saved: in full at the person's own businesses, as busy hours at any other. `then` says how to go on.
 */
export function ConflictsNotice({ conflicts, tz, lead, then }: { conflicts: ShiftConflicts; tz: string; lead: string; then: string }) {
  return (
    <Notice kind="error">
      <p>{lead}</p>
      <ul>
        {conflicts.data.map((s) => (
          <li>{`${s.business_name ?? 'Your business'}: ${s.shift_date} ${shiftHours(s.shift_in, s.shift_out)}`}</li>
        ))}
        {conflicts.busy.map((w) => (
          <li>{`Another business: ${timeIn(w.starts_at, tz)}–${timeIn(w.ends_at, tz)}`}</li>
        ))}
      </ul>
      <p>{then}</p>
    </Notice>
  );
}

/**
 * The domain's empty-crew warning (services/shifts `emptyCrewWarning`) where a broadcast is posted
 * (the form, bulk posting): its words, and the way to invite the crew.
 */
export function EmptyCrewNotice({ warning, crewHref }: { warning: PostingWarning; crewHref: string }) {
  return (
    <Notice kind="info">
      <p data-warning={warning.code}>{warning.message}</p>
      <p>
        <a href={crewHref}>Invite your crew</a>: once a shifter accepts, they are told of your broadcasts.
      </p>
    </Notice>
  );
}
