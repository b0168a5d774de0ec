import { describe, expect, it } from 'vitest';
import { dateInZone, isValidDate, mondayOf, shiftInstants, startOfDay } from './shift-time';

describe('shift time', () => {
  it('computes a plain day shift in the business zone', () => {
    const s = shiftInstants('2026-07-14', '09:00', '17:00', 'America/New_York');
    expect(new Date(s.startsAt).toISOString()).toBe('2026-07-14T13:00:00.000Z');
    expect(s.minutes).toBe(480);
  });

  it('ends an overnight shift the next day', () => {
    const s = shiftInstants('2026-07-14', '22:00', '06:00', 'Europe/London');
    expect(new Date(s.startsAt).toISOString()).toBe('2026-07-14T21:00:00.000Z');
    expect(new Date(s.endsAt).toISOString()).toBe('2026-07-15T05:00:00.000Z');
    expect(s.minutes).toBe(480);
  });

  it('makes an overnight shift across the spring-forward change 7 hours and across fall-back 9 hours', () => {
    expect(shiftInstants('2026-03-07', '22:00', '06:00', 'America/New_York').minutes).toBe(7 * 60);
    expect(shiftInstants('2026-10-31', '22:00', '06:00', 'America/New_York').minutes).toBe(9 * 60);
  });

  it('validates calendar dates and finds Mondays and day starts', () => {
    expect(isValidDate('2026-02-29')).toBe(false);
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(mondayOf('2026-11-22')).toBe('2026-11-16');
    expect(mondayOf('2026-11-16')).toBe('2026-11-16');
    expect(dateInZone(startOfDay('2026-11-21', 'Australia/Sydney'), 'Australia/Sydney')).toBe('2026-11-21');
  });
});
