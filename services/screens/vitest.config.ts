import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'screens',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Component tests start the real service against the shared test servers.
    fileParallelism: false,
    // bounds that catch a hang, not targets: npm test runs its lanes at once on two cores
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
