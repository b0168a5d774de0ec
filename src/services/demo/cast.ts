/**
 * The demo cast: who exists in demo mode and how they are connected. Plain data, so the seed and
 * the README can both point at one place. Every demo email is on DEMO_EMAIL_DOMAIN and every demo
 * account signs in with DEMO_PASSWORD (published on purpose: demo data is reset every night).
 */
export const DEMO_PASSWORD = 'shiftmarket-demo';
export const DEMO_EMAIL_DOMAIN = 'demo.shiftmarket.local';

export type DemoRole = 'admin' | 'business' | 'dual_profile' | 'teammate' | 'teammate_suspended' | 'shifter';

export interface DemoPerson {
  key: string;
  role: DemoRole;
  name: string;
  local: string; // the part of the email before @
}

export const PEOPLE: DemoPerson[] = [
  { key: 'admin', role: 'admin', name: 'Dana Admin', local: 'admin' },
  { key: 'owner', role: 'business', name: 'Maya Ortiz', local: 'owner' },
  { key: 'priya', role: 'dual_profile', name: 'Priya Shah', local: 'dual' },
  { key: 'sam', role: 'teammate', name: 'Sam Lee', local: 'teammate' },
  { key: 'riley', role: 'teammate_suspended', name: 'Riley Quinn', local: 'teammate.suspended' },
  { key: 'jordan', role: 'shifter', name: 'Jordan Rivera', local: 'jordan' },
  { key: 'alex', role: 'shifter', name: 'Alex Kim', local: 'alex' },
  { key: 'taylor', role: 'shifter', name: 'Taylor Brooks', local: 'taylor' },
  { key: 'chris', role: 'shifter', name: 'Chris Moreno', local: 'chris' },
  { key: 'oliver', role: 'shifter', name: 'Oliver Bennett', local: 'oliver' },
  { key: 'amelia', role: 'shifter', name: 'Amelia Clarke', local: 'amelia' },
  { key: 'noah', role: 'shifter', name: 'Noah Patel', local: 'noah' },
];

export const demoEmail = (p: DemoPerson) => `${p.local}@${DEMO_EMAIL_DOMAIN}`;

export interface DemoBusiness {
  key: string;
  owner: string;
  name: string;
  is_default: boolean;
  timezone: string;
  address: string;
  city_id: number;
  state_id: number;
  country_id: number;
  latitude: number;
  longitude: number;
  geofence_radius_m: number | null;
  require_clock_photo: boolean;
  weekly_labor_budget_minor: number | null;
  currency: 'USD' | 'GBP';
  auto_fill_on_cancel: boolean;
}

export const BUSINESSES: DemoBusiness[] = [
  {
    key: 'bistro',
    owner: 'owner',
    name: 'Harbor Street Bistro',
    is_default: true,
    timezone: 'America/New_York',
    address: '212 Harbor Street, New York, NY 10004',
    city_id: 1,
    state_id: 1,
    country_id: 1,
    latitude: 40.7033,
    longitude: -74.017,
    geofence_radius_m: 150,
    require_clock_photo: false,
    weekly_labor_budget_minor: 450_000,
    currency: 'USD',
    auto_fill_on_cancel: true,
  },
  {
    key: 'events',
    owner: 'owner',
    name: 'Harbor Street Events',
    is_default: false,
    timezone: 'America/New_York',
    address: '48 Water Street, Brooklyn, NY 11201',
    city_id: 1,
    state_id: 1,
    country_id: 1,
    latitude: 40.7033,
    longitude: -73.9881,
    geofence_radius_m: 250,
    require_clock_photo: false,
    weekly_labor_budget_minor: null,
    currency: 'USD',
    auto_fill_on_cancel: false,
  },
  {
    key: 'coffee',
    owner: 'priya',
    name: 'Camden Lock Coffee',
    is_default: true,
    timezone: 'Europe/London',
    address: '54 Camden Lock Place, London NW1 8AF',
    city_id: 10,
    state_id: 8,
    country_id: 3,
    latitude: 51.5413,
    longitude: -0.1466,
    geofence_radius_m: null,
    require_clock_photo: true,
    weekly_labor_budget_minor: 180_000,
    currency: 'GBP',
    auto_fill_on_cancel: false,
  },
];

export interface DemoShifter {
  person: string;
  city_id: number;
  timezone: string;
  currency: 'USD' | 'GBP';
  latitude: number;
  longitude: number;
  headline: string;
  bio: string;
  accept_shift_req: boolean;
  monthly_earnings_goal_minor: number | null;
}

const NYC = { city_id: 1, timezone: 'America/New_York', currency: 'USD' as const, latitude: 40.7128, longitude: -74.006 };
const LDN = { city_id: 10, timezone: 'Europe/London', currency: 'GBP' as const, latitude: 51.5074, longitude: -0.1278 };

export const SHIFTERS: DemoShifter[] = [
  { person: 'jordan', ...NYC, headline: 'Line cook and server', bio: 'Six years in Manhattan kitchens; happy on the line or on the floor.', accept_shift_req: true, monthly_earnings_goal_minor: 320_000 },
  { person: 'alex', ...NYC, headline: 'Bartender, craft cocktails', bio: 'Late nights welcome. TIPS certified.', accept_shift_req: true, monthly_earnings_goal_minor: null },
  { person: 'taylor', ...NYC, headline: 'Host, event staff, security', bio: 'Front of house for restaurants and events across NYC.', accept_shift_req: true, monthly_earnings_goal_minor: null },
  // Paused: takes no targeted requests, still claims open broadcasts.
  { person: 'chris', ...NYC, headline: 'Dishwasher and prep cook', bio: 'Early starts preferred. Not taking requests right now.', accept_shift_req: false, monthly_earnings_goal_minor: null },
  { person: 'oliver', ...LDN, headline: 'Barista', bio: 'Specialty coffee, latte art, morning shifts.', accept_shift_req: true, monthly_earnings_goal_minor: 180_000 },
  { person: 'amelia', ...LDN, headline: 'Baker and prep cook', bio: 'Overnight bakes are my thing.', accept_shift_req: true, monthly_earnings_goal_minor: null },
  { person: 'noah', ...LDN, headline: 'Cashier and barista', bio: 'Weekends and afternoons around Camden.', accept_shift_req: true, monthly_earnings_goal_minor: null },
  // The dual-profile owner of Camden Lock Coffee also keeps a shifter profile.
  { person: 'priya', ...LDN, headline: 'Café owner, covers barista shifts', bio: 'Runs Camden Lock Coffee; picks up the odd shift nearby.', accept_shift_req: true, monthly_earnings_goal_minor: null },
];

export interface DemoConnection {
  business: string;
  shifter: string;
  status: 'accepted' | 'pending' | 'declined';
  initiated_by: 'business' | 'shifter';
}

export const CONNECTIONS: DemoConnection[] = [
  { business: 'bistro', shifter: 'jordan', status: 'accepted', initiated_by: 'business' },
  { business: 'bistro', shifter: 'alex', status: 'accepted', initiated_by: 'shifter' },
  { business: 'bistro', shifter: 'taylor', status: 'accepted', initiated_by: 'business' },
  { business: 'bistro', shifter: 'chris', status: 'accepted', initiated_by: 'business' },
  { business: 'events', shifter: 'jordan', status: 'accepted', initiated_by: 'business' },
  { business: 'events', shifter: 'taylor', status: 'accepted', initiated_by: 'shifter' },
  { business: 'events', shifter: 'alex', status: 'pending', initiated_by: 'shifter' },
  { business: 'events', shifter: 'chris', status: 'declined', initiated_by: 'business' },
  { business: 'coffee', shifter: 'oliver', status: 'accepted', initiated_by: 'business' },
  { business: 'coffee', shifter: 'amelia', status: 'accepted', initiated_by: 'business' },
  { business: 'coffee', shifter: 'noah', status: 'accepted', initiated_by: 'shifter' },
];

export const TEAMMATES = [
  { business: 'bistro', person: 'sam', status: 1 },
  { business: 'bistro', person: 'riley', status: 0 },
];
