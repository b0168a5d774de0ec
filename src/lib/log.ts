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
    const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...base, ...scrubFields(fields) });
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

/**
 * Bound query parameters can hold anything a user sent (passwords, codes, emails), so no log line
 * carries them. drizzle's DrizzleQueryError message ends with "\nparams: …" (the values joined, which
 * may themselves span lines), and D1 type errors quote the offending value ("… for value '…'").
 */
const QUERY_PARAMS = /\n?[ \t]*params:[\s\S]*$/;
/** Says where parameters were cut, in words that do not match the patterns again. */
const PARAMS_CUT = ' [query parameters not logged]';
const QUOTED_VALUE = /(for value )'[\s\S]*$/;

/** Removes bound query parameters and quoted values from a message. */
export function redactSecrets(text: string): string {
  return text.replace(QUERY_PARAMS, PARAMS_CUT).replace(QUOTED_VALUE, '$1[value not logged]');
}

const MAX_CAUSES = 3;

/** The stack's frames without its header (the header repeats the message, parameters included). */
function stackFrames(err: Error): string | undefined {
  if (typeof err.stack !== 'string') return undefined;
  let rest = err.stack;
  const at = err.message ? rest.indexOf(err.message) : -1;
  if (at >= 0) rest = rest.slice(at + err.message.length);
  const frames = rest.split('\n').filter((l) => /^\s+at /.test(l));
  return [`${err.name}: ${redactSecrets(err.message)}`, ...frames].join('\n');
}

/** One error, safe to log or store: message and cause chain with parameters removed. */
export function safeErrorMessage(err: unknown, maxLength = 500): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let i = 0; current !== undefined && current !== null && i <= MAX_CAUSES; i++) {
    parts.push(redactSecrets(current instanceof Error ? current.message : String(current)));
    current = current instanceof Error ? current.cause : undefined;
  }
  const text = parts.join(' <- ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Log fields for an error: message, name, the causes' messages and the stack, parameters removed. */
export function errorFields(err: unknown): LogFields {
  if (!(err instanceof Error)) return { error: redactSecrets(String(err)) };
  const causes: string[] = [];
  let cause: unknown = err.cause;
  for (let i = 0; cause !== undefined && cause !== null && i < MAX_CAUSES; i++) {
    causes.push(redactSecrets(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return {
    error: redactSecrets(err.message),
    error_name: err.name,
    ...(causes.length ? { error_causes: causes } : {}),
    stack: stackFrames(err),
  };
}

/**
 * A second guard at the writer: an Error passed as a field value is logged through errorFields, and
 * any string field that carries a query's parameters (e.g. `String(err)`) is redacted.
 */
function scrubFields(fields: LogFields | undefined): LogFields | undefined {
  if (!fields) return fields;
  let out: LogFields | undefined;
  for (const [k, v] of Object.entries(fields)) {
    let clean = v;
    if (v instanceof Error) clean = errorFields(v);
    else if (typeof v === 'string' && (v.includes('params:') || v.includes('for value '))) clean = redactSecrets(v);
    if (clean !== v) {
      out ??= { ...fields };
      out[k] = clean;
    }
  }
  return out ?? fields;
}
