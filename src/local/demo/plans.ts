/**
 * The weekly shape of each demo business: which shifts it posts on which weekdays, how often, and
 * which of its crew usually take them. Rates are per role and currency, in minor units.
 */
export interface Slot {
  days: number[];
  in: string;
  out: string;
  role: number;
  prob: number;
  pool: string[];
  /** Forced (and worked) on a night when the zone's clocks change, so history holds a DST shift. */
  dst?: boolean;
}

export const ALL = [1, 2, 3, 4, 5, 6, 7];
export const PLANS: Record<string, Slot[]> = {
  bistro: [
    { days: ALL, in: '11:00', out: '16:00', role: 1, prob: 0.5, pool: ['jordan', 'taylor'] },
    { days: ALL, in: '07:00', out: '13:00', role: 15, prob: 0.25, pool: ['chris', 'jordan'] },
    { days: [2, 3, 4, 5, 6, 7], in: '16:00', out: '23:00', role: 3, prob: 0.45, pool: ['jordan', 'chris'] },
    { days: [5, 6], in: '18:00', out: '02:00', role: 2, prob: 0.85, pool: ['alex'], dst: true },
    { days: [4, 5, 6, 7], in: '18:00', out: '00:00', role: 4, prob: 0.4, pool: ['chris', 'taylor'] },
    { days: [5, 6], in: '17:00', out: '22:00', role: 5, prob: 0.3, pool: ['taylor'] },
  ],
  events: [
    { days: [5, 6], in: '18:00', out: '23:30', role: 12, prob: 0.8, pool: ['taylor', 'jordan'] },
    { days: [6], in: '22:00', out: '06:00', role: 11, prob: 0.8, pool: ['taylor', 'jordan'], dst: true },
    { days: [6], in: '19:00', out: '00:30', role: 2, prob: 0.6, pool: ['jordan', 'taylor'] },
    { days: [7], in: '12:00', out: '18:00', role: 1, prob: 0.5, pool: ['jordan', 'taylor'] },
  ],
  coffee: [
    { days: ALL, in: '07:00', out: '15:00', role: 6, prob: 0.7, pool: ['oliver', 'noah'] },
    { days: [4, 5], in: '23:00', out: '07:00', role: 15, prob: 0.8, pool: ['amelia'], dst: true },
    { days: [6, 7], in: '12:00', out: '18:00', role: 7, prob: 0.8, pool: ['noah', 'oliver'] },
    { days: [1, 2, 3, 4, 5], in: '15:00', out: '19:00', role: 6, prob: 0.3, pool: ['noah', 'oliver'] },
  ],
};

/** Hourly rate ranges in minor units, by role and currency. */
export const RATES: Record<number, Record<'USD' | 'GBP', [number, number]>> = {
  1: { USD: [1800, 2400], GBP: [1275, 1450] },
  2: { USD: [2000, 2600], GBP: [1350, 1550] },
  3: { USD: [2100, 2700], GBP: [1350, 1550] },
  4: { USD: [1650, 1850], GBP: [1250, 1325] },
  5: { USD: [1700, 1950], GBP: [1275, 1400] },
  6: { USD: [1700, 2000], GBP: [1275, 1450] },
  7: { USD: [1650, 1850], GBP: [1250, 1350] },
  11: { USD: [2200, 2600], GBP: [1400, 1600] },
  12: { USD: [1900, 2300], GBP: [1300, 1450] },
  15: { USD: [1900, 2250], GBP: [1350, 1550] },
};

export const NOTES = [
  'Black shirt and black trousers.',
  'Non-slip shoes, please.',
  'Ask for Sam at the pass.',
  'Private party of 80.',
  'Staff meal included.',
];
export const CANCEL_REASONS = [
  'Event postponed by the client.',
  'Feeling unwell.',
  'Quiet night forecast, fewer hands needed.',
  'Family emergency.',
];

/**
 * One pending request always sent below its shifter's floor: a weekend dinner shift on the bistro's
 * line for Jordan, at his usual line-cook rate, which his "Weekend dinner service on the line" rule
 * (cast.ts COUNTER_RULES) outbids, so the incoming request carries a suggested counter-offer.
 */
export const FLOOR_ASK: { business: string; shifter: string; slot: Slot } = {
  business: 'bistro',
  shifter: 'jordan',
  slot: { days: [5, 6, 7], in: '16:00', out: '23:00', role: 3, prob: 1, pool: ['jordan'] },
};
