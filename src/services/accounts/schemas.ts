import { z } from '@hono/zod-openapi';
import { DEVICE_TYPES } from './devices';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { isValidTimeZone } from '../../lib/time';
import { ratingSchema } from '../reviews';
import { MAX_LIVE_SESSIONS } from './limits';
import { passwordProblem } from './password-policy';

// The accounts domain's request and response schemas: the route contracts import them, the services
// take z.infer of the requests and build z.infer of the responses (DECISIONS "Types from one source").

export const timezoneSchema = z
  .string()
  .max(64)
  .refine(isValidTimeZone, { message: 'must be an IANA time zone name, e.g. America/New_York' })
  .openapi({ example: 'America/New_York' });

export const emailSchema = z
  .email()
  .max(254)
  .transform((e) => e.toLowerCase())
  .openapi({ example: 'sam@example.com' });

/**
 * A new password: 10 to 200 characters, and not one that is common, repetitive or a run in order
 * (password-policy.ts; the refusal's message is written for the person). The check is asynchronous
 * (the list of common passwords is loaded on first use): parse with safeParseAsync.
 */
const newPasswordSchema = z
  .string()
  .min(10)
  .max(200)
  .superRefine(async (password, ctx) => {
    if (password.length < 10 || password.length > 200) return;
    const problem = await passwordProblem(password);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({
    description:
      'At least 10 characters. Common passwords, repeated characters and runs in order (abcdefghij, 1234567890, qwertyuiop) are refused.',
  });
const passwordSchema = z.string().min(1).max(200);
const codeSchema = z
  .string()
  .length(6)
  .regex(/^\d{6}$/)
  .openapi({ description: 'The 6-digit code from the email.', example: '123456' });

// ── Profiles ────────────────────────────────────────────────────────────────────────────────────

export const shifterProfileInput = z.object({
  display_name: z.string().trim().min(1).max(100).optional().openapi({ description: 'Defaults to the account name.' }),
  headline: z.string().trim().max(140).optional(),
  city_id: z.number().int().positive().optional(),
  timezone: timezoneSchema
    .optional()
    .openapi({ description: "Earnings months are computed in this zone. Defaults to the city's zone, else UTC." }),
  currency: z.string().length(3).toUpperCase().optional(),
});

export const businessProfileInput = z.object({
  name: z.string().trim().min(1).max(120),
  timezone: timezoneSchema,
  address: z.string().trim().max(300).optional(),
  city_id: z.number().int().positive().optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  currency: z
    .string()
    .length(3)
    .toUpperCase()
    .optional()
    .openapi({ description: 'ISO 4217; defaults to the country’s currency, else USD.' }),
});

export type ShifterProfileInput = z.infer<typeof shifterProfileInput>;
export type BusinessProfileInput = z.infer<typeof businessProfileInput>;

export const createBusinessInput = businessProfileInput.extend({ is_default: z.boolean().optional() });
export type CreateBusinessInput = z.infer<typeof createBusinessInput>;

/** `user_id` of the "of user" reads: the caller's own by default. */
export const userIdQuery = z.object({
  user_id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .optional()
    .openapi({ description: "The caller's user id (default). Another user's id needs an admin." }),
});
export type UserIdQuery = z.infer<typeof userIdQuery>;

export const shifterSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    user_id: z.string(),
    display_name: z.string(),
    headline: z.string().nullable(),
    bio: z.string().nullable(),
    photo_url: z.string().nullable(),
    city_id: z.number().nullable(),
    city: z.string().nullable(),
    timezone: z.string(),
    timezone_confirmed: z.boolean().optional().openapi({
      description:
        'True once the zone is one the shifter gave (their browser at sign-up, or chosen since); false while it is where the service placed them.',
    }),
    accept_shift_req: z.boolean(),
    is_paused: z.boolean().openapi({ description: 'True when accept_shift_req is off: the public profile shows a Paused badge.' }),
    monthly_earnings_goal: z.number().nullable(),
    currency: z.string(),
    roles: z
      .array(z.number().int())
      .max(10)
      .optional()
      .openapi({ description: 'The roles the shifter does (shiftrole_id values): an open shift in one ranks up in their broadcast list.' }),
    home_area: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "The shifter's home area in words; its position is home_latitude/home_longitude." }),
    home_latitude: z.number().nullable().optional(),
    home_longitude: z.number().nullable().optional(),
    travel_km: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'How far the shifter travels from home (km): a venue beyond it ranks down. null: no limit.' }),
    min_hourly_rate: z
      .number()
      .nullable()
      .optional()
      .openapi({ description: 'The lowest hourly rate the shifter takes, in min_hourly_rate_currency: a shift under it ranks down.' }),
    min_hourly_rate_currency: z.string().nullable().optional(),
    ratings: ratingSchema,
    created_at: z.string(),
  })
  .openapi('Shifter');
export type ShifterView = z.infer<typeof shifterSchema>;

export const businessSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    user_id: z.string(),
    name: z.string(),
    is_default: z.boolean().openapi({ description: "Marks the owner's default business." }),
    timezone: z.string(),
    address: z.string().nullable(),
    city_id: z.number().nullable(),
    state_id: z.number().nullable(),
    country_id: z.number().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    geofence_radius_m: z.number().nullable(),
    require_clock_photo: z.boolean(),
    weekly_labor_budget: z.number().nullable(),
    currency: z.string(),
    auto_fill_on_cancel: z.boolean(),
    ratings: ratingSchema,
    created_at: z.string(),
  })
  .openapi('Business');
export type BusinessView = z.infer<typeof businessSchema>;

export const businessListSchema = z.object({ data: z.array(businessSchema) });
export type BusinessList = z.infer<typeof businessListSchema>;

// ── Registration, verification, sign-in, reset ──────────────────────────────────────────────────

export const registerInput = z
  .object({
    email: emailSchema,
    password: newPasswordSchema,
    display_name: z.string().trim().min(1).max(100),
    phone: z.string().trim().max(32).optional(),
    shifter: shifterProfileInput.optional().openapi({ description: 'Send to register as a shifter.' }),
    business: businessProfileInput.optional().openapi({ description: 'Send to register a business. Both: a dual-profile account.' }),
  })
  .openapi('RegisterRequest');
export type RegisterInput = z.infer<typeof registerInput>;

export const registeredSchema = z.object({
  user_id: z.string(),
  shifter_id: z.string().nullable(),
  business_id: z.string().nullable(),
  verification: z.object({ sent_to: z.string(), expires_in_seconds: z.number() }),
});
export type Registered = z.infer<typeof registeredSchema>;

export const verifyEmailInput = z.object({ email: emailSchema, code: codeSchema, password: passwordSchema });
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

export const apiKeyIssuedSchema = z
  .object({
    key: z.string().openapi({ description: 'The full key. Shown only in this response; store it now.', example: 'smk_…' }),
    prefix: z.string().openapi({ description: 'First 12 characters, shown afterwards to identify the key.' }),
    created_at: z.string(),
  })
  .openapi('ApiKeyIssued');
export type ApiKeyIssued = z.infer<typeof apiKeyIssuedSchema>;

export const keyIssuedSchema = z.object({ user_id: z.string(), api_key: apiKeyIssuedSchema });
export type KeyIssued = z.infer<typeof keyIssuedSchema>;

export const resendVerificationInput = z.object({ email: emailSchema });
export type ResendVerificationInput = z.infer<typeof resendVerificationInput>;
export const resendVerificationSchema = z.object({ status: z.literal('sent_if_pending') });
export type VerificationResent = z.infer<typeof resendVerificationSchema>;

export const loginInput = z.object({ email: emailSchema, password: passwordSchema });
export type LoginInput = z.infer<typeof loginInput>;

export const twoFactorMethodSchema = z.enum(['totp', 'sms']).openapi('TwoFactorMethod');
export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean(),
    /** The methods a sign-in challenge accepts besides backup codes. */
    methods: z.array(twoFactorMethodSchema).max(2),
    backup_codes_left: z.number().int().min(0),
  })
  .openapi('TwoFactorStatus');
export type TwoFactorStatusView = z.infer<typeof twoFactorStatusSchema>;

export const signedInSchema = z
  .object({
    user_id: z.string(),
    session_token: z.string(),
    expires_at: z.string(),
    two_factor_required: z.boolean().openapi({
      description:
        'True when the account has two-factor on: `session_token` then reaches only POST /v1/auth/login/two_factor (within ten minutes), which promotes it with a code.',
    }),
    two_factor_methods: z.array(twoFactorMethodSchema).max(2),
  })
  .openapi('SignedIn');
export type SignedIn = z.infer<typeof signedInSchema>;

export const secondFactorInput = z
  .object({
    session_token: z.string().max(64).openapi({ description: 'The pending session token that sign-in returned.' }),
    code: z.string().max(16).optional().openapi({ description: 'The 6-digit code of the authenticator app.' }),
    backup_code: z.string().max(32).optional().openapi({ description: 'A backup code (`xxxxx-xxxxx`), instead of `code`.' }),
  })
  .refine((v) => (v.code ? 1 : 0) + (v.backup_code ? 1 : 0) === 1, { message: 'Send exactly one of code and backup_code.' });
export type SecondFactorBody = z.infer<typeof secondFactorInput>;
export const pendingSignInInput = z.object({ session_token: z.string().max(64) });

export const signedOutSchema = z.object({ status: z.literal('signed_out') });
export type SignedOut = z.infer<typeof signedOutSchema>;

export const requestPasswordResetInput = z.object({ email: emailSchema });
export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetInput>;
export const passwordResetRequestedSchema = z.object({ status: z.literal('sent_if_account') });
export type PasswordResetRequested = z.infer<typeof passwordResetRequestedSchema>;

export const confirmPasswordResetInput = z.object({ email: emailSchema, code: codeSchema, new_password: newPasswordSchema });
export type ConfirmPasswordResetInput = z.infer<typeof confirmPasswordResetInput>;

// ── The signed-in account ───────────────────────────────────────────────────────────────────────

export const userDetailsSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    display_name: z.string(),
    phone: z.string().nullable(),
    email_verified: z.boolean(),
    email_verified_at: z.string().nullable(),
    is_admin: z.boolean(),
    is_demo: z.boolean(),
    has_shifter_profile: z.boolean(),
    has_business_profile: z.boolean(),
    is_dual_profile: z.boolean(),
    shifter_id: z.string().nullable(),
    default_business_id: z.string().nullable(),
    business_ids: z.array(z.string()),
    teammate_of_business_ids: z.array(z.string()),
    two_factor_enabled: z.boolean(),
    two_factor: twoFactorStatusSchema,
    created_at: z.string(),
  })
  .openapi('UserDetails');
export type UserDetails = z.infer<typeof userDetailsSchema>;

export const apiKeyInfoSchema = z
  .object({ prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })
  .openapi('ApiKeyInfo');
export type ApiKeyInfo = z.infer<typeof apiKeyInfoSchema>;

export const changePasswordInput = z.object({
  current_password: passwordSchema,
  new_password: newPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;
export const passwordChangedSchema = z.object({
  status: z.literal('password_changed'),
  sessions_revoked: z.literal(true),
  api_key_revoked: z.literal(false),
});
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

export const sessionSchema = z
  .object({
    id: z.string(),
    created_at: z.string(),
    last_seen_at: z.string().openapi({ description: 'Last request made with it (to the minute).' }),
    expires_at: z.string(),
    current: z.boolean().openapi({ description: 'True for the session making this request.' }),
    user_agent: z.string().nullable().openapi({
      description: 'The User-Agent the sign-in came with (at most 512 characters); null when none was sent or it predates this field.',
    }),
    device: z
      .object({
        browser: z.string().nullable().openapi({ description: 'The browser and its major version, or a program’s product token.' }),
        os: z.string().nullable().openapi({ description: 'The operating system’s name (browsers freeze its version, so none is given).' }),
        type: z.enum(DEVICE_TYPES).nullable(),
        model: z.string().nullable().openapi({ description: 'The device model when the User-Agent names it (iPhone, iPad…).' }),
        label: z.string().openapi({ example: 'Computer: Chrome 131 on macOS' }),
      })
      .nullable()
      .openapi({ description: 'What the User-Agent says about the device, parsed; null without one.' }),
  })
  .openapi('Session');
export type SessionView = z.infer<typeof sessionSchema>;

export const sessionListSchema = z.object({ data: z.array(sessionSchema).max(MAX_LIVE_SESSIONS) });
export type SessionList = z.infer<typeof sessionListSchema>;

export const sessionRevokedSchema = z.object({ id: z.string(), status: z.literal('revoked') });
export type SessionRevoked = z.infer<typeof sessionRevokedSchema>;

export const sessionsRevokedSchema = z.object({ revoked: z.number().int() });
export type SessionsRevoked = z.infer<typeof sessionsRevokedSchema>;

// ── Admins ──────────────────────────────────────────────────────────────────────────────────────

export const grantAdminInput = z.object({ user_id: z.string().min(1).max(ID_MAX_LENGTH) });
export type GrantAdminInput = z.infer<typeof grantAdminInput>;
export const adminGrantedSchema = z.object({ user_id: z.string(), is_admin: z.literal(true) });
export type AdminGranted = z.infer<typeof adminGrantedSchema>;
