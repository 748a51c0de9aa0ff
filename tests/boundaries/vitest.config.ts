import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'boundaries', include: ['*.test.ts'], testTimeout: 60_000 },
});
