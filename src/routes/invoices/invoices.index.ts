import { createRouter, serviceCtx } from '../../http/create-app';
import { invoicesCsv, listInvoices } from '../../services/invoices';
import { chargeInvoice } from '../../services/payments';
import { appOrigin } from '../../web/urls';
import * as charge from './charge.routes';
import * as routes from './invoices.routes';

export const invoicesRouter = createRouter()
  .openapi(routes.listInvoices, async (c) => c.json(await listInvoices(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.exportInvoicesCsv, async (c) => {
    const page = await listInvoices(serviceCtx(c), c.req.valid('query'));
    const headers: Record<string, string> = {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="invoices.csv"',
    };
    if (page.next_cursor) headers['X-Next-Cursor'] = page.next_cursor;
    return c.body(invoicesCsv(page.data), 200, headers);
  })
  .openapi(charge.chargeInvoiceRoute, async (c) =>
    c.json(await chargeInvoice(serviceCtx(c), c.req.valid('param').invoiceId, { trigger: 'on_demand', requestOrigin: appOrigin(c) }), 200),
  );
