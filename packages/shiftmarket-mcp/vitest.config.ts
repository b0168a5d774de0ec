import { defineConfig } from 'vitest/config';

// The stdio tool server's tests run in Node (not workerd): they build the bundle, start `wrangler dev`
// with throwaway state and drive the server through an MCP SDK client over stdio (test/worker.ts).
export default defineConfig({
  // tsconfig.json's paths: @shiftmarket/tool-specs, the tool specs shared with the Worker.
  resolve: { tsconfigPaths: true },
  test: {
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
