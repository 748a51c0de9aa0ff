import { defineConfig } from 'vitest/config';

// The before/after screenshots of docs/screenshots: journeys through the pages a change touched, in en, fr and ja, at
// 1440 and 390 px (PAGECAST_SCREENSHOTS=docs writes them there, PAGECAST_SHOT_PHASE=before|after names them). They
// take pictures for people to look at; what they show is asserted by the component tests and the browser tests of
// test/. Not part of a plain `npm test`: `npm test -- --project screenshots`.
export default defineConfig({
  test: {
    name: 'screenshots',
    include: ['screenshots/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
