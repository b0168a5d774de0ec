/**
 * The GET of /dashboard/settings and the posts of its own forms: a group of settings
 * (updateSettings) and the default business (makeDefaultBusiness).
 */

import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { makeDefaultBusiness } from '@/services/accounts';
import { businessSettingsInput, updateSettings } from '@/services/businesses';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { dashboardHref } from '@/web/features/dashboard/context';
import { fieldErrorsOf } from '@/web/features/dashboard/refusals';
import {
  type Field,
  FIELDS,
  loadSettings,
  SECTION_FIELDS,
  type Section,
  SECTIONS,
  SETTINGS,
  settingsBase,
  type Values,
  valuesOf,
} from './settings-shared';
import { SettingsView } from './settings-view';

/** What a field's refusal by the schema says (the service's own messages are shown as they come). */
const FIELD_HELP: Record<Field, string> = {
  name: 'Enter the business name, 1 to 120 characters.',
  address: 'Keep the address under 300 characters.',
  latitude: 'Enter a latitude from -90 to 90, e.g. 38.7223, or leave it empty.',
  longitude: 'Enter a longitude from -180 to 180, e.g. -9.1393, or leave it empty.',
  timezone: 'Enter a time zone name as the IANA database writes it, e.g. America/New_York or Europe/Lisbon.',
  geofence_radius_m: 'Enter a whole number of meters from 10 to 100000, or leave it empty for no check.',
  require_clock_photo: 'Choose whether a photo is required.',
  weekly_labor_budget: 'Enter the budget as an amount of 0 or more, e.g. 4500, or leave it empty for none.',
  auto_fill_on_cancel: 'Choose whether to auto-fill.',
};

const NOTICES: Record<string, string> = {
  profile: 'The profile was saved.',
  clock: 'The clock-in rules were saved.',
  budget: 'The weekly budget was saved.',
  autofill: 'Auto-fill on cancel was saved.',
  default: 'This is now your default business.',
  linked: 'The partner was linked.',
  scopes: 'What the partner may do was changed: it applies from its next request.',
  unlinked: 'The partner was unlinked: its access to this business ended.',
};

export async function renderSettings(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const data = await loadSettings(c, base);
  return renderPage(
    c,
    <SettingsView base={base} {...data} values={valuesOf(data.business)} notice={NOTICES[c.req.query('notice') ?? '']} />,
  );
}

/** A text field of the form as the schema takes it: empty is null for the nullable ones, numbers as numbers. */
function inputOf(section: Section, f: (name: string, max?: number) => string): Record<string, unknown> {
  const num = (name: string) => {
    const v = f(name, 40).trim();
    return v === '' ? null : Number(v.replace(/,/g, ''));
  };
  const flag = (name: string) => f(name, 1) === '1';
  switch (section) {
    case 'profile':
      return {
        name: f('name', 200),
        address: f('address', 400).trim() || null,
        latitude: num('latitude'),
        longitude: num('longitude'),
        timezone: f('timezone', 100).trim(),
      };
    case 'clock':
      return { geofence_radius_m: num('geofence_radius_m'), require_clock_photo: flag('require_clock_photo') };
    case 'budget':
      return { weekly_labor_budget: num('weekly_labor_budget') };
    case 'autofill':
      return { auto_fill_on_cancel: flag('auto_fill_on_cancel') };
  }
}

/** POST /dashboard/settings: one group of settings (`section`), through updateSettings. */
export async function postSettings(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const f = await formFields(c);
  const section = (SECTIONS as readonly string[]).includes(f('section')) ? (f('section') as Section) : null;
  if (!section) return c.redirect(dashboardHref(base, SETTINGS), 303);
  const idem = f('_idem', 255);
  // What was typed in this form, kept as typed; the other forms show what is stored.
  const typed: Partial<Values> = {};
  for (const name of SECTION_FIELDS[section]) {
    if (name === 'require_clock_photo' || name === 'auto_fill_on_cancel') typed[name] = f(name, 1) === '1';
    else typed[name] = f(name, name === 'address' ? 400 : 200);
  }
  const again = async (status: ContentfulStatusCode, errors: Partial<Record<Field, string>>, error: string) => {
    const data = await loadSettings(c, base);
    return renderPage(
      c,
      <SettingsView
        base={base}
        {...data}
        values={{ ...valuesOf(data.business), ...typed }}
        refused={{ section, errors, idem }}
        error={error}
      />,
      status,
    );
  };
  const parsed = businessSettingsInput.safeParse({ business_id: base.business!.id, ...inputOf(section, f) });
  if (!parsed.success) {
    const errors: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '') as Field;
      if ((FIELDS as readonly string[]).includes(name)) errors[name] ??= FIELD_HELP[name];
    }
    return again(400, errors, 'Not saved: see the message beside the field.');
  }
  try {
    await updateSettings(serviceCtx(c), parsed.data);
  } catch (err) {
    const { errors, rest } = fieldErrorsOf(err, FIELDS, {});
    return again((err as AppError).status as ContentfulStatusCode, errors, rest ?? 'Not saved: see the message beside the field.');
  }
  return c.redirect(dashboardHref(base, SETTINGS, { notice: section }), 303);
}

/** POST /dashboard/settings/default: the owner's default business (makeDefaultBusiness). */
export async function postDefaultBusiness(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  try {
    await makeDefaultBusiness(serviceCtx(c), base.business!.id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const data = await loadSettings(c, base);
    return renderPage(
      c,
      <SettingsView base={base} {...data} values={valuesOf(data.business)} error={err.message} />,
      err.status as ContentfulStatusCode,
    );
  }
  return c.redirect(dashboardHref(base, SETTINGS, { notice: 'default' }), 303);
}
