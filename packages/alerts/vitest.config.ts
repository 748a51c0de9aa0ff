import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'alerts', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
