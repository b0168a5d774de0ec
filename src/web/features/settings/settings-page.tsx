/**
 * The GET of /dashboard/settings and the posts of its own forms: the settings form, every section at
 * once (updateSettings), and the default business (makeDefaultBusiness).
 */

import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { makeDefaultBusiness } from '@/services/accounts';
import { businessSettingsInput, parseMapLink, updateSettings } from '@/services/businesses';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { dashboardHref } from '@/web/features/dashboard/context';
import { fieldErrorsOf, noticeOf } from '@/web/features/dashboard/refusals';
import {
  type Field,
  FIELDS,
  type Flag,
  FORM_ORDER,
  type FormField,
  loadSettings,
  SETTINGS,
  settingsBase,
  type Values,
  valuesOf,
} from './settings-shared';
import { SettingsView } from './settings-view';
import { numberOf } from './venue-location.model';

/** What a field's refusal by the schema says (the service's own messages are shown as they come). */
const FIELD_HELP: Record<Field, string> = {
  name: 'Enter the business name, 1 to 120 characters.',
  address: 'Keep the address under 300 characters.',
  latitude: 'Enter a latitude from -90 to 90, e.g. 38.7223, or leave it empty.',
  longitude: 'Enter a longitude from -180 to 180, e.g. -9.1393, or leave it empty.',
  timezone: 'Choose a time zone from the list: what was sent is not one.',
  geofence_radius_m: 'Enter a whole number of meters from 10 to 100000, or leave it empty for no check.',
  require_clock_photo: 'Choose whether a photo is required.',
  weekly_labor_budget: 'Enter the budget as an amount of 0 or more, e.g. 4500, or leave it empty for none.',
  auto_fill_on_cancel: 'Choose whether to auto-fill.',
};

const NOTICES = {
  saved: 'The settings were saved.',
  'saved-link': "The settings were saved, with the venue's position read from the map link.",
  default: 'This is now your default business.',
  linked: 'The partner was linked.',
  scopes: 'What the partner may do was changed: it applies from its next request.',
  unlinked: 'The partner was unlinked: its access to this business ended.',
};

export async function renderSettings(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const data = await loadSettings(c, base);
  return renderPage(c, <SettingsView base={base} {...data} values={valuesOf(data.business)} notice={noticeOf(c, NOTICES)} />);
}

/** How much of each text field is read (a form is never trusted to be short). */
const MAX: Record<Exclude<FormField, Flag>, number> = {
  name: 200,
  timezone: 100,
  address: 400,
  map_link: 2000,
  latitude: 40,
  longitude: 40,
  geofence_radius_m: 40,
  weekly_labor_budget: 40,
};
const NUMBERS: readonly Field[] = ['latitude', 'longitude', 'geofence_radius_m', 'weekly_labor_budget'];

/** A field as the schema takes it: numbers as numbers (empty is null, unreadable NaN, which it refuses), an empty address null. */
function inputOf(name: Field, value: string | boolean): unknown {
  if (typeof value === 'boolean') return value;
  const text = value;
  if (NUMBERS.includes(name)) return numberOf(text) ?? (text.trim() === '' ? null : Number.NaN);
  if (name === 'address') return text.trim() || null;
  return name === 'timezone' ? text.trim() : text;
}

/**
 * POST /dashboard/settings: every section of the form at once, through one updateSettings. A field
 * the post carries is sent (an empty one clears it, an unticked box posts off); one it lacks is left
 * as stored. A pasted map link fills the latitude and longitude. Any refusal, the page's checks and
 * the service's alike, shows the whole form again as it was sent, each message beside its field.
 */
export async function postSettings(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const body = await c.req.parseBody();
  const f = await formFields(c);
  const posted = (name: string) => typeof body[name] === 'string';
  const idem = f('_idem', 255);
  const typed: Partial<Values> = {};
  for (const name of FORM_ORDER) {
    if (!posted(name)) continue;
    if (name === 'require_clock_photo' || name === 'auto_fill_on_cancel') typed[name] = f(name, 1) === '1';
    else typed[name] = f(name, MAX[name]);
  }
  const again = async (status: ContentfulStatusCode, errors: Partial<Record<FormField, string>>, error?: string) => {
    const data = await loadSettings(c, base);
    const count = Object.keys(errors).length;
    const words = count === 1 ? 'one field needs' : `${count} fields need`;
    return renderPage(
      c,
      <SettingsView
        base={base}
        {...data}
        values={{ ...valuesOf(data.business), ...typed }}
        refused={{ errors, idem }}
        error={error ?? `Nothing was saved: ${words} a change (marked below); everything you typed is still there.`}
      />,
      status,
    );
  };

  const errors: Partial<Record<FormField, string>> = {};
  const link = typed.map_link?.trim() ?? '';
  if (link) {
    const read = parseMapLink(link);
    if (read.ok) {
      typed.latitude = String(read.latitude);
      typed.longitude = String(read.longitude);
    } else errors.map_link = read.message;
  }
  const input: Record<string, unknown> = { business_id: base.business!.id };
  for (const name of FIELDS) {
    const value = typed[name];
    if (value !== undefined) input[name] = inputOf(name, value);
  }
  const parsed = businessSettingsInput.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '') as Field;
      if ((FIELDS as readonly string[]).includes(name)) errors[name] ??= FIELD_HELP[name];
    }
  }
  if (!parsed.success || Object.keys(errors).length) return again(400, errors);
  try {
    await updateSettings(serviceCtx(c), parsed.data);
  } catch (err) {
    const { errors: refused, rest } = fieldErrorsOf(err, FIELDS, {});
    return again((err as AppError).status as ContentfulStatusCode, refused, rest ?? undefined);
  }
  return c.redirect(dashboardHref(base, SETTINGS, { notice: link ? 'saved-link' : 'saved' }), 303);
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
