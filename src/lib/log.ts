/** Structured JSON logs; every line carries the request id when there is one. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function createLogger(base: LogFields = {}): Logger {
  const write = (level: string, msg: string, fields?: LogFields) => {
    const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...base, ...fields });
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else console.log(line);
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (f) => createLogger({ ...base, ...f }),
  };
}

export function errorFields(err: unknown): LogFields {
  return err instanceof Error ? { error: err.message, error_name: err.name, stack: err.stack } : { error: String(err) };
}
