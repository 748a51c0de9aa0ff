import { defineConfig } from 'vitest/config';

// One run covers every workspace; each workspace keeps its own vitest.config.ts so it can also be tested alone.
// Globs (not literal paths) so that a workspace without tests yet does not stop the run.
// The scale project (tests/e2e/vitest.scale.config.ts: journeys against two of everything, README "Replicas") starts
// a second whole stack; it runs only when named: `npm test -- --project scale`. So does the fault suite
// (tests/e2e/vitest.faults.config.ts, on the clustered engines): `npm test -- --project faults`; and the pages'
// before/after screenshots (tests/e2e/vitest.screenshots.config.ts): `npm test -- --project screenshots`.
const named = (name: string) =>
  process.argv.some((a, i) => a === `--project=${name}` || (a === '--project' && process.argv[i + 1] === name));

export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      '{gateway,shell,deploy}/vitest.config.ts',
      'mf-*/vitest.config.ts',
      'tests/*/vitest.config.ts',
      ...(named('scale') ? ['tests/e2e/vitest.scale.config.ts'] : []),
      ...(named('faults') ? ['tests/e2e/vitest.faults.config.ts'] : []),
      ...(named('screenshots') ? ['tests/e2e/vitest.screenshots.config.ts'] : []),
    ],
  },
});
