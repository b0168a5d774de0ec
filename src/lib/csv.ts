import { stringify } from 'csv-stringify/sync';

/** A cell a spreadsheet would read as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text from people, made safe for a spreadsheet: a cell that starts like a formula gets a leading apostrophe. */
export function guardFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * Rows as CSV by `csv-stringify` (RFC 4180): CRLF after every record, a field quoted when it holds a
 * comma, a quote or a line break (a lone CR or LF too), quotes doubled. The caller guards the text
 * cells (guardFormula); numbers it computed are written as they are.
 */
export function csvText(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return stringify(
    rows.map((r) => r.map(String)),
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}
