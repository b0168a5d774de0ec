import { csvText, guardFormula } from '../../lib/csv';
import { INVOICE_COLUMNS, type InvoiceRowView } from './schemas';

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
      return guardFormula(v);
    }),
  );
  return csvText([[...INVOICE_COLUMNS], ...records]);
}
