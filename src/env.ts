import { z } from 'zod';
import { LOG_LEVELS } from './lib/log';

/**
 * Operator settings, parsed once per Env object at the entry point. Worker vars arrive as strings;
 * everything downstream reads the typed `Settings`, never `env.X` directly.
 */
const boolString = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');
const intString = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback).catch(fallback);
/**
 * A setting that lists host names, comma- or space-separated, lower-cased, a trailing dot dropped;
 * with `wildcards`, `*.` and a domain stands for its subdomains. Entries that are not host names are
 * ignored, so a typo never widens the list.
 */
const hostList = ({ wildcards }: { wildcards: boolean }) => {
  const host = new RegExp(
    `^${wildcards ? '(\\*\\.)?' : ''}(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$`,
  );
  return z
    .string()
    .max(2000)
    .default('')
    .catch('')
    .transform((v) =>
      v
        .split(/[\s,]+/)
        .map((h) => h.trim().toLowerCase().replace(/\.$/, ''))
        .filter((h) => host.test(h)),
    );
};

export const settingsSchema = z.object({
  DEMO_MODE: boolString,
  DEMO_SEED_TOKEN: z.string().optional(),
  APP_ORIGIN: z.string().default('http://localhost:5173'),
  /** Where the pages are ({app_url}: sign-in, account settings); absent: the Worker's own origin. */
  APP_URL: z.string().optional(),
  /** Where the sign-in and OAuth authorization pages are ({auth_url}); absent: the Worker's own origin. */
  AUTH_URL: z.string().optional(),
  /**
   * Base64 of 32 random bytes (a Worker secret): the AES-GCM key that encrypts two-factor secrets.
   * Absent: only with LOCAL_DEFAULT_SECRETS on, the fixed development key (services/accounts/two-factor/secret-box.ts).
   */
  TWO_FACTOR_ENCRYPTION_KEY: z.string().optional(),
  /**
   * Base64 of 32 random bytes (a Worker secret): the AES-GCM key that encrypts partner webhook signing
   * secrets. Absent: only with LOCAL_DEFAULT_SECRETS on, the fixed development key (services/webhooks/secrets.ts).
   */
  WEBHOOK_SECRET_ENCRYPTION_KEY: z.string().optional(),
  /**
   * The signing secret (`whsec_…`, a Worker secret) of the Stripe webhook endpoint that posts to
   * /v1/finance/stripe/webhook. Absent: only with LOCAL_DEFAULT_SECRETS on, the published development
   * secret (services/payments/stripe-webhook.ts) the local payment simulator signs with.
   */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /**
   * Stripe's secret API key (`sk_test_…`/`sk_live_…`, a Worker secret) and the publishable key pages give
   * Stripe.js. Without the secret key every payment goes to the local payment simulator instead.
   */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  /** Operator cap on one charge (an invoice or a pre-payment), in the currency's minor units. */
  PAYMENT_MAX_CHARGE_MINOR: intString(1_000_000, 1),
  /** Operator cap on one payment an agent asks for (confirm_payment_for_shift), in minor units. */
  AGENT_PAYMENT_MAX_MINOR: intString(200_000, 1),
  /** The platform's fee on a paid invoice, in basis points: the shifter's transfer is the rest. */
  PLATFORM_FEE_BPS: intString(0, 0),
  /**
   * The local payment simulator's event delivery: `immediate` (default) signs and delivers each event
   * to the webhook handler right after the change that raised it; `held` leaves them queued until
   * deliverSimulatorEvents runs (the 5-minute cron, or a test choosing the order).
   */
  PAYMENT_SIMULATOR_DELIVERY: z.enum(['immediate', 'held']).default('immediate').catch('immediate'),
  /** Offer the SMS second factor (codes sent through the notifications interface). Off by default. */
  TWO_FACTOR_SMS_ENABLED: boolString,
  /** The SMS channel (Twilio); without all three, the local stand-in takes text messages. */
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  SMS_FROM: z.string().optional(),
  /**
   * Web Push (VAPID, RFC 8292) for the push channel of notifications: the application server's P-256
   * key pair, base64url (public: the 65-byte uncompressed point, private: the 32-byte scalar), both
   * Worker secrets. Without both, the local stand-in takes push deliveries. VAPID_SUBJECT is the
   * contact push services may use (mailto: or https:).
   */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().default('mailto:no-reply@shiftmarket.local'),
  /**
   * Local development and browser tests only (honoured with LOCAL_DEFAULT_SECRETS on): a local
   * stand-in of a push service (http://127.0.0.1:<port>). Every push is sent there, to the
   * subscription endpoint's path, with the endpoint itself in X-Push-Endpoint, encrypted and signed
   * exactly as for the real push service (test-browser/push-service.mjs).
   */
  LOCAL_PUSH_SERVICE: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).optional(),
  /**
   * Push services a browser's subscription may point at, besides the built-in ones
   * (services/notifications/push-endpoint.ts: fcm.googleapis.com, updates.push.services.mozilla.com,
   * push.services.mozilla.com, web.push.apple.com, *.notify.windows.com), comma- or space-separated:
   * exact host names (`push.example.com`) or `*.` and a domain for its subdomains (`*.push.example.com`).
   * Only port 443. Entries that are not host names are ignored, so a typo never widens the list. With
   * LOCAL_DEFAULT_SECRETS on (local development, the tests) other host names pass too, as long as
   * they name no internal address (the local push stand-in's `push.stand-in.test`).
   */
  PUSH_SERVICE_HOSTS: hostList({ wildcards: true }),
  /**
   * Local development and tests only: a secret that is absent falls back to its fixed, published
   * development value instead of failing. Never on in production.
   */
  LOCAL_DEFAULT_SECRETS: boolString,
  SHIFT_CLOCK_GEOFENCE_HARD_FAIL: boolString,
  GOING_RATE_MIN_SAMPLE: intString(10, 1),
  GOING_RATE_WINDOW_DAYS: intString(90, 1),
  AUTO_FILL_MIN_LEAD_MINUTES: intString(120),
  MILEAGE_RATE_CENTS: intString(67),
  API_KEY_RATE_LIMIT: intString(600, 1),
  API_KEY_RATE_WINDOW_SECONDS: intString(300, 1),
  /** Budget of an account's session tokens together (personal keys have their own). */
  SESSION_RATE_LIMIT: intString(600, 1),
  SESSION_RATE_WINDOW_SECONDS: intString(300, 1),
  /** Requests per client IP to the public sign-up and sign-in routes, all of them together. */
  AUTH_IP_RATE_LIMIT: intString(100, 1),
  AUTH_IP_RATE_WINDOW_SECONDS: intString(900, 1),
  /** Partner clients' budgets per tier, all of a client's credentials together, per PARTNER_RATE_WINDOW_SECONDS. */
  PARTNER_RATE_LIMIT_SELF_SERVE: intString(600, 1),
  PARTNER_RATE_LIMIT_TRUSTED: intString(3000, 1),
  PARTNER_RATE_LIMIT_INTERNAL: intString(12000, 1),
  PARTNER_RATE_WINDOW_SECONDS: intString(300, 1),
  /** Lifetime of a partner OAuth access token (client credentials). */
  PARTNER_TOKEN_TTL_SECONDS: intString(3600, 60),
  MAIL_PROVIDER_API_KEY: z.string().optional(),
  MAIL_FROM: z.string().default('Shiftmarket <no-reply@shiftmarket.local>'),
  /**
   * Local development only: without a mail provider the email_outbox rows stay readable (the
   * developer's mailbox) and emails, codes included, are printed in the log.
   */
  LOCAL_MAILBOX: boolString,
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info').catch('info'),
  /** Largest request body outside file uploads (uploads have their own cap per route). */
  BODY_LIMIT_BYTES: intString(64 * 1024, 1024),
  /**
   * The language model (help center, business assistant; services/ai/provider.ts): `openai` (any
   * OpenAI-compatible endpoint), `workers-ai` (an `AI` binding), or empty: openai when OPENAI_API_KEY
   * is set, else workers-ai when the binding exists, else none (each feature answers its fallback).
   */
  AI_PROVIDER: z.enum(['', 'openai', 'workers-ai']).default(''),
  /** The model name; empty: the provider's default (services/ai/provider.ts DEFAULT_MODELS). */
  AI_MODEL: z.string().max(200).optional(),
  /** A Worker secret: the OpenAI-compatible endpoint's API key. */
  OPENAI_API_KEY: z.string().optional(),
  /** Any OpenAI-compatible API (…/v1); empty: https://api.openai.com/v1. */
  OPENAI_BASE_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).optional(),
  /** How long one model call may take before it is abandoned. */
  AI_TIMEOUT_MS: intString(30_000, 1000),
  /** The business copilot's budget, per business: messages per hour (each may make several model calls)… */
  ASSISTANT_MESSAGES_PER_HOUR: intString(60, 1),
  /** …and model tokens (prompt and completion together) per day. */
  ASSISTANT_TOKENS_PER_DAY: intString(500_000, 1),
  /**
   * Hosts the copilot's open_url action may link to with a full https URL, comma- or space-separated
   * (exact host names, e.g. `help.example.com`); empty (the default): in-app paths only. Entries that
   * are not host names are ignored, so a typo never widens the list.
   */
  ASSISTANT_LINK_HOSTS: hostList({ wildcards: false }),
  /** Widgets: how long the edge cache keeps a public widget's data (services/widgets/cache.ts). */
  WIDGET_CACHE_TTL_SECONDS: intString(60, 1),
  /**
   * Widgets: who may frame the widget pages, the CSP `frame-ancestors` sources, space-separated
   * (default `*`: any site, as public widgets need; e.g. `https://partner.example https://*.partner.example`).
   */
  WIDGET_FRAME_ANCESTORS: z.string().max(2000).default('*'),
});

export type Settings = z.infer<typeof settingsSchema> & {
  /** Origins allowed by CORS (APP_ORIGIN is a comma-separated list). */
  corsOrigins: string[];
};

export type AppBindings = Env & {
  DEMO_SEED_TOKEN?: string;
  APP_URL?: string;
  AUTH_URL?: string;
  TWO_FACTOR_ENCRYPTION_KEY?: string;
  WEBHOOK_SECRET_ENCRYPTION_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  PAYMENT_SIMULATOR_DELIVERY?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  SMS_FROM?: string;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  LOCAL_PUSH_SERVICE?: string;
  PUSH_SERVICE_HOSTS?: string;
  MAIL_PROVIDER_API_KEY?: string;
  MAIL_FROM?: string;
  LOCAL_MAILBOX?: string;
  OPENAI_API_KEY?: string;
  /**
   * Workers AI, bound by the operator (`[ai] binding = "AI"` in wrangler.toml, README); absent
   * locally. Typed by the one call the adapter makes (services/ai/workers-ai.ts).
   */
  AI?: { run(model: string, inputs: Record<string, unknown>): Promise<unknown> };
};

const cache = new WeakMap<object, Settings>();

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function getSettings(env: AppBindings): Settings {
  const hit = cache.get(env);
  if (hit) return hit;
  const missing = (
    ['DB', 'UPLOADS', 'RATE_LIMITER', 'CLAIM_LOCK', 'THREADS', 'BUSINESS_LIVE', 'NOTIFICATIONS_QUEUE', 'WEBHOOKS_QUEUE'] as const
  ).filter((b) => !env[b]);
  if (missing.length) throw new ConfigError(`missing bindings: ${missing.join(', ')}`);
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`invalid settings: ${parsed.error.message}`);
  const settings: Settings = {
    ...parsed.data,
    corsOrigins: parsed.data.APP_ORIGIN.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  };
  cache.set(env, settings);
  return settings;
}
