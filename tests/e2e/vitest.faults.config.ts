import { defineConfig } from 'vitest/config';

// Faults mid-journey (README, "Replicas"): two of everything on the clustered engines, the journeys that matter most,
// and one process of each kind killed (SIGKILL) and restarted while they run. The test file starts and stops the
// stack itself (it must restart its processes); global-setup-faults.ts only provides the addresses. Not part of a
// plain `npm test`: `npm test -- --project faults`.
export default defineConfig({
  test: {
    name: 'faults',
    include: ['faults/**/*.test.ts'],
    globalSetup: ['./global-setup-faults.ts'],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 600_000,
  },
});
