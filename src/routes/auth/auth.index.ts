import { createRouter, serviceCtx } from '../../http/create-app';
import { clientIp } from '../../http/middleware/auth';
import { toIso } from '../../lib/time';
import { confirmPasswordReset, requestPasswordReset } from '../../services/accounts/passwords';
import { registerAccount, resendVerification, verifyEmail } from '../../services/accounts/register';
import { login, logout } from '../../services/accounts/sessions';
import * as routes from './auth.routes';

const issuedKey = (k: { key: string; prefix: string; created_at: number }) => ({ ...k, created_at: toIso(k.created_at) });

export const authRouter = createRouter()
  .openapi(routes.register, async (c) => {
    const body = c.req.valid('json');
    const r = await registerAccount(serviceCtx(c), body);
    return c.json(
      {
        user_id: r.userId,
        shifter_id: r.shifterId,
        business_id: r.businessId,
        verification: { sent_to: body.email, expires_in_seconds: r.expiresInSeconds },
      },
      201,
    );
  })
  .openapi(routes.verifyEmail, async (c) => {
    const r = await verifyEmail(serviceCtx(c), c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json({ user_id: r.userId, api_key: issuedKey(r.apiKey) }, 200);
  })
  .openapi(routes.resendVerification, async (c) => {
    await resendVerification(serviceCtx(c), c.req.valid('json').email);
    return c.json({ status: 'sent_if_pending' as const }, 202);
  })
  .openapi(routes.login, async (c) => {
    const r = await login(serviceCtx(c), { ...c.req.valid('json'), ip: clientIp(c) });
    c.header('Cache-Control', 'no-store');
    return c.json({ user_id: r.userId, session_token: r.token, expires_at: toIso(r.expiresAt) }, 200);
  })
  .openapi(routes.logout, async (c) => {
    await logout(serviceCtx(c));
    return c.json({ status: 'signed_out' as const }, 200);
  })
  .openapi(routes.requestPasswordReset, async (c) => {
    await requestPasswordReset(serviceCtx(c), c.req.valid('json').email);
    return c.json({ status: 'sent_if_account' as const }, 202);
  })
  .openapi(routes.confirmPasswordReset, async (c) => {
    const r = await confirmPasswordReset(serviceCtx(c), c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json({ user_id: r.userId, api_key: issuedKey(r.apiKey) }, 200);
  });
