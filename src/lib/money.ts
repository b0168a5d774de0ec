import { AppError } from './errors';

/**
 * Money: integers of minor units inside, decimal numbers with a currency code at the API edge.
 * The currency's exponent comes from ISO 4217 via Intl, so JPY has 0 decimals and USD 2.
 *
 * Every conversion and every derived figure goes through exact integer arithmetic here (BigInt on
 * the decimal an amount was written as, or on a ratio of integers), so a half is a half: 17.395
 * rounds to 17.40 and −49.995 to −50.00, never to what a binary float happens to hold
 * (DECISIONS.md "Rounding": half-up, away from zero, at the last shown digit).
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

const TEN = 10n;
const pow10 = (n: number): bigint => TEN ** BigInt(n);
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/**
 * A finite number as the exact decimal it was written as: `digits / 10^scale`. A JSON number is
 * parsed to the nearest double, and the shortest text that reads back to that double (what
 * String() prints) is the text the client sent whenever it had at most 15 significant digits.
 */
function decimalOf(x: number): { digits: bigint; scale: number } {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new RangeError(`unexpected number text: ${String(x)}`);
  const [, sign, int, frac = '', exp = '0'] = m;
  let digits = BigInt(`${int}${frac}`);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    digits *= pow10(-scale);
    scale = 0;
  }
  return { digits: sign ? -digits : digits, scale };
}

/** num ÷ den rounded half-up, away from zero, to an integer (exact; den ≠ 0). */
function divRound(num: bigint, den: bigint): bigint {
  if (den === 0n) throw new RangeError('division by zero');
  const negative = num < 0n !== den < 0n;
  const n = abs(num);
  const d = abs(den);
  let q = n / d;
  if (2n * (n % d) >= d) q += 1n;
  return negative ? -q : q;
}

/** A scaled integer (value × 10^digits) as the JS number nearest that decimal. */
function scaledToNumber(scaled: bigint, digits: number): number {
  if (digits === 0) return Number(scaled);
  const text = abs(scaled)
    .toString()
    .padStart(digits + 1, '0');
  const sign = scaled < 0n ? '-' : '';
  return Number(`${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`);
}

const big = (n: number | bigint): bigint => {
  if (typeof n === 'bigint') return n;
  if (!Number.isSafeInteger(n)) throw new RangeError(`expected a safe integer, got ${n}`);
  return BigInt(n);
};

/**
 * The exact ratio num ÷ den rounded half-up (away from zero) at `digits` decimals: the one rounding
 * rule for every derived figure (percentages, means, projections, percentiles). num and den are
 * integers, so nothing is lost before the single rounding step.
 */
export function roundRatio(num: number | bigint, den: number | bigint, digits = 0): number {
  return scaledToNumber(divRound(big(num) * pow10(digits), big(den)), digits);
}

/** ⌈num ÷ den⌉ for integers, exact (den > 0). */
export function ceilRatio(num: number | bigint, den: number | bigint): number {
  const n = big(num);
  const d = big(den);
  if (d <= 0n) throw new RangeError('ceilRatio needs a positive denominator');
  const q = n / d;
  return Number(n % d > 0n ? q + 1n : q);
}

/** part ÷ whole as a percentage rounded half-up, away from zero, at `digits` decimals. */
export function percentOf(part: number | bigint, whole: number | bigint, digits: number): number {
  return roundRatio(big(part) * 100n, whole, digits);
}

/**
 * An amount of (num ÷ den) minor units as a decimal in the currency, rounded half-up at its minor
 * unit: a mean rate (sum ÷ count), a projection (gross × days ÷ elapsed), an interpolated percentile.
 */
export function fromMinorRatio(num: number | bigint, den: number | bigint, currency: string): number {
  const e = currencyExponent(currency);
  return roundRatio(num, big(den) * pow10(e), e);
}

/** Integer minor units → the decimal amount (a fractional input is first rounded half-up to the minor unit). */
export function fromMinor(minor: number, currency: string): number {
  const e = currencyExponent(currency);
  if (Number.isSafeInteger(minor)) return scaledToNumber(BigInt(minor), e);
  const { digits, scale } = decimalOf(minor);
  return scaledToNumber(divRound(digits, pow10(scale)), e);
}

/**
 * Decimal → minor units, rounded half-up (away from zero) at the currency's exponent, on the decimal
 * as written. For filters and internal re-expression only: an amount a client sends to be stored
 * goes through toMinorExact, which refuses what would need rounding.
 */
export function toMinor(amount: number, currency: string): number {
  const e = currencyExponent(currency);
  const { digits, scale } = decimalOf(amount);
  const minor = scale <= e ? digits * pow10(e - scale) : divRound(digits, pow10(scale - e));
  return Number(minor);
}

/** An amount with more decimals than its currency's minor unit (23.333 USD, 10.5 JPY). */
export class MoneyPrecisionError extends AppError {
  override name = 'MoneyPrecisionError';
  constructor(
    readonly field: string,
    readonly amount: number,
    readonly currency: string,
  ) {
    const e = currencyExponent(currency);
    const message = `${amount} has more decimals than ${currency} allows (${e === 0 ? 'whole units only' : `at most ${e}`})`;
    super('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);
  }
}

/**
 * An amount a client sends → integer minor units, exactly. More decimals than the currency allows is
 * a VALIDATION-ERR naming `field` (a MoneyPrecisionError), never a silent rounding.
 */
export function toMinorExact(amount: number, currency: string, field: string): number {
  const e = currencyExponent(currency);
  let parts: { digits: bigint; scale: number };
  try {
    parts = decimalOf(amount);
  } catch {
    throw new AppError('VALIDATION-ERR', `${field}: must be a finite number`, [{ field, message: 'must be a finite number' }]);
  }
  if (parts.scale > e) throw new MoneyPrecisionError(field, amount, currency);
  const minor = parts.digits * pow10(e - parts.scale);
  if (abs(minor) > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new AppError('VALIDATION-ERR', `${field}: too large`, [{ field, message: 'too large' }]);
  }
  return Number(minor);
}

/** hours × hourly rate (minor units), rounded half-up once to the minor unit. */
export function payForMinutes(minutes: number, hourlyRateMinor: number): number {
  return roundRatio(big(minutes) * big(hourlyRateMinor), 60);
}
