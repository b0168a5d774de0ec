import { DrizzleQueryError } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, errorFields, redactSecrets, safeErrorMessage } from './log';

const SECRET = 'hunter2-reset-481516';

/** A drizzle query error as D1 produces it: the message lists the bound parameters. */
function queryError(params: unknown[]) {
  const cause = new Error('D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT');
  return new DrizzleQueryError('insert into "users" ("id", "email", "password_hash") values (?, ?, ?)', params, cause);
}

describe('logger', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes one JSON line per entry with its fields, at or above the level', () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = createLogger({ request_id: 'req_1' }, 'warn').child({ job: 'x' });
    log.info('quiet');
    log.warn('loud', { n: 1 });
    expect(out).not.toHaveBeenCalled();
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({ level: 'warn', msg: 'loud', request_id: 'req_1', job: 'x', n: 1 });
  });

  it('logs an Error given as a field, or its String(), without the query parameters', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((l: unknown) => void lines.push(String(l)));
    const err = queryError(['usr_1', 'a@example.test', SECRET]);
    const log = createLogger();
    log.error('one', { error: err });
    log.error('two', { error: String(err), detail: `${err.message}` });
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain('a@example.test');
    }
    expect(JSON.parse(lines[0]!).error).toMatchObject({
      error_name: 'Error',
      error_causes: [expect.stringContaining('UNIQUE constraint failed')],
    });
  });
});

describe('errorFields', () => {
  it('keeps the SQL, the cause and the stack frames, and drops the parameters, even across lines', () => {
    const err = queryError(['usr_1', `line one\nline two ${SECRET}`, 'x']);
    expect(err.message).toContain(SECRET);
    const fields = errorFields(err);
    const text = JSON.stringify(fields);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('line two');
    expect(fields.error).toBe(
      'Failed query: insert into "users" ("id", "email", "password_hash") values (?, ?, ?) [query parameters not logged]',
    );
    expect(fields.error_causes).toEqual(['Error: D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT']);
    expect(String(fields.stack)).toMatch(/^Error: Failed query: insert into "users".*\[query parameters not logged\]\n\s+at /s);
  });

  it('drops parameters carried by a cause and values quoted by D1 type errors', () => {
    const inner = queryError([SECRET]);
    const outer = new Error('could not save the account', { cause: inner });
    const typeErr = new Error(`D1_TYPE_ERROR: Type 'object' not supported for value '${SECRET}'`);
    expect(JSON.stringify(errorFields(outer))).not.toContain(SECRET);
    expect(JSON.stringify(errorFields(typeErr))).not.toContain(SECRET);
    expect(errorFields(typeErr).error).toBe("D1_TYPE_ERROR: Type 'object' not supported for value [value not logged]");
    expect(errorFields(`failed query\nparams: ${SECRET}`)).toEqual({ error: 'failed query [query parameters not logged]' });
  });

  it('a stored error message is bounded and parameter-free', () => {
    const msg = safeErrorMessage(new Error('outer', { cause: queryError([SECRET]) }));
    expect(msg).not.toContain(SECRET);
    expect(msg).toMatch(/^outer <- Failed query: .* \[query parameters not logged\] <- D1_ERROR: UNIQUE/s);
    expect(safeErrorMessage(new Error('x'.repeat(2000))).length).toBeLessThanOrEqual(500);
    expect(redactSecrets('no secrets here')).toBe('no secrets here');
  });
});
