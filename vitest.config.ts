import { defineConfig } from 'vitest/config';

// Unit and integration tests under plain Node. Playwright specs (test/e2e) run separately.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**', 'out/**'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every engine a test opens (and every CLI it spawns) checks each handler's result against its output schema.
    env: { WHILE_DESK_CHECK_OUTPUTS: '1' },
  },
});
