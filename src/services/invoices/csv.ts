import { stringify } from 'csv-stringify/sync';
import { INVOICE_COLUMNS, type InvoiceRowView } from './schemas';

/** A cell a spreadsheet would read as a formula (OWASP "CSV injection"): it gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

function guardText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * The invoice rows as CSV (RFC 4180: CRLF records, fields quoted when they hold a comma, quote or line
 * break, quotes doubled), header first, the spec 2.10 columns in order. Text cells are guarded against
 * formulas; numbers we compute (amounts) are written as they are, so a negative amount stays a number.
 */
export function invoicesCsv(rows: InvoiceRowView[]): string {
  const records = rows.map((r) =>
    INVOICE_COLUMNS.map((col) => {
      const v = r[col];
      if (v === null) return '';
      if (typeof v === 'number') return String(v);
      return guardText(v);
    }),
  );
  return stringify([[...INVOICE_COLUMNS], ...records], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}
