import { env } from 'cloudflare:workers';
import { createDb } from '../../src/db/client';
import { type AppBindings, getSettings } from '../../src/env';
import { createLogger } from '../../src/lib/log';
import { addDays, dateInZone, wallClockToInstant } from '../../src/lib/shift-time';
import type { ServiceContext } from '../../src/services/kernel';
import type { TestUser } from './factory';

/**
 * A service context acting as `user` whose clock reads `now` (epoch ms): services read time only
 * through ctx.now(), so a figure that depends on "today" (this week, this month, the last 90 days)
 * can be tested on any chosen date — a month end, a year end, a DST week — whatever day the tests run.
 */
export function contextAt(
  now: number | string | Date,
  user: Pick<TestUser, 'userId' | 'keyId'>,
  opts: { isAdmin?: boolean } = {},
): ServiceContext {
  const fixed = typeof now === 'number' ? now : new Date(now).getTime();
  if (!Number.isFinite(fixed)) throw new Error(`contextAt: bad instant ${String(now)}`);
  const bindings = env as AppBindings;
  const settings = getSettings(bindings);
  const requestId = `test_${crypto.randomUUID().replaceAll('-', '')}`;
  return {
    env: bindings,
    db: createDb(bindings.DB),
    settings,
    actor: { kind: 'user', userId: user.userId, isAdmin: opts.isAdmin ?? false, via: 'api_key', credentialId: user.keyId },
    requestId,
    log: createLogger({ request_id: requestId }, settings.LOG_LEVEL),
    now: () => fixed,
    waitUntil: () => undefined,
  };
}

/**
 * The date of the next DST change in `tz` strictly after `fromDate` (YYYY-MM-DD): the first day
 * whose UTC offset at noon differs from the day before's. Searched day by day over at most a year,
 * so tests can place a shift on the next real change instead of a fixed date that will pass.
 */
export function nextDstChange(tz: string, fromDate: string, direction: 'spring' | 'fall'): string {
  const offsetAt = (date: string) => wallClockToInstant(date, '12:00', tz) - Date.parse(`${date}T12:00:00Z`);
  let prev = offsetAt(fromDate);
  for (let i = 1; i <= 400; i++) {
    const date = addDays(fromDate, i);
    const off = offsetAt(date);
    // Clocks forward: noon comes sooner in UTC (the offset grows), so the instant is earlier.
    if (off !== prev && off < prev === (direction === 'spring')) return date;
    prev = off;
  }
  throw new Error(`no ${direction} DST change in ${tz} within 400 days of ${fromDate}`);
}

/** The next DST change in `tz` starting from tomorrow (in that zone), as a date: always in the future. */
export function nextDstChangeFromNow(tz: string, direction: 'spring' | 'fall'): string {
  return nextDstChange(tz, addDays(dateInZone(Date.now(), tz), 1), direction);
}

/**
 * The next date with this month and day ('01-15') at least `minDaysAhead` days after today in `tz`:
 * a date always in the future whose season (and so UTC offset) is known, e.g. mid-January is
 * standard time in New York and mid-July daylight time, whichever year the tests run in.
 */
export function nextMonthDay(monthDay: string, tz = 'America/New_York', minDaysAhead = 2): string {
  const earliest = addDays(dateInZone(Date.now(), tz), minDaysAhead);
  const year = Number(earliest.slice(0, 4));
  const candidate = `${year}-${monthDay}`;
  return candidate >= earliest ? candidate : `${year + 1}-${monthDay}`;
}
