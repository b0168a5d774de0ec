/**
 * The /dashboard/settings page as the owner (or an admin) sees it: one form for the business's
 * settings, its sections as fieldsets (profile, clock-in rules with the venue's position, weekly
 * budget, auto-fill) and one Save, so nothing typed in one section is lost by saving another; then
 * the separate acts, each its own form after it: the default business and the partners. A teammate
 * gets read-only.tsx instead.
 */

import type { Child } from 'hono/jsx';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { BusinessRole } from '@/services/access';
import type { BusinessView } from '@/services/accounts';
import type { PartnerLinkView } from '@/services/partners';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { AppShell } from '@/web/features/dashboard/shell';
import { PartnersCard } from './partners-card';
import { ReadOnly } from './read-only';
import { type Flag, FORM_ORDER, type FormField, type LinkFormState, type ScopesFormState, SETTINGS, type Values } from './settings-shared';
import { locationSentence } from './venue-location.model';
import { ZoneOptions } from '@/web/time-zones';

interface SettingsViewProps {
  base: DashboardBase;
  business: BusinessView;
  role: BusinessRole;
  links: PartnerLinkView[];
  /** What the form shows: what is stored, or everything a refused save sent. */
  values: Values;
  /** A refused save: the messages beside their fields and the form's key, kept for the retry. */
  refused?: { errors: Partial<Record<FormField, string>>; idem: string } | undefined;
  link?: LinkFormState | undefined;
  scopesForm?: ScopesFormState | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}

/** A section of the settings form: a fieldset whose legend is the section's heading. */
function Section(props: { title: string; id: string; children: Child; island?: string | undefined }) {
  return (
    <fieldset class="card settings-section" id={props.id} data-island={props.island} data-props={props.island ? '{}' : undefined}>
      <legend>
        <h2>{props.title}</h2>
      </legend>
      {props.children}
    </fieldset>
  );
}

/** A box that posts "0" when unticked (the hidden field before it), so an unticked box is sent as off. */
function Checkbox(props: { name: Flag; label: string; checked: boolean; error?: string | undefined; autofocus?: boolean }) {
  const id = `field-${props.name}`;
  return (
    <div class="field checkbox">
      <input type="hidden" name={props.name} value="0" />
      <input
        type="checkbox"
        id={id}
        name={props.name}
        value="1"
        checked={props.checked}
        autofocus={props.autofocus}
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

/** The time zone: every IANA zone, grouped by region and named by city; the stored (or sent) one selected. */
function ZoneSelect(props: { value: string; error?: string | undefined; autofocus?: boolean }) {
  const id = 'field-timezone';
  const described = ['field-timezone-hint', props.error ? 'field-timezone-error' : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>Time zone</label>
      <select
        id={id}
        name="timezone"
        autofocus={props.autofocus}
        aria-describedby={described}
        aria-invalid={props.error ? 'true' : undefined}
      >
        <ZoneOptions value={props.value} />
      </select>
      <p class="hint" id="field-timezone-hint">
        Type a city's first letters to find it. Shift times are in this zone; changing it keeps upcoming shifts at their wall-clock times.
      </p>
      {props.error ? (
        <p class="field-error" id="field-timezone-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function SettingsView(props: SettingsViewProps) {
  const { base, business: b, role, values, refused } = props;
  if (role === 'teammate') {
    return (
      <AppShell base={base} title="Settings" current={SETTINGS} notice={props.notice} error={props.error}>
        <ReadOnly business={b} links={props.links} />
      </AppShell>
    );
  }
  const errors = refused?.errors ?? {};
  const first = FORM_ORDER.find((f) => errors[f]);
  const field = (name: Exclude<FormField, Flag | 'timezone'>) => ({
    name,
    value: values[name],
    error: errors[name],
    autofocus: first === name,
  });
  const island = WEB_ENTRIES.islands['venue-location'];
  return (
    <AppShell base={base} title="Settings" current={SETTINGS} notice={props.notice} error={props.error} scripts={[island.js]}>
      <form method="post" action={dashboardHref(base, SETTINGS)} class="settings-form" novalidate id="settings-form">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField value={refused?.idem} />
        <p class="hint">Change any of the sections below, then save them all at once with the button at the end.</p>
        <Section title="Profile" id="profile">
          <div class="form-grid">
            <InputField label="Name" type="text" maxLength={120} {...field('name')} />
            <ZoneSelect value={values.timezone} error={errors.timezone} autofocus={first === 'timezone'} />
            <InputField label="Address (optional)" type="text" maxLength={300} wide {...field('address')} />
          </div>
          <p class="hint">
            Slug <code>{b.slug}</code>: the business's name in public links, set when it was created.
          </p>
        </Section>
        <Section title="Clock-in rules" id="clock-in" island="venue-location">
          <h3 class="settings-subhead">Where the venue is</h3>
          <div class="device-position">
            <button type="button" class="button button-secondary" data-device-position hidden>
              Use this device's position
            </button>
            <p class="hint" id="device-position-status" aria-live="polite" />
          </div>
          <InputField
            label="Map link (optional)"
            type="text"
            inputMode="url"
            maxLength={2000}
            hint="Paste a link from Google Maps, Apple Maps or OpenStreetMap, or a position such as 40.7128, -74.0060: saving reads the latitude and longitude from it."
            {...field('map_link')}
          />
          <div class="form-grid">
            <InputField label="Latitude" type="text" inputMode="decimal" hint="From −90 to 90, e.g. 40.7128." {...field('latitude')} />
            <InputField label="Longitude" type="text" inputMode="decimal" hint="From −180 to 180, e.g. −74.0060." {...field('longitude')} />
            <InputField
              label="Geofence radius (meters)"
              type="text"
              inputMode="numeric"
              hint="Clock-ins farther than this from the venue are refused. Empty: no check."
              {...field('geofence_radius_m')}
            />
          </div>
          <p class="location-preview" id="location-preview">
            {locationSentence(values.latitude, values.longitude, values.geofence_radius_m)}
          </p>
          <Checkbox
            name="require_clock_photo"
            label="A photo is required to clock in and out"
            checked={values.require_clock_photo}
            error={errors.require_clock_photo}
            autofocus={first === 'require_clock_photo'}
          />
        </Section>
        <div class="grid">
          <Section title="Weekly budget" id="budget">
            <InputField
              label={`Weekly labor budget (${b.currency})`}
              type="text"
              inputMode="decimal"
              hint="Labor costs are shown against it. Empty: no budget."
              {...field('weekly_labor_budget')}
            />
          </Section>
          <Section title="Auto-fill on cancel" id="autofill">
            <Checkbox
              name="auto_fill_on_cancel"
              label="When a shifter cancels, offer the shift to the crew at once"
              checked={values.auto_fill_on_cancel}
              error={errors.auto_fill_on_cancel}
              autofocus={first === 'auto_fill_on_cancel'}
            />
          </Section>
        </div>
        <div class="settings-save">
          <SubmitButton>Save the settings</SubmitButton>
        </div>
      </form>
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
      <PartnersCard links={props.links} base={base} link={props.link} scopesForm={props.scopesForm} />
    </AppShell>
  );
}
