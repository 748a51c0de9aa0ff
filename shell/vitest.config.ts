import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'shell', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], environment: 'jsdom' },
});
