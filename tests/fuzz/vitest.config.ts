import { defineConfig } from 'vitest/config';

// Hostile clients against the whole product: schemathesis over every service's OpenAPI document through the gateway,
// and our own bad-input cases over every route of the contracts' table. One stack for the run (global-setup.ts).
export default defineConfig({
  test: {
    name: 'fuzz',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    // a fresh machine installs schemathesis into its venv first (scripts/lib/tools.mjs)
    hookTimeout: 300_000,
  },
});
