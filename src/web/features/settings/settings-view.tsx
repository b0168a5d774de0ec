/**
 * The /dashboard/settings page as the owner (or an admin) sees it: one small form per group of
 * settings (profile, clock-in rules, weekly budget, auto-fill), the default business and the partners;
 * a teammate gets read-only.tsx instead.
 */

import type { BusinessRole } from '@/services/access';
import type { BusinessView } from '@/services/accounts';
import type { PartnerLinkView } from '@/services/partners';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { AppShell } from '@/web/features/dashboard/shell';
import { PartnersCard } from './partners-card';
import { ReadOnly } from './read-only';
import {
  type Field,
  type LinkFormState,
  SECTION_FIELDS,
  type ScopesFormState,
  type Section,
  SETTINGS,
  type Values,
} from './settings-shared';

interface SettingsViewProps {
  base: DashboardBase;
  business: BusinessView;
  role: BusinessRole;
  links: PartnerLinkView[];
  values: Values;
  /** The form that was refused, with its messages and key. */
  refused?: { section: Section; errors: Partial<Record<Field, string>>; idem: string } | undefined;
  link?: LinkFormState | undefined;
  scopesForm?: ScopesFormState | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}

function SectionForm(props: { base: DashboardBase; section: Section; idem?: string | undefined; label: string; children: unknown }) {
  return (
    <form method="post" action={dashboardHref(props.base, SETTINGS)} class="stack" novalidate id={`settings-${props.section}`}>
      <CsrfField token={props.base.csrfToken} />
      <IdempotencyField value={props.idem} />
      <input type="hidden" name="section" value={props.section} />
      {props.children}
      <SubmitButton>{props.label}</SubmitButton>
    </form>
  );
}

function Checkbox(props: { name: Field; label: string; checked: boolean; error?: string | undefined }) {
  const id = `field-${props.name}`;
  return (
    <div class="field checkbox">
      <input
        type="checkbox"
        id={id}
        name={props.name}
        value="1"
        checked={props.checked}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      <label for={id}>{props.label}</label>
      {props.error ? (
        <p class="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function SettingsView(props: SettingsViewProps) {
  const { base, business: b, role, values, refused } = props;
  const err = (section: Section, f: Field) => (refused?.section === section ? refused.errors[f] : undefined);
  const idem = (section: Section) => (refused?.section === section ? refused.idem : undefined);
  const first = (section: Section) => SECTION_FIELDS[section].find((f) => err(section, f));
  if (role === 'teammate') {
    return (
      <AppShell base={base} title="Settings" current={SETTINGS} notice={props.notice} error={props.error}>
        <ReadOnly business={b} links={props.links} />
      </AppShell>
    );
  }
  const field = (section: Section, name: Exclude<Field, 'require_clock_photo' | 'auto_fill_on_cancel'>) => ({
    name,
    value: values[name],
    error: err(section, name),
    autofocus: first(section) === name,
  });
  return (
    <AppShell base={base} title="Settings" current={SETTINGS} notice={props.notice} error={props.error}>
      <Card title="Profile">
        <SectionForm base={base} section="profile" idem={idem('profile')} label="Save the profile">
          <div class="form-grid">
            <InputField label="Name" type="text" maxLength={120} {...field('profile', 'name')} />
            <InputField
              label="Time zone"
              type="text"
              maxLength={64}
              hint="Shift times are in this zone; changing it keeps upcoming shifts at the same wall-clock times."
              {...field('profile', 'timezone')}
            />
            <InputField label="Address (optional)" type="text" maxLength={300} wide {...field('profile', 'address')} />
            <InputField
              label="Latitude"
              type="text"
              inputMode="decimal"
              hint="Where clock-ins are checked from."
              {...field('profile', 'latitude')}
            />
            <InputField label="Longitude" type="text" inputMode="decimal" {...field('profile', 'longitude')} />
          </div>
          <p class="hint">
            Slug <code>{b.slug}</code>: the business's name in public links, set when it was created.
          </p>
        </SectionForm>
      </Card>
      <div class="grid">
        <Card title="Clock-in rules">
          <SectionForm base={base} section="clock" idem={idem('clock')} label="Save the rules">
            <InputField
              label="Geofence radius (meters)"
              type="text"
              inputMode="numeric"
              hint="Clock-ins farther than this from the business are refused. Empty: no check."
              {...field('clock', 'geofence_radius_m')}
            />
            <Checkbox
              name="require_clock_photo"
              label="A photo is required to clock in and out"
              checked={values.require_clock_photo}
              error={err('clock', 'require_clock_photo')}
            />
          </SectionForm>
        </Card>
        <Card title="Weekly budget">
          <SectionForm base={base} section="budget" idem={idem('budget')} label="Save the budget">
            <InputField
              label={`Weekly labor budget (${b.currency})`}
              type="text"
              inputMode="decimal"
              hint="Labor costs are shown against it. Empty: no budget."
              {...field('budget', 'weekly_labor_budget')}
            />
          </SectionForm>
        </Card>
        <Card title="Auto-fill on cancel">
          <SectionForm base={base} section="autofill" idem={idem('autofill')} label="Save">
            <Checkbox
              name="auto_fill_on_cancel"
              label="When a shifter cancels, offer the shift to the crew at once"
              checked={values.auto_fill_on_cancel}
              error={err('autofill', 'auto_fill_on_cancel')}
            />
          </SectionForm>
        </Card>
        <Card title="Default business">
          {b.is_default ? (
            <p>This is your default business: the API and agents use it when no business is named.</p>
          ) : role === 'owner' ? (
            <form method="post" action={dashboardHref(base, `${SETTINGS}/default`)} class="stack">
              <p>The API and agents use your default business when no business is named.</p>
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <SubmitButton variant="secondary">Make it my default business</SubmitButton>
            </form>
          ) : (
            <p class="muted">Only the owner chooses their default business.</p>
          )}
        </Card>
      </div>
      <PartnersCard links={props.links} base={base} link={props.link} scopesForm={props.scopesForm} />
    </AppShell>
  );
}
