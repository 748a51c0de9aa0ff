import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'service-kit',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Component tests share the real test servers; one file at a time keeps their timing honest.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
