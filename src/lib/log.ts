/** Structured JSON logs; every line carries the request id when there is one. */
export type LogFields = Record<string, unknown>;
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** A logger writing lines at `minLevel` and above (operator setting LOG_LEVEL, default info). */
export function createLogger(base: LogFields = {}, minLevel: LogLevel = 'info'): Logger {
  const floor = LOG_LEVELS.indexOf(minLevel);
  const write = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(level) < floor) return;
    const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...base, ...fields });
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else console.log(line);
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (f) => createLogger({ ...base, ...f }, minLevel),
  };
}

export function errorFields(err: unknown): LogFields {
  return err instanceof Error ? { error: err.message, error_name: err.name, stack: err.stack } : { error: String(err) };
}
