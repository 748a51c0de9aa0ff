import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'mf-marketplace',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'jsdom',
  },
});
