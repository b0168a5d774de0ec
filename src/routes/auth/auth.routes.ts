import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent, publicRoute } from '../../http/openapi';
import { businessProfileInput, emailSchema, shifterProfileInput } from '../../services/accounts/schemas';

const tags = ['Accounts'];

export const registerBody = z
  .object({
    email: emailSchema,
    password: z.string().min(10).max(200).openapi({ description: 'At least 10 characters.' }),
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

export const register = publicRoute({
  method: 'post',
  path: '/v1/auth/register',
  tags,
  summary: 'Register a shifter, a business, or a dual-profile account',
  description: 'Creates an unverified account and emails a 6-digit code. Verify it to receive the personal API key.',
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
  errors: ['EMAIL-TAKEN-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const verifyEmail = publicRoute({
  method: 'post',
  path: '/v1/auth/verify_email',
  tags,
  summary: 'Verify the email with the code and receive the personal API key',
  description: 'The full key is in this response only. A retried request with the same Idempotency-Key is not replayed (the answer holds a secret).',
  request: { body: jsonBody(z.object({ email: emailSchema, code: z.string().regex(/^\d{6}$/) })) },
  responses: {
    200: jsonContent(z.object({ user_id: z.string(), api_key: apiKeyFullSchema }), 'Verified; here is the API key.'),
  },
  errors: ['VERIFY-CODE-ERR'],
});

export const resendVerification = publicRoute({
  method: 'post',
  path: '/v1/auth/resend_verification',
  tags,
  summary: 'Send a new verification code',
  description: 'Always answers 202, whether or not the email belongs to an unverified account.',
  request: { body: jsonBody(z.object({ email: emailSchema })) },
  responses: { 202: jsonContent(z.object({ status: z.literal('sent_if_pending') }), 'Accepted.') },
});

export const login = publicRoute({
  method: 'post',
  path: '/v1/auth/login',
  tags,
  summary: 'Sign in with email and password',
  description: 'Returns a session token usable as `Authorization: Bearer <token>`, like the API key.',
  request: { body: jsonBody(z.object({ email: emailSchema, password: z.string().min(1).max(200) })) },
  responses: {
    200: jsonContent(
      z.object({ user_id: z.string(), session_token: z.string(), expires_at: z.string() }),
      'Signed in.',
    ),
  },
  errors: ['LOGIN-FAILED-ERR', 'EMAIL-UNVERIFIED-ERR'],
});

export const logout = authRoute({
  method: 'post',
  path: '/v1/auth/logout',
  tags,
  summary: 'Sign out the current session',
  responses: { 200: jsonContent(z.object({ status: z.literal('signed_out') }), 'Signed out.') },
});
