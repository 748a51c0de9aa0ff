import { defineConfig } from 'vitest/config';

// Browser scenarios across shell, remotes, gateway and services; one stack for the whole run.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
