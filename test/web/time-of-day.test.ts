import { describe, expect, it } from 'vitest';
import { checkRow, timeOfDay, toRequest } from '../../src/web/features/posting/shift-rows.model';
import { SHIFT_INPUT_BOUNDS } from '../../src/services/shifts';

describe('times as people type them (bulk posting rows)', () => {
  it('reads 24-hour and am/pm times as HH:MM', () => {
    const cases: Array<[string, string | null]> = [
      ['20:00', '20:00'],
      ['8am', '08:00'],
      ['8 AM', '08:00'],
      ['8:30 pm', '20:30'],
      ['8.30pm', '20:30'],
      ['8:30 p.m.', '20:30'],
      ['0830', '08:30'],
      ['12am', '00:00'],
      ['12pm', '12:00'],
      ['12:15 am', '00:15'],
      [' 9 ', '09:00'],
      ['13pm', null],
      ['0am', null],
      ['24:00', null],
      ['8:75', null],
      ['noon', null],
      ['', null],
    ];
    for (const [typed, want] of cases) expect(timeOfDay(typed), typed).toBe(want);
  });

  it('checks and sends a row typed with am/pm as the service takes it', () => {
    const roles = [{ id: 1, slug: 'barista', label: 'Barista' }];
    const row = { date: '2031-05-05', in: '8am', out: '4:30 pm', role: 'Barista', rate: '18', shifter: '', note: '' };
    expect(checkRow(row, roles, [], SHIFT_INPUT_BOUNDS)).toEqual([]);
    expect(toRequest(row, 'biz_1', roles, [])).toMatchObject({ shift_in: '08:00', shift_out: '16:30' });
    expect(checkRow({ ...row, in: 'early' }, roles, [], SHIFT_INPUT_BOUNDS)).toEqual([
      { field: 'in', message: 'A time such as 08:30, 8:30am or 20:00.' },
    ]);
  });
});
