import { limitAuthByIp } from '../../http/middleware/auth';
import { authRoute, jsonBody, jsonContent, publicRoute } from '../../http/openapi';
import {
  confirmPasswordResetInput,
  keyIssuedSchema,
  loginInput,
  pendingSignInInput,
  secondFactorInput,
  passwordResetRequestedSchema,
  registeredSchema,
  registerInput,
  requestPasswordResetInput,
  resendVerificationInput,
  resendVerificationSchema,
  signedInSchema,
  signedOutSchema,
  verifyEmailInput,
} from '../../services/accounts';

const tags = ['Accounts'];

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
  request: { body: jsonBody(registerInput) },
  responses: { 201: jsonContent(registeredSchema, 'Account created; verification code sent.') },
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
  request: { body: jsonBody(verifyEmailInput) },
  responses: { 200: jsonContent(keyIssuedSchema, 'Verified; here is the API key.') },
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
  request: { body: jsonBody(resendVerificationInput) },
  responses: { 202: jsonContent(resendVerificationSchema, 'Accepted.') },
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
    '(429 with Retry-After); a right password from another address is not held back by someone else’s failures. ' +
    'When the account has two-factor on, `two_factor_required` is true and the token is pending: it reaches nothing (401 `TWO-FACTOR-REQ-ERR`) ' +
    'until POST /v1/auth/login/two_factor promotes it with a code, within ten minutes.',
  request: { body: jsonBody(loginInput) },
  responses: { 200: jsonContent(signedInSchema, 'Signed in.') },
  errors: ['LOGIN-FAILED-ERR', 'EMAIL-UNVERIFIED-ERR'],
});

export const completeTwoFactorLogin = publicRoute({
  method: 'post',
  path: '/v1/auth/login/two_factor',
  operationId: 'completeTwoFactorLogin',
  tags,
  middleware,
  summary: 'Finish signing in with the second factor',
  description:
    'Sends the pending `session_token` from sign-in with either the 6-digit authenticator `code` or a `backup_code`. A code works once (a replay is refused), ' +
    'a backup code is used up. Wrong codes are limited per account: 5 in 15 minutes and 20 a day (429 with Retry-After). The token becomes a full session.',
  request: { body: jsonBody(secondFactorInput) },
  responses: { 200: jsonContent(signedInSchema, 'Signed in.') },
  errors: ['TWO-FACTOR-CODE-ERR', 'AUTH-REQ-ERR'],
});

export const cancelTwoFactorLogin = publicRoute({
  method: 'post',
  path: '/v1/auth/login/two_factor/cancel',
  operationId: 'cancelTwoFactorLogin',
  tags,
  middleware,
  summary: 'Give up a sign-in that waits for its second factor',
  description: 'Ends the pending session (signed out). Answers the same whether or not the token was pending.',
  request: { body: jsonBody(pendingSignInInput) },
  responses: { 200: jsonContent(signedOutSchema, 'Signed out.') },
});

export const logout = authRoute({
  method: 'post',
  path: '/v1/auth/logout',
  operationId: 'logout',
  authorization: 'self',
  tags,
  summary: 'Sign out the current session',
  responses: { 200: jsonContent(signedOutSchema, 'Signed out.') },
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
  request: { body: jsonBody(requestPasswordResetInput) },
  responses: { 202: jsonContent(passwordResetRequestedSchema, 'Accepted.') },
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
  request: { body: jsonBody(confirmPasswordResetInput) },
  responses: { 200: jsonContent(keyIssuedSchema, 'Password set; here is the new API key.') },
  errors: ['VERIFY-CODE-ERR'],
});
