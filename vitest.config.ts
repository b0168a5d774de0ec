import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Tests run inside workerd against the real local bindings (D1, R2, Durable Objects, Queues),
// with the same SQL migrations wrangler applies. Storage is isolated per test file.
export default defineConfig(async () => {
  const migrations = await readD1Migrations('migrations');
  return {
    // tsconfig.json's paths: @shiftmarket/tool-specs (the tool specs the stdio package shares).
    resolve: { tsconfigPaths: true },
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            MIGRATIONS: migrations,
            DEMO_MODE: 'true',
            DEMO_SEED_TOKEN: 'test-seed-token',
            APP_ORIGIN: 'https://app.shiftmarket.test',
            // Quiet request logs; warnings and errors still print.
            LOG_LEVEL: 'warn',
            // The tests read codes from email_outbox, as a developer does locally.
            LOCAL_MAILBOX: 'true',
            LOCAL_DEFAULT_SECRETS: 'true',
          },
        },
      }),
    ],
    test: {
      setupFiles: ['./test/setup.ts'],
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      silent: 'passed-only' as const,
      // Every core: test files run in parallel, each in its own isolate with its own storage. On 2
      // cores vitest's default (cores − 1) runs them one at a time; two at a time takes `npm test`
      // from about 690 s to 475 s (docs/decisions/testing.md).
      maxWorkers: '100%',
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // A queue batch or a Durable Object the last test set going can still be loading the Worker's
      // module when its file's isolate closes; vitest then reports "Closing rpc while … was pending"
      // with every test passed. Only that teardown error is set aside; any other unhandled error
      // fails the run (docs/decisions/testing.md).
      onUnhandledError: (error: { name?: string }) => error.name !== 'EnvironmentTeardownError',
    },
  };
});
