import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
// The local payment simulator stands in for Stripe (no STRIPE_SECRET_KEY); loading it registers it.
import '../src/local/payment-simulator';

// Runs before each test file; applyD1Migrations skips migrations already applied.
await applyD1Migrations(env.DB, env.MIGRATIONS);
