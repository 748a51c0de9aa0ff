import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'gateway',
    include: ['test/**/*.test.ts'],
    // stand-ins checked against the contracts (test/contract.ts)
    setupFiles: ['test/setup.ts'],
    // bounds that catch a hang, not targets: npm test runs its lanes at once on two cores
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
