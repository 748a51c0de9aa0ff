import { defineConfig } from 'vitest/config';

export default defineConfig({
  // the replay test starts `npm run alerts` (a second or two alone, more beside a whole test run)
  test: { name: 'alerts', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
