import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import {
  ceilRatio,
  fromMinor,
  fromMinorRatio,
  MoneyPrecisionError,
  payForMinutes,
  percentOf,
  roundRatio,
  toMinor,
  toMinorExact,
} from './money';

describe('roundRatio: half-up, away from zero, on the exact ratio', () => {
  it('rounds an exact half up where a binary float rounds it down', () => {
    // 17.395 is 17.39499999… as a double, so (17.395).toFixed(2) gives 17.39.
    expect((17.395).toFixed(2)).toBe('17.39');
    expect(roundRatio(17_395, 1000, 2)).toBe(17.4);
    expect(roundRatio(1739.5 * 2, 2 * 100, 2)).toBe(17.4);
    expect(roundRatio(1_739_499, 100_000, 2)).toBe(17.39);
  });

  it('rounds a negative half away from zero', () => {
    // Math.round(-4999.5) is -4999: toward +∞, so −49.995 % became −49.99.
    expect(Math.round(-4999.5) / 100).toBe(-49.99);
    expect(roundRatio(-49_995, 1000, 2)).toBe(-50);
    expect(roundRatio(49_995, -1000, 2)).toBe(-50);
    expect(roundRatio(-49_994, 1000, 2)).toBe(-49.99);
    expect(roundRatio(-1, 2)).toBe(-1);
    expect(roundRatio(1, 2)).toBe(1);
    expect(roundRatio(-1, 3)).toBe(0); // never a negative zero
  });

  it('keeps whole and short values exact, and needs integers', () => {
    expect(roundRatio(1, 3, 4)).toBe(0.3333);
    expect(roundRatio(2, 3, 1)).toBe(0.7);
    expect(roundRatio(10, 5)).toBe(2);
    expect(roundRatio(7, 1000, 2)).toBe(0.01);
    expect(roundRatio(4, 1000, 2)).toBe(0);
    expect(() => roundRatio(1.5, 2)).toThrow(RangeError);
    expect(() => roundRatio(1, 0)).toThrow(RangeError);
  });

  it('percentOf and ceilRatio', () => {
    // −49.995 %: this week 500.05 against last week 1000.00.
    expect(percentOf(50_005 - 100_000, 100_000, 2)).toBe(-50);
    expect(percentOf(1, 3, 1)).toBe(33.3);
    expect(percentOf(2, 3, 1)).toBe(66.7);
    expect(percentOf(1, 8, 0)).toBe(13); // 12.5 → 13
    expect(ceilRatio(10, 5)).toBe(2);
    expect(ceilRatio(11, 5)).toBe(3);
    expect(ceilRatio(-1, 5)).toBe(0);
    expect(ceilRatio(10n ** 20n + 1n, 10n ** 20n)).toBe(2);
  });
});

describe('money conversions', () => {
  it('fromMinorRatio rounds a fractional number of minor units at the currency exponent', () => {
    expect(fromMinorRatio(3479, 2, 'USD')).toBe(17.4); // 1739.5 ¢
    expect(fromMinorRatio(3477, 2, 'USD')).toBe(17.39); // 1738.5 ¢ → 1739 ¢
    expect(fromMinorRatio(-3479, 2, 'USD')).toBe(-17.4);
    expect(fromMinorRatio(2001, 2, 'JPY')).toBe(1001);
    expect(fromMinorRatio(20_001, 2, 'KWD')).toBe(10.001);
  });

  it('fromMinor prints the decimal of integer minor units, and rounds a half up', () => {
    expect(fromMinor(1739, 'USD')).toBe(17.39);
    expect(fromMinor(-2201, 'USD')).toBe(-22.01);
    expect(fromMinor(5, 'USD')).toBe(0.05);
    expect(fromMinor(1500, 'JPY')).toBe(1500);
    expect(fromMinor(1739.5, 'USD')).toBe(17.4);
  });

  it('toMinor rounds half-up on the decimal as written (filters only)', () => {
    expect(toMinor(1.005, 'USD')).toBe(101); // 1.005 * 100 is 100.49999… in binary
    expect(toMinor(17.395, 'USD')).toBe(1740);
    expect(toMinor(-0.005, 'USD')).toBe(-1);
    expect(toMinor(10.5, 'JPY')).toBe(11);
    expect(toMinor(18.5, 'USD')).toBe(1850);
  });

  it('toMinorExact refuses more decimals than the currency allows, naming the field', () => {
    expect(toMinorExact(23.33, 'USD', 'hourly_rate')).toBe(2333);
    expect(toMinorExact(18.5, 'USD', 'hourly_rate')).toBe(1850);
    expect(toMinorExact(0.29, 'USD', 'hourly_rate')).toBe(29); // 0.29 * 100 is 28.999… in binary
    expect(toMinorExact(1500, 'JPY', 'hourly_rate')).toBe(1500);
    expect(toMinorExact(1.234, 'KWD', 'x')).toBe(1234);
    for (const [amount, currency] of [
      [23.333, 'USD'],
      [10.5, 'JPY'],
      [0.001, 'EUR'],
      [1e-7, 'USD'],
      [1.2345, 'KWD'],
    ] as const) {
      let err: unknown;
      try {
        toMinorExact(amount, currency, 'hourly_rate');
      } catch (e) {
        err = e;
      }
      expect(err, `${amount} ${currency}`).toBeInstanceOf(MoneyPrecisionError);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('VALIDATION-ERR');
      expect((err as AppError).details).toEqual([{ field: 'hourly_rate', message: expect.stringContaining(currency) }]);
    }
    expect(() => toMinorExact(Number.NaN, 'USD', 'x')).toThrow(AppError);
    expect(() => toMinorExact(1e300, 'USD', 'x')).toThrow(AppError);
  });

  it('pays hours × rate rounded once, half-up', () => {
    expect(payForMinutes(270, 1733)).toBe(7799); // 4.5 h × 17.33 = 77.985 → 77.99
    expect(payForMinutes(90, 1)).toBe(2); // 1.5 → 2
    expect(payForMinutes(60, 2000)).toBe(2000);
  });
});
