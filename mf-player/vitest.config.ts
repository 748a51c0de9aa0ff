import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'mf-player', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] },
});
