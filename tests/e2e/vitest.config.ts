import { defineConfig } from 'vitest/config';

// Browser scenarios across shell, remotes, gateway and services; one stack for the whole run.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    // a bound that catches a hang, not a target: npm test runs its lanes at once on two cores
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
