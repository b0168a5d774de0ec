import { createRouter, serviceCtx } from '../../http/create-app';
import { toIso } from '../../lib/time';
import { logout } from '../../services/accounts/api-keys';
import { login, registerAccount, resendVerification, VERIFY_CODE_TTL_MS, verifyEmail } from '../../services/accounts/register';
import * as routes from './auth.routes';

export const authRouter = createRouter()
  .openapi(routes.register, async (c) => {
    const body = c.req.valid('json');
    const r = await registerAccount(serviceCtx(c), body);
    return c.json(
      {
        user_id: r.userId,
        shifter_id: r.shifterId,
        business_id: r.businessId,
        verification: { sent_to: body.email, expires_in_seconds: VERIFY_CODE_TTL_MS / 1000 },
      },
      201,
    );
  })
  .openapi(routes.verifyEmail, async (c) => {
    const { email, code } = c.req.valid('json');
    const r = await verifyEmail(serviceCtx(c), email, code);
    c.header('Cache-Control', 'no-store');
    return c.json({ user_id: r.userId, api_key: { ...r.apiKey, created_at: toIso(r.apiKey.created_at) } }, 200);
  })
  .openapi(routes.resendVerification, async (c) => {
    await resendVerification(serviceCtx(c), c.req.valid('json').email);
    return c.json({ status: 'sent_if_pending' as const }, 202);
  })
  .openapi(routes.login, async (c) => {
    const { email, password } = c.req.valid('json');
    const r = await login(serviceCtx(c), email, password);
    c.header('Cache-Control', 'no-store');
    return c.json({ user_id: r.userId, session_token: r.token, expires_at: toIso(r.expiresAt) }, 200);
  })
  .openapi(routes.logout, async (c) => {
    await logout(serviceCtx(c));
    return c.json({ status: 'signed_out' as const }, 200);
  });
