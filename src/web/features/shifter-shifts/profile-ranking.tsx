import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { HOME_AREA_MAX, SHIFTER_ROLES_MAX, type ShifterView, TRAVEL_KM_MAX } from '@/services/accounts';
import { parseMapLink } from '@/services/businesses';
import type { ShiftRoleView } from '@/services/shifts';
import { InputField, TextField } from '@/web/components';
import { formatMoney } from '@/web/format';
import { coordinateText, numberOf } from '@/web/features/settings/venue-location.model';
import { ZoneOptions } from '@/web/time-zones';

/*
 * The profile's part that ranks open shifts (services/shifts/relevance.ts): the roles you do, your
 * home area (a name and its position: this device's, a pasted map link's, or typed), how far you
 * travel and your lowest hourly rate; and your time zone. Part of the profile's one form.
 */

export type RankField =
  | 'timezone'
  | 'roles'
  | 'home_area'
  | 'map_link'
  | 'home_latitude'
  | 'home_longitude'
  | 'travel_km'
  | 'min_hourly_rate'
  | 'min_hourly_rate_currency';
export const RANK_FIELDS: readonly RankField[] = [
  'timezone',
  'roles',
  'home_area',
  'map_link',
  'home_latitude',
  'home_longitude',
  'travel_km',
  'min_hourly_rate',
  'min_hourly_rate_currency',
];

/** What the form shows: what is stored, or everything a refused save sent (roles as a comma list). */
export type RankTyped = Partial<Record<RankField, string>>;

/** The stored fields as the form writes them. */
export function rankTypedOf(me: ShifterView): RankTyped {
  const num = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
  return {
    timezone: me.timezone,
    roles: (me.roles ?? []).join(','),
    home_area: me.home_area ?? '',
    map_link: '',
    home_latitude: num(me.home_latitude),
    home_longitude: num(me.home_longitude),
    travel_km: num(me.travel_km),
    min_hourly_rate: num(me.min_hourly_rate),
    min_hourly_rate_currency: me.min_hourly_rate_currency ?? me.currency,
  };
}

/** The people's words for a field the schema refused. */
export const RANK_HELP: Record<RankField, string> = {
  timezone: 'Choose your time zone from the list.',
  roles: `Choose at most ${SHIFTER_ROLES_MAX} roles.`,
  home_area: `Up to ${HOME_AREA_MAX} characters, like “Astoria, Queens”.`,
  map_link: 'Paste a Google Maps, Apple Maps or OpenStreetMap link.',
  home_latitude: 'A latitude between −90 and 90, like 40.7128.',
  home_longitude: 'A longitude between −180 and 180, like −74.0060.',
  travel_km: `Whole kilometers, 1 to ${TRAVEL_KM_MAX}; leave it empty for no limit.`,
  min_hourly_rate: 'An amount per hour, like 20 or 18.50; leave it empty for none.',
  min_hourly_rate_currency: 'A currency code, like USD.',
};

/**
 * The posted fields as the service's input, and as the form shows them again; a pasted map link
 * is read here (parseMapLink, as the business settings read one) into the home's position, and a
 * link it cannot read is refused beside its field.
 */
export async function rankInput(c: Context<AppEnv>): Promise<{ typed: RankTyped; input: Record<string, unknown>; errors: RankTyped }> {
  const b = await c.req.parseBody({ all: true });
  const one = (k: string, max = 200) => {
    const v = Array.isArray(b[k]) ? b[k][0] : b[k];
    return typeof v === 'string' ? v.slice(0, max).trim() : '';
  };
  const roles = ([] as unknown[])
    .concat(b.roles ?? [])
    .filter((v): v is string => typeof v === 'string')
    .slice(0, 50);
  const typed: RankTyped = {
    timezone: one('timezone', 64),
    roles: roles.join(','),
    home_area: one('home_area', 300),
    map_link: one('map_link', 2000),
    home_latitude: one('home_latitude', 40),
    home_longitude: one('home_longitude', 40),
    travel_km: one('travel_km', 20),
    min_hourly_rate: one('min_hourly_rate', 20),
    min_hourly_rate_currency: one('min_hourly_rate_currency', 3),
  };
  const errors: RankTyped = {};
  if (typed.map_link) {
    const read = parseMapLink(typed.map_link);
    if (read.ok) {
      typed.home_latitude = String(read.latitude);
      typed.home_longitude = String(read.longitude);
      typed.map_link = '';
    } else errors.map_link = read.message;
  }
  const num = (f: RankField) => {
    const n = numberOf(typed[f] ?? '');
    return n === undefined ? Number.NaN : n;
  };
  const input: Record<string, unknown> = {
    roles: roles.map(Number),
    home_area: typed.home_area || null,
    home_latitude: num('home_latitude'),
    home_longitude: num('home_longitude'),
    travel_km: num('travel_km'),
    min_hourly_rate: num('min_hourly_rate'),
  };
  if (typed.timezone) input.timezone = typed.timezone;
  if (typed.min_hourly_rate) input.min_hourly_rate_currency = typed.min_hourly_rate_currency;
  return { typed, input, errors };
}

interface RankFieldsProps {
  typed: RankTyped;
  errors: RankTyped;
  roles: ShiftRoleView[];
  currency: string;
  /** The zone is still the one the service placed them in (UTC): the page asks them to set it. */
  zoneUnset: boolean;
}

/** The fields of "Shifts for you", with each refusal beside its field and everything typed kept. */
export function RankFields({ typed, errors, roles, currency, zoneUnset }: RankFieldsProps) {
  const chosen = new Set((typed.roles ?? '').split(',').filter(Boolean));
  const lat = numberOf(typed.home_latitude ?? '');
  const lon = numberOf(typed.home_longitude ?? '');
  const where =
    typeof lat === 'number' && typeof lon === 'number'
      ? `Distances count from ${coordinateText(lat)}, ${coordinateText(lon)}.`
      : 'No home area yet: distances count from your city, when the profile has one.';
  const rateCurrency = typed.min_hourly_rate_currency || currency;
  return (
    <>
      <div class="field" id="time-zone">
        <label for="field-timezone">Your time zone</label>
        <select
          id="field-timezone"
          name="timezone"
          aria-describedby={`field-timezone-hint${errors.timezone ? ' field-timezone-error' : ''}`}
          aria-invalid={errors.timezone ? 'true' : undefined}
        >
          <ZoneOptions value={typed.timezone ?? 'UTC'} />
        </select>
        <p class="hint" id="field-timezone-hint">
          {zoneUnset
            ? 'Set your time zone: until you do, your own times are shown in UTC.'
            : 'Your earnings weeks and your own clock on shift pages are in this zone.'}
        </p>
        {errors.timezone ? (
          <p class="field-error" id="field-timezone-error">
            {errors.timezone}
          </p>
        ) : null}
      </div>
      <fieldset class="fieldset sf-roles" aria-describedby={errors.roles ? 'field-roles-error' : 'field-roles-hint'}>
        <legend>Roles you do</legend>
        <p class="hint" id="field-roles-hint">
          {`Open shifts in these roles rank higher for you. Up to ${SHIFTER_ROLES_MAX}.`}
        </p>
        <div class="sf-role-list">
          {roles.map((r) => (
            <span class="choice">
              <input type="checkbox" id={`role-${r.id}`} name="roles" value={String(r.id)} checked={chosen.has(String(r.id))} />
              <label for={`role-${r.id}`}>{r.label}</label>
            </span>
          ))}
        </div>
        {errors.roles ? (
          <p class="field-error" id="field-roles-error">
            {errors.roles}
          </p>
        ) : null}
      </fieldset>
      <fieldset class="fieldset" data-island="home-area" aria-describedby="home-area-preview">
        <legend>Home area</legend>
        <TextField
          label="Name of your area"
          name="home_area"
          value={typed.home_area}
          maxLength={HOME_AREA_MAX}
          hint="Only you see it; shifts near it rank higher. Leave it empty to remove it."
          error={errors.home_area}
        />
        <div class="sf-actions">
          <button type="button" class="button button-secondary" data-device-position hidden>
            Use this device's position
          </button>
        </div>
        <p class="hint" id="device-position-status" aria-live="polite" />
        <TextField
          label="Or paste a map link"
          name="map_link"
          value={typed.map_link}
          maxLength={2000}
          inputMode="url"
          hint="From Google Maps, Apple Maps or OpenStreetMap: its position is read when you save."
          error={errors.map_link}
        />
        <InputField
          label="Latitude"
          name="home_latitude"
          type="text"
          inputMode="decimal"
          value={typed.home_latitude}
          error={errors.home_latitude}
        />
        <InputField
          label="Longitude"
          name="home_longitude"
          type="text"
          inputMode="decimal"
          value={typed.home_longitude}
          error={errors.home_longitude}
        />
        <p class="hint" id="home-area-preview">
          {where}
        </p>
      </fieldset>
      <InputField
        label="How far you will travel (km)"
        name="travel_km"
        type="number"
        inputMode="numeric"
        min="1"
        max={String(TRAVEL_KM_MAX)}
        value={typed.travel_km}
        hint="Shifts farther from your home area rank lower. Leave it empty for no limit."
        error={errors.travel_km}
      />
      <InputField
        label={`Lowest hourly rate you take (${rateCurrency})`}
        name="min_hourly_rate"
        type="number"
        step={0.01}
        min="0.01"
        inputMode="decimal"
        value={typed.min_hourly_rate}
        hint={`Shifts paying less rank lower, like ${formatMoney(15, rateCurrency)}/h under ${formatMoney(20, rateCurrency)}. Leave it empty for none.`}
        error={errors.min_hourly_rate ?? errors.min_hourly_rate_currency}
      />
      <input type="hidden" name="min_hourly_rate_currency" value={rateCurrency} />
    </>
  );
}
