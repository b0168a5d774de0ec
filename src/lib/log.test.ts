import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './log';

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
});
