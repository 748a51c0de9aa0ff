import { defineConfig } from 'vitest/config';

// Hostile clients against the whole product: schemathesis over every service's OpenAPI document through the gateway,
// and our own bad-input cases over every route of the contracts' table. One stack for the run (global-setup.ts).
export default defineConfig({
  test: {
    name: 'fuzz',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    // a bound that catches a hang: screens has the most operations, each refusal of unknown content waits up to 2 s for
    // an event, and npm test runs this beside its other lanes on two cores
    testTimeout: 900_000,
    // a fresh machine installs schemathesis into its venv first (scripts/lib/tools.mjs)
    hookTimeout: 300_000,
  },
});
