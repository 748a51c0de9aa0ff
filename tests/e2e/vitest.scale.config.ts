import { defineConfig } from 'vitest/config';

// Two of everything (README, "Replicas"): the journeys that matter most, and the cross-gateway tests of scale/,
// against two gateways behind nginx and two of each service (global-setup-scale.ts, port 18090). Not part of a plain
// `npm test` (see the README for why): `npm test -- --project scale`.
export default defineConfig({
  test: {
    name: 'scale',
    include: [
      'scale/**/*.test.ts',
      'test/account-journey.test.ts',
      'test/files.test.ts',
      'test/player-playlist.test.ts',
      'test/points.test.ts',
      'test/marketplace.test.ts',
      'test/screens.test.ts',
    ],
    globalSetup: ['./global-setup-scale.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
