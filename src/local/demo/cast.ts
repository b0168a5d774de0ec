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
  {
    person: 'jordan',
    ...NYC,
    headline: 'Line cook and server',
    bio: 'Six years in Manhattan kitchens; happy on the line or on the floor.',
    accept_shift_req: true,
    monthly_earnings_goal_minor: 320_000,
  },
  {
    person: 'alex',
    ...NYC,
    headline: 'Bartender, craft cocktails',
    bio: 'Late nights welcome. TIPS certified.',
    accept_shift_req: true,
    monthly_earnings_goal_minor: null,
  },
  {
    person: 'taylor',
    ...NYC,
    headline: 'Host, event staff, security',
    bio: 'Front of house for restaurants and events across NYC.',
    accept_shift_req: true,
    monthly_earnings_goal_minor: null,
  },
  // Paused: takes no targeted requests, still claims open broadcasts.
  {
    person: 'chris',
    ...NYC,
    headline: 'Dishwasher and prep cook',
    bio: 'Early starts preferred. Not taking requests right now.',
    accept_shift_req: false,
    monthly_earnings_goal_minor: null,
  },
  {
    person: 'oliver',
    ...LDN,
    headline: 'Barista',
    bio: 'Specialty coffee, latte art, morning shifts.',
    accept_shift_req: true,
    monthly_earnings_goal_minor: 180_000,
  },
  {
    person: 'amelia',
    ...LDN,
    headline: 'Baker and prep cook',
    bio: 'Overnight bakes are my thing.',
    accept_shift_req: true,
    monthly_earnings_goal_minor: null,
  },
  {
    person: 'noah',
    ...LDN,
    headline: 'Cashier and barista',
    bio: 'Weekends and afternoons around Camden.',
    accept_shift_req: true,
    monthly_earnings_goal_minor: null,
  },
  // The dual-profile owner of Camden Lock Coffee also keeps a shifter profile.
  {
    person: 'priya',
    ...LDN,
    headline: 'Café owner, covers barista shifts',
    bio: 'Runs Camden Lock Coffee; picks up the odd shift nearby.',
    accept_shift_req: true,
    monthly_earnings_goal_minor: null,
  },
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

/**
 * Counter rules: the least a shifter takes for shifts like these (see services/shifts/counter-suggest.ts).
 * Jordan's weekend line-cook floor sits above every line-cook rate the bistro pays, and plans.ts
 * FLOOR_ASK puts such a request in his inbox, so a suggested counter-offer always shows. Oliver's
 * premium applies because Camden Lock Coffee is about 4 km from his place.
 */
export interface DemoCounterRule {
  shifter: string;
  label: string;
  shiftrole_id: number | null;
  weekdays: string | null; // sorted ISO weekdays, as the service stores them
  start_from: string | null;
  start_to: string | null;
  min_hourly_rate_minor: number;
  currency: 'USD' | 'GBP';
  distance_threshold_km: number | null;
  distance_premium_minor: number | null;
  is_active: boolean;
}

const anyShift = {
  shiftrole_id: null,
  weekdays: null,
  start_from: null,
  start_to: null,
  distance_threshold_km: null,
  distance_premium_minor: null,
};

export const COUNTER_RULES: DemoCounterRule[] = [
  {
    shifter: 'jordan',
    label: 'Weekend dinner service on the line',
    shiftrole_id: 3,
    weekdays: '5,6,7',
    start_from: '16:00',
    start_to: '19:00',
    min_hourly_rate_minor: 2800,
    currency: 'USD',
    distance_threshold_km: null,
    distance_premium_minor: null,
    is_active: true,
  },
  { shifter: 'jordan', label: 'Anything else', ...anyShift, min_hourly_rate_minor: 1900, currency: 'USD', is_active: true },
  {
    shifter: 'oliver',
    label: 'Across town',
    ...anyShift,
    min_hourly_rate_minor: 1300,
    currency: 'GBP',
    distance_threshold_km: 3,
    distance_premium_minor: 200,
    is_active: true,
  },
  {
    shifter: 'amelia',
    label: 'Overnight bakes',
    ...anyShift,
    shiftrole_id: 15,
    start_from: '22:00',
    start_to: '02:00',
    min_hourly_rate_minor: 1650,
    currency: 'GBP',
    is_active: true,
  },
  // Switched off: kept to show the state, never suggests anything.
  {
    shifter: 'taylor',
    label: 'Overnight security',
    ...anyShift,
    shiftrole_id: 11,
    start_from: '22:00',
    start_to: '06:00',
    min_hourly_rate_minor: 2800,
    currency: 'USD',
    is_active: false,
  },
];

/**
 * Credentials, with dates as days from the shifter's today so the expiry flags hold whatever the
 * date: Jordan's allergen training is expiring, Taylor's first aid has expired, and Jordan's food
 * protection certificate carries a one-page PDF stored in R2.
 */
export interface DemoCredential {
  shifter: string;
  label: string;
  issuer: string | null;
  issued: number | null;
  expires: number | null;
  visible: boolean;
  notes?: string;
  document?: boolean;
}

export const CREDENTIALS: DemoCredential[] = [
  {
    shifter: 'jordan',
    label: 'Food Protection Certificate',
    issuer: 'NYC Department of Health and Mental Hygiene',
    issued: -620,
    expires: 1205,
    visible: true,
    document: true,
  },
  {
    shifter: 'jordan',
    label: 'Allergen Awareness Training',
    issuer: 'ServSafe',
    issued: -1075,
    expires: 18,
    visible: true,
    notes: 'Renewal course booked.',
  },
  { shifter: 'jordan', label: 'Photo ID check', issuer: 'Shiftmarket onboarding', issued: -118, expires: null, visible: false },
  {
    shifter: 'alex',
    label: 'TIPS Alcohol Server Certification',
    issuer: 'Health Communications, Inc.',
    issued: -410,
    expires: 685,
    visible: true,
  },
  { shifter: 'alex', label: 'Photo ID check', issuer: 'Shiftmarket onboarding', issued: -117, expires: null, visible: false },
  {
    shifter: 'taylor',
    label: 'Security Guard Registration',
    issuer: 'New York State Department of State',
    issued: -500,
    expires: 230,
    visible: true,
  },
  {
    shifter: 'taylor',
    label: 'First Aid and CPR',
    issuer: 'American Red Cross',
    issued: -740,
    expires: -9,
    visible: true,
    notes: 'Recertification class next month.',
  },
  {
    shifter: 'chris',
    label: 'Food Protection Certificate',
    issuer: 'NYC Department of Health and Mental Hygiene',
    issued: -300,
    expires: 1525,
    visible: true,
  },
  {
    shifter: 'chris',
    label: 'Forklift Operator Licence',
    issuer: 'Hudson Safety Training',
    issued: -1130,
    expires: -35,
    visible: false,
    notes: 'From a warehouse job; not renewing.',
  },
  {
    shifter: 'oliver',
    label: 'Level 2 Food Hygiene Certificate',
    issuer: 'Highfield Qualifications',
    issued: -400,
    expires: 695,
    visible: true,
  },
  { shifter: 'oliver', label: 'Right to work check', issuer: 'Shiftmarket onboarding', issued: -116, expires: null, visible: false },
  { shifter: 'amelia', label: 'Level 3 Food Safety', issuer: 'Royal Society for Public Health', issued: -1000, expires: 95, visible: true },
  {
    shifter: 'noah',
    label: 'Level 2 Food Hygiene Certificate',
    issuer: 'Highfield Qualifications',
    issued: -200,
    expires: 895,
    visible: true,
  },
  { shifter: 'noah', label: 'Right to work check', issuer: 'Shiftmarket onboarding', issued: -115, expires: null, visible: false },
  {
    shifter: 'priya',
    label: 'Personal Licence (alcohol)',
    issuer: 'London Borough of Camden',
    issued: -1500,
    expires: null,
    visible: true,
  },
];

/** What the mileage log says trips were for. */
export const TRIP_PURPOSES = [
  'Supplies run for the kitchen',
  'Between venues on a split shift',
  'Catering drop-off',
  'Late finish, no transit home',
  'Food safety training session',
  'Uniform pick-up',
  null,
];
