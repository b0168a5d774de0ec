export { ensureInvoiceForShift, invoiceFor, invoiceInsertWhere } from './create';
export { invoicesCsv } from './csv';
export { getInvoiceRow, listInvoices } from './list';
export { invoiceOwnedBy, type OwnedInvoice } from './owned';
export { chargedAmount, type InvoiceRow, loadInvoice } from './row';
export { INVOICE_FILTERS, INVOICE_LIST_MAX, type InvoiceList, invoiceListSchema, type InvoiceRowView, listInvoicesQuery } from './schemas';
