import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'deploy',
    include: ['**/*.test.ts'],
    // The first run on a fresh machine builds the compose CLI from the Go module proxy and installs nginx.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
