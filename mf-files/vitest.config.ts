import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'mf-files', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] },
});
