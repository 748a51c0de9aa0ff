import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'service-kit',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Component tests share the real test servers; one file at a time keeps their timing honest.
    fileParallelism: false,
    // bounds that catch a hang, not targets: npm test runs its lanes at once on two cores
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
