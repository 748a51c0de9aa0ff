import { defineConfig } from 'vitest/config';

// One run covers every workspace; each workspace keeps its own vitest.config.ts so it can also be tested alone.
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      'gateway/vitest.config.ts',
      'shell/vitest.config.ts',
      'mf-*/vitest.config.ts',
      'tests/e2e/vitest.config.ts',
      'deploy/vitest.config.ts',
    ],
  },
});
