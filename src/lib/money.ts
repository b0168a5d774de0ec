/**
 * Money: integers of minor units inside, decimal numbers with a currency code at the API edge.
 * The currency's exponent comes from ISO 4217 via Intl, so JPY has 0 decimals and USD 2.
 */
const exponentCache = new Map<string, number>();

export function currencyExponent(currency: string): number {
  let e = exponentCache.get(currency);
  if (e === undefined) {
    e = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    exponentCache.set(currency, e);
  }
  return e;
}

export function fromMinor(minor: number, currency: string): number {
  const e = currencyExponent(currency);
  return Number((minor / 10 ** e).toFixed(e));
}

/** Decimal → minor units, rounded half-up (away from zero) at the currency's exponent. */
export function toMinor(amount: number, currency: string): number {
  const e = currencyExponent(currency);
  const scaled = amount * 10 ** e;
  // Guard binary noise (e.g. 1.005 * 100 = 100.49999…) before rounding half-up.
  const fixed = Number(scaled.toFixed(6));
  return Math.sign(fixed) * Math.round(Math.abs(fixed));
}

/** hours × hourly rate (minor units), rounded half-up once to the minor unit. */
export function payForMinutes(minutes: number, hourlyRateMinor: number): number {
  const exact = (minutes * hourlyRateMinor) / 60;
  return Math.round(Number(exact.toFixed(6)));
}
