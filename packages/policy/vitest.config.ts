import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'policy', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
