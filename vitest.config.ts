import { defineConfig } from 'vitest/config';

// One run covers every workspace; each workspace keeps its own vitest.config.ts so it can also be tested alone.
// Globs (not literal paths) so that a workspace without tests yet does not stop the run.
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      '{gateway,shell,deploy}/vitest.config.ts',
      'mf-*/vitest.config.ts',
      'tests/*/vitest.config.ts',
    ],
  },
});
