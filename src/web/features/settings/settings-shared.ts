/**
 * What every part of /dashboard/settings shares: its address, the settings' fields, the forms'
 * values and states, the words of the partners' scopes, and what the page loads.
 */

import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import type { BusinessView } from '@/services/accounts';
import { getBusinessSettings } from '@/services/businesses';
import { listPartnerLinks, partnerScopeSchema } from '@/services/partners';
import { type DashboardBase, dashboardBase } from '@/web/features/dashboard/context';

export const SETTINGS = '/dashboard/settings';

/**
 * The settings' fields as the settings service takes them (businessSettingsInput), in the page's
 * order: the profile, the clock-in rules (the venue's position and the radius around it, the photo),
 * the weekly budget and auto-fill on cancel. One form holds them all and posts them together.
 */
export const FIELDS = [
  'name',
  'timezone',
  'address',
  'latitude',
  'longitude',
  'geofence_radius_m',
  'require_clock_photo',
  'weekly_labor_budget',
  'auto_fill_on_cancel',
] as const;
export type Field = (typeof FIELDS)[number];
export type Flag = Extract<Field, 'require_clock_photo' | 'auto_fill_on_cancel'>;
/** What the form has besides the service's fields: a pasted map link, read into the latitude and longitude. */
export type FormField = Field | 'map_link';
/** The form's fields top to bottom: the first refused one takes the focus. */
export const FORM_ORDER: readonly FormField[] = [
  'name',
  'timezone',
  'address',
  'map_link',
  'latitude',
  'longitude',
  'geofence_radius_m',
  'require_clock_photo',
  'weekly_labor_budget',
  'auto_fill_on_cancel',
];

export const SCOPE_WORDS: Record<string, string> = {
  'shifts:read': 'read your shift requests and open broadcasts',
  'shifts:write': 'post shifts for you',
  'shifters:read': 'read your crew',
  'webhooks:manage': 'manage its webhook endpoints',
};
export const SCOPES = partnerScopeSchema.options;

/** The form's values as the page shows them: text as typed, the boxes ticked or not. */
export type Values = Record<Exclude<FormField, Flag>, string> & Record<Flag, boolean>;

export function valuesOf(b: BusinessView): Values {
  const text = (v: number | string | null) => (v === null ? '' : String(v));
  return {
    name: b.name,
    address: text(b.address),
    map_link: '',
    latitude: text(b.latitude),
    longitude: text(b.longitude),
    timezone: b.timezone,
    geofence_radius_m: text(b.geofence_radius_m),
    require_clock_photo: b.require_clock_photo,
    weekly_labor_budget: text(b.weekly_labor_budget),
    auto_fill_on_cancel: b.auto_fill_on_cancel,
  };
}

/** A link's scopes as a refused change left them (ticked as sent), with the message. */
export interface ScopesFormState {
  client_id: string;
  scopes: string[];
  error: string;
  idem: string;
}

export interface LinkFormState {
  client_id: string;
  scopes: string[];
  errors?: { client_id?: string | undefined; scopes?: string | undefined };
  idem?: string | undefined;
}

export async function loadSettings(c: Context<AppEnv>, base: DashboardBase) {
  const ctx = serviceCtx(c);
  const [got, links] = await Promise.all([
    getBusinessSettings(ctx, base.business!.id),
    listPartnerLinks(ctx, base.business!.id, { limit: 100 }),
  ]);
  return { business: got.business, role: got.role, links: links.data };
}

export async function settingsBase(c: Context<AppEnv>): Promise<DashboardBase | null> {
  const base = await dashboardBase(c);
  return base.business ? base : null;
}
