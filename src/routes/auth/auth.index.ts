import { createRouter, serviceCtx } from '../../http/create-app';
import { clientIp } from '../../http/middleware/auth';
import {
  cancelTwoFactorLogin,
  completeTwoFactorLogin,
  confirmPasswordReset,
  login,
  logout,
  registerAccount,
  requestPasswordReset,
  resendVerification,
  verifyEmail,
} from '../../services/accounts';
import * as routes from './auth.routes';

export const authRouter = createRouter()
  .openapi(routes.register, async (c) => c.json(await registerAccount(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.verifyEmail, async (c) => {
    const issued = await verifyEmail(serviceCtx(c), c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(issued, 200);
  })
  .openapi(routes.resendVerification, async (c) => c.json(await resendVerification(serviceCtx(c), c.req.valid('json')), 202))
  .openapi(routes.login, async (c) => {
    const { view } = await login(serviceCtx(c), c.req.valid('json'), clientIp(c), { userAgent: c.req.header('User-Agent') });
    c.header('Cache-Control', 'no-store');
    return c.json(view, 200);
  })
  .openapi(routes.completeTwoFactorLogin, async (c) => {
    const signedIn = await completeTwoFactorLogin(serviceCtx(c), c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(signedIn, 200);
  })
  .openapi(routes.cancelTwoFactorLogin, async (c) =>
    c.json(await cancelTwoFactorLogin(serviceCtx(c), c.req.valid('json').session_token), 200),
  )
  .openapi(routes.logout, async (c) => c.json(await logout(serviceCtx(c)), 200))
  .openapi(routes.requestPasswordReset, async (c) => c.json(await requestPasswordReset(serviceCtx(c), c.req.valid('json')), 202))
  .openapi(routes.confirmPasswordReset, async (c) => {
    const issued = await confirmPasswordReset(serviceCtx(c), c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(issued, 200);
  });
