import { beforeAll, describe, expect, it } from 'vitest';
import { BASE, call } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { WebClient } from '../helpers/web';

/**
 * People's words on the shifter side: no page the demo shifter opens, nor any refused form of theirs,
 * shows an API path, a field name or an error code in its text (outside tags and attributes, so form
 * field names and addresses do not count). The demo world gives every card something to show.
 */

interface Account {
  role: string;
  email: string;
  password: string;
}

let jordan: WebClient;

beforeAll(async () => {
  const seeded = await call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' } });
  expect(seeded.status).toBe(200);
  const account = (seeded.body as { accounts: Account[] }).accounts.find((a) => a.email.startsWith('jordan@'))!;
  jordan = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
  expect((await jordan.signIn(account.email, account.password)).status).toBe(303);
}, 120_000);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** The text a person reads (or hears): scripts, styles and tags left out, entities read. */
function visibleText(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? (name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : m))
    .replace(/\s+/g, ' ');
}

/** What a person should never read: an API path, a snake_case field name, an error code. */
function programWords(text: string): string[] {
  const found = [
    ...text.matchAll(/\/v1\/\S*/g),
    ...text.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g),
    ...text.matchAll(/\b[A-Z]+(?:-[A-Z]+)*-ERR\b/g),
  ];
  return [...new Set(found.map((m) => m[0]))];
}

describe('the scan itself', () => {
  it('reads text, not markup, and finds each kind of program word', () => {
    const html = '<p class="x_y" data-a="/v1/a">Send <code>start_from</code> &amp; POST /v1/business/create, or SHFT-STATE-ERR</p>';
    expect(visibleText(html)).toContain('Send start_from & POST /v1/business/create');
    expect(programWords(visibleText(html))).toEqual(['/v1/business/create,', 'start_from', 'SHFT-STATE-ERR']);
    expect(programWords(visibleText('<input name="min_hourly_rate" value="x_y"> Times in America/New_York'))).toEqual([]);
  });
});

describe("the demo shifter's pages", () => {
  const PAGES = [
    '/dashboard/shifter',
    '/dashboard/shifter/find',
    '/dashboard/shifter/schedule',
    '/dashboard/shifter/clock',
    '/dashboard/shifter/timesheets',
    '/dashboard/shifter/earnings',
    '/dashboard/shifter/records',
    '/dashboard/shifter/profile',
  ];

  it('show no API path, field name or code in their text', async () => {
    for (const path of PAGES) {
      const page = await jordan.get(path);
      expect(page.status, path).toBe(200);
      expect(programWords(visibleText(page.html)), path).toEqual([]);
    }
    // A shift's cancel confirmation, from the schedule's first Cancel link.
    const schedule = await jordan.get('/dashboard/shifter/schedule');
    const cancel = /href="(\/dashboard\/shifter\/schedule\/[^"]+\/cancel)"/.exec(schedule.html)?.[1];
    expect(cancel, 'the demo shifter has an accepted shift ahead').toBeTruthy();
    const confirm = await jordan.get(cancel!);
    expect(confirm.status).toBe(200);
    expect(programWords(visibleText(confirm.html))).toEqual([]);
  });

  it('say a refused form in people’s words beside its field, with what was typed kept', async () => {
    const idem = () => ({ _idem: crypto.randomUUID() });
    const RECORDS = '/dashboard/shifter/records';
    const refusals: { path: string; form: Record<string, string>; says: RegExp }[] = [
      // The service's "send start_from and start_to together, or neither".
      {
        path: `${RECORDS}/rules`,
        form: { label: 'Early birds', min_hourly_rate: '21', start_from: '06:00', start_to: '', is_active: '1' },
        says: /id="rule-new-to-error"[^>]*>Fill in both times, “from” and “until”, or leave both empty for any time\.</,
      },
      // The service's "must differ from start_from (leave both out for any start)".
      {
        path: `${RECORDS}/rules`,
        form: { label: 'Early birds', min_hourly_rate: '21', start_from: '06:00', start_to: '06:00', is_active: '1' },
        says: /id="rule-new-to-error"[^>]*>“Until” must be another time than “from”; leave both empty for any time\.</,
      },
      // The schema's "at most two decimals" and its number messages.
      {
        path: `${RECORDS}/mileage`,
        form: { log_date: '2026-03-02', miles: '3.141', purpose: 'To the bistro' },
        says: /id="mi-new-miles-error"[^>]*>Enter the miles driven, more than 0, like 12\.4 \(at most two decimals\)\.</,
      },
      {
        path: `${RECORDS}/mileage`,
        form: { log_date: '1999-12-31', miles: '4', purpose: 'To the bistro' },
        says: /id="mi-new-date-error"[^>]*>Enter the day of the trip, between the years 2000 and 2100\.</,
      },
      {
        path: `${RECORDS}/credentials`,
        form: { label: '', issuer: 'County health', is_visible: '1' },
        says: /id="field-label-error"[^>]*>Enter a name, up to 120 characters\.</,
      },
      // The money check's "has more decimals than USD allows".
      {
        path: '/dashboard/shifter/earnings/goal',
        form: { monthly_earnings_goal: '2500.125' },
        says: /id="field-monthly_earnings_goal-error"[^>]*>Enter a positive amount, like 2500 or 2500\.50, or leave it empty to clear the goal\.</,
      },
    ];
    for (const r of refusals) {
      await jordan.get(r.path.startsWith(RECORDS) ? RECORDS : '/dashboard/shifter/earnings');
      const page = await jordan.post(r.path, { ...r.form, ...idem() });
      expect(page.status, r.path).toBeGreaterThanOrEqual(400);
      expect(page.html, JSON.stringify(r.form)).toMatch(r.says);
      for (const typed of Object.values(r.form).filter((v) => v.length > 1)) expect(page.html).toContain(`value="${typed}"`);
      expect(programWords(visibleText(page.html)), JSON.stringify(r.form)).toEqual([]);
    }
  });
});
