import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError, type ErrorCode, errorBody } from '@/lib/errors';
import { stuckInvoices } from '@/services/payments';
import { readWebSession } from '@/web/session';
import { appUrl } from '@/web/urls';
import { ownedInvoice, paymentState } from './shared';

/** The one error envelope, from a cookie-authenticated JSON route of the pages. */
function jsonError(c: Context<AppEnv>, code: ErrorCode, message?: string) {
  const err = new AppError(code, message);
  c.header('Cache-Control', 'no-store');
  return c.json(errorBody(err.code, err.message, c.get('requestId')), err.status);
}

/**
 * The cookie session for JSON: an active session makes its user the actor; no session (or one still
 * waiting for its second factor) is a 401 in the error envelope, never a redirect to a page.
 */
const requireWebUserJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = await readWebSession(c);
  if (session.kind !== 'active') return jsonError(c, 'AUTH-REQ-ERR', 'Sign in first: this address reads the signed-in session.');
  c.set('webUser', session.user);
  await next();
};

/**
 * /finance/web/requires-action: the signed-in person's invoices held for strong authentication, each
 * with its authenticate page; /finance/web/authenticate/{invoice_id}/status: the result page's poll.
 * Both answer JSON, never cached.
 */
export const financeJson = new Hono<AppEnv>()
  .get('/requires-action', requireWebUserJson, async (c) => {
    const stuck = await stuckInvoices(serviceCtx(c));
    c.header('Cache-Control', 'no-store');
    return c.json({
      invoices: stuck.map(({ authenticate_path, ...inv }) => ({ ...inv, authenticate_url: appUrl(c, authenticate_path) })),
    });
  })
  .get('/authenticate/:invoice_id/status', requireWebUserJson, async (c) => {
    const invoice = await ownedInvoice(serviceCtx(c), c.get('webUser')!.userId, c.req.param('invoice_id'));
    if (!invoice) return jsonError(c, 'FORBIDDEN-ERR', 'This payment is not available.');
    c.header('Cache-Control', 'no-store');
    return c.json({ invoice_id: invoice.id, status: invoice.status, requires_action: invoice.requires_action, ...paymentState(invoice) });
  });
