/**
 * The time zones every form offers (business settings, creating a business, notification
 * preferences): every IANA zone the runtime knows
 * (`Intl.supportedValuesOf('timeZone')`), grouped by region and named by their city, UTC first.
 * The zone the business has (or the one a refused form sent) is always among them: one the runtime
 * does not list (another name of a listed zone, such as Asia/Kolkata for Asia/Calcutta, or what a
 * refused form sent) comes first under its own name, so what is stored or sent is what is shown.
 */

export interface ZoneOption {
  value: string;
  label: string;
}
export interface ZoneGroup {
  region: string;
  zones: ZoneOption[];
}

const REGIONS: Record<string, string> = {
  Africa: 'Africa',
  America: 'Americas',
  Antarctica: 'Antarctica',
  Arctic: 'Arctic',
  Asia: 'Asia',
  Atlantic: 'Atlantic Ocean',
  Australia: 'Australia',
  Europe: 'Europe',
  Indian: 'Indian Ocean',
  Pacific: 'Pacific Ocean',
};
const OTHER = 'Other';

/** "America/Argentina/Buenos_Aires" → "Buenos Aires (Argentina)". */
function labelOf(zone: string): string {
  const parts = zone.split('/').map((p) => p.replace(/_/g, ' '));
  if (parts.length === 1) return parts[0]!;
  const city = parts[parts.length - 1]!;
  return parts.length > 2 ? `${city} (${parts.slice(1, -1).join(', ')})` : city;
}

const regionOf = (zone: string) => REGIONS[zone.split('/')[0] ?? ''] ?? OTHER;

/**
 * The runtime lists some zones by their old names (ICU keeps CLDR's ids stable); the list offers
 * today's IANA name instead, when the runtime takes it. Both names are the same zone.
 */
const RENAMED: Record<string, string> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

function taken(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

let known: string[] | null = null;
const supported = () =>
  (known ??= [
    ...new Set(
      Intl.supportedValuesOf('timeZone')
        .filter((z) => z !== 'UTC')
        .map((z) => (RENAMED[z] && taken(RENAMED[z]) ? RENAMED[z] : z)),
    ),
  ]);

/** The options: UTC (after `current` when the runtime does not list it), then each region's zones by city. */
export function zoneChoices(current: string): { first: ZoneOption[]; groups: ZoneGroup[] } {
  const zones = supported();
  const byRegion = new Map<string, ZoneOption[]>();
  for (const zone of zones) {
    const region = regionOf(zone);
    const list = byRegion.get(region) ?? [];
    list.push({ value: zone, label: labelOf(zone) });
    byRegion.set(region, list);
  }
  const order = [...Object.values(REGIONS), OTHER];
  const groups = order
    .filter((r) => byRegion.has(r))
    .map((region) => ({ region, zones: byRegion.get(region)!.sort((a, b) => a.label.localeCompare(b.label, 'en')) }));
  const first: ZoneOption[] = [{ value: 'UTC', label: 'UTC (Coordinated Universal Time)' }];
  if (current && current !== 'UTC' && !zones.includes(current)) first.unshift({ value: current, label: current });
  return { first, groups };
}

/**
 * A zone as the list names it (its today's name for an old one the runtime uses, such as
 * Asia/Kolkata for Asia/Calcutta), or null when the list does not offer it.
 */
export function listedZone(zone: string): string | null {
  if (zone === 'UTC') return 'UTC';
  const renamed = RENAMED[zone] ?? zone;
  return supported().includes(renamed) ? renamed : null;
}

/** The `<option>`s of a time zone `<select>`: UTC first, then each region's zones by city; `value` selected. */
export function ZoneOptions({ value }: { value: string }) {
  const { first, groups } = zoneChoices(value);
  return (
    <>
      {first.map((z) => (
        <option value={z.value} selected={z.value === value}>
          {z.label}
        </option>
      ))}
      {groups.map((g) => (
        <optgroup label={g.region}>
          {g.zones.map((z) => (
            <option value={z.value} selected={z.value === value}>
              {z.label}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
