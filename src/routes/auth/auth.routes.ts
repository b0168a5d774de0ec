import { z } from '@hono/zod-openapi';
import { limitAuthByIp } from '../../http/middleware/auth';
import { authRoute, jsonBody, jsonContent, publicRoute } from '../../http/openapi';
import { businessProfileInput, emailSchema, shifterProfileInput } from '../../services/accounts/schemas';

const tags = ['Accounts'];

const newPassword = z.string().min(10).max(200).openapi({ description: 'At least 10 characters.' });
const code = z
  .string()
  .length(6)
  .regex(/^\d{6}$/)
  .openapi({ description: 'The 6-digit code from the email.', example: '123456' });

export const registerBody = z
  .object({
    email: emailSchema,
    password: newPassword,
    display_name: z.string().trim().min(1).max(100),
    phone: z.string().trim().max(32).optional(),
    shifter: shifterProfileInput.optional().openapi({ description: 'Send to register as a shifter.' }),
    business: businessProfileInput.optional().openapi({ description: 'Send to register a business. Both: a dual-profile account.' }),
  })
  .openapi('RegisterRequest');

export const apiKeyFullSchema = z
  .object({
    key: z.string().openapi({ description: 'The full key. Shown only in this response; store it now.', example: 'smk_…' }),
    prefix: z.string().openapi({ description: 'First 12 characters, shown afterwards to identify the key.' }),
    created_at: z.string(),
  })
  .openapi('ApiKeyIssued');

const keyIssued = z.object({ user_id: z.string(), api_key: apiKeyFullSchema });

/** Every public sign-up and sign-in route counts against the client IP first. */
const middleware = [limitAuthByIp];

export const register = publicRoute({
  method: 'post',
  path: '/v1/auth/register',
  operationId: 'registerAccount',
  tags,
  middleware,
  summary: 'Register a shifter, a business, or a dual-profile account',
  description:
    'Creates an unverified account and emails a 6-digit code. Verify it (with the password) to receive the personal API key. ' +
    'Only a verified email is taken: registering an email whose account is not verified yet starts over, replacing that registration.',
  request: { body: jsonBody(registerBody) },
  responses: {
    201: jsonContent(
      z.object({
        user_id: z.string(),
        shifter_id: z.string().nullable(),
        business_id: z.string().nullable(),
        verification: z.object({ sent_to: z.string(), expires_in_seconds: z.number() }),
      }),
      'Account created; verification code sent.',
    ),
  },
  errors: ['EMAIL-TAKEN-ERR', 'CONFLICT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const verifyEmail = publicRoute({
  method: 'post',
  path: '/v1/auth/verify_email',
  operationId: 'verifyEmail',
  tags,
  middleware,
  summary: 'Verify the email with the code and the password, and receive the personal API key',
  description:
    'Needs the code mailed to the address and the password the account was registered with; a wrong password is answered like a wrong code ' +
    'and uses one of the code’s attempts. The full key is in this response only; a retry is not replayed (the answer holds a secret).',
  request: { body: jsonBody(z.object({ email: emailSchema, code, password: z.string().min(1).max(200) })) },
  responses: { 200: jsonContent(keyIssued, 'Verified; here is the API key.') },
  errors: ['VERIFY-CODE-ERR'],
});

export const resendVerification = publicRoute({
  method: 'post',
  path: '/v1/auth/resend_verification',
  operationId: 'resendVerification',
  tags,
  middleware,
  summary: 'Send a new verification code',
  description: 'Always answers 202, whether or not the email belongs to an unverified account. Earlier codes stop working.',
  request: { body: jsonBody(z.object({ email: emailSchema })) },
  responses: { 202: jsonContent(z.object({ status: z.literal('sent_if_pending') }), 'Accepted.') },
});

export const login = publicRoute({
  method: 'post',
  path: '/v1/auth/login',
  operationId: 'login',
  tags,
  middleware,
  summary: 'Sign in with email and password',
  description:
    'Returns a session token usable as `Authorization: Bearer <token>`, like the API key. Failed sign-ins are limited per email and address ' +
    '(429 with Retry-After); a right password from another address is not held back by someone else’s failures.',
  request: { body: jsonBody(z.object({ email: emailSchema, password: z.string().min(1).max(200) })) },
  responses: {
    200: jsonContent(z.object({ user_id: z.string(), session_token: z.string(), expires_at: z.string() }), 'Signed in.'),
  },
  errors: ['LOGIN-FAILED-ERR', 'EMAIL-UNVERIFIED-ERR'],
});

export const logout = authRoute({
  method: 'post',
  path: '/v1/auth/logout',
  operationId: 'logout',
  tags,
  summary: 'Sign out the current session',
  responses: { 200: jsonContent(z.object({ status: z.literal('signed_out') }), 'Signed out.') },
  errors: ['SESSION-NOT-FND-ERR'],
});

export const requestPasswordReset = publicRoute({
  method: 'post',
  path: '/v1/auth/password_reset/request',
  operationId: 'requestPasswordReset',
  tags,
  middleware,
  summary: 'Email a password reset code',
  description: 'Always answers 202, whether or not a verified account has the email. Earlier reset codes stop working.',
  request: { body: jsonBody(z.object({ email: emailSchema })) },
  responses: { 202: jsonContent(z.object({ status: z.literal('sent_if_account') }), 'Accepted.') },
});

export const confirmPasswordReset = publicRoute({
  method: 'post',
  path: '/v1/auth/password_reset/confirm',
  operationId: 'confirmPasswordReset',
  tags,
  middleware,
  summary: 'Set a new password with the emailed reset code',
  description:
    'Every session of the account ends and the personal API key is replaced: the new key is in this response only (a reset may follow a takeover).',
  request: { body: jsonBody(z.object({ email: emailSchema, code, new_password: newPassword })) },
  responses: { 200: jsonContent(keyIssued, 'Password set; here is the new API key.') },
  errors: ['VERIFY-CODE-ERR'],
});
