import { defineConfig } from 'drizzle-kit';

// drizzle-kit writes plain SQL into migrations/, the folder wrangler applies and the tests read.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/index.ts',
  out: './migrations',
});
