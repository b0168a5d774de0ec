import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { fieldErrorsOf, refusalOf } from '../../src/web/features/dashboard/refusals';
import { shiftCodeFields } from '../../src/web/features/posting/shift-fields';

describe('refusals beside the fields (refusals.ts)', () => {
  const paused = new AppError('SHIFTER-PAUSED-ERR', 'This shifter is not taking requests now.');

  it('puts a code that concerns one field beside it when the form shows that field', () => {
    const r = refusalOf(paused, ['shifter_id', 'shift_date'], shiftCodeFields('shifter_id'));
    expect(r).toEqual({
      status: paused.status,
      errors: { shifter_id: 'This shifter is not taking requests now.' },
      message: 'Check the fields marked below.',
    });
  });

  it('keeps the message for the whole form when the form has no such field (the change form has no shifter)', () => {
    const r = refusalOf(paused, ['shift_date', 'shift_in', 'shift_out'], shiftCodeFields('shifter_id'));
    expect(r.errors).toEqual({});
    expect(r.message).toBe('This shifter is not taking requests now.');
    expect(fieldErrorsOf(paused, ['shift_date', 'shift_in', 'shift_out'], shiftCodeFields('shifter_id'))).toEqual({
      errors: {},
      rest: 'This shifter is not taking requests now.',
    });
  });

  it('takes the fields the service names first, and passes on anything that is not a refusal', () => {
    const named = new AppError('VALIDATION-ERR', 'Invalid input', [{ field: 'hourly_rate', message: 'Too many decimals.' }]);
    expect(fieldErrorsOf(named, ['hourly_rate'])).toEqual({ errors: { hourly_rate: 'Too many decimals.' }, rest: null });
    expect(() => refusalOf(new Error('boom'), ['note'])).toThrow('boom');
  });
});
