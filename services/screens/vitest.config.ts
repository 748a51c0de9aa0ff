import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'screens',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Component tests start the real service against the shared test servers.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
