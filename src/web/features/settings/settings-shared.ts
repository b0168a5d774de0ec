/**
 * What every part of /dashboard/settings shares: its address, the settings' groups and fields, the
 * forms' values and states, the words of the partners' scopes, and what the page loads.
 */

import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import type { BusinessView } from '@/services/accounts';
import { getBusinessSettings } from '@/services/businesses';
import { listPartnerLinks, partnerScopeSchema } from '@/services/partners';
import { type DashboardBase, dashboardBase } from '@/web/features/dashboard/context';

export const SETTINGS = '/dashboard/settings';

export const SECTIONS = ['profile', 'clock', 'budget', 'autofill'] as const;
export type Section = (typeof SECTIONS)[number];

export const FIELDS = [
  'name',
  'address',
  'latitude',
  'longitude',
  'timezone',
  'geofence_radius_m',
  'require_clock_photo',
  'weekly_labor_budget',
  'auto_fill_on_cancel',
] as const;
export type Field = (typeof FIELDS)[number];
export const SECTION_FIELDS: Record<Section, readonly Field[]> = {
  profile: ['name', 'address', 'latitude', 'longitude', 'timezone'],
  clock: ['geofence_radius_m', 'require_clock_photo'],
  budget: ['weekly_labor_budget'],
  autofill: ['auto_fill_on_cancel'],
};

export const SCOPE_WORDS: Record<string, string> = {
  'shifts:read': 'read your shift requests and open broadcasts',
  'shifts:write': 'post shifts for you',
  'shifters:read': 'read your crew',
  'webhooks:manage': 'manage its webhook endpoints',
};
export const SCOPES = partnerScopeSchema.options;

/** The forms' values as text, as the page shows them. */
export type Values = Record<Exclude<Field, 'require_clock_photo' | 'auto_fill_on_cancel'>, string> & {
  require_clock_photo: boolean;
  auto_fill_on_cancel: boolean;
};

export function valuesOf(b: BusinessView): Values {
  const text = (v: number | string | null) => (v === null ? '' : String(v));
  return {
    name: b.name,
    address: text(b.address),
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
