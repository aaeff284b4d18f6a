import { defineConfig } from 'vitest/config';

/**
 * The scale-out tests (issue 10), apart from `vitest run` because they need
 * PostgreSQL and Redis (tests/infra/global-setup.ts starts both, or uses
 * TEST_PG_URL and TEST_REDIS_URL):
 * - server-pg: the game server's REST/SSE/WebSocket suites once more, each test
 *   server on a new PostgreSQL database, and tests/pg (the search on both engines);
 * - cluster: two server processes sharing PostgreSQL and Redis.
 * Run: `npx vitest run --config vitest.scale.config.ts` (npm test does).
 */
const SERVER_SUITES = ['games-rest', 'games-ws', 'users', 'sse-hub', 'catalogue', 'game-store', 'reports'].map((name) => `tests/server/${name}.test.ts`);
/** PostgreSQL-only tests (e.g. the search compared with SQLite's). */
const PG_TESTS = 'tests/pg/**/*.test.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server-pg',
          include: [...SERVER_SUITES, PG_TESTS],
          environment: 'node',
          testTimeout: 30_000,
          globalSetup: ['tests/infra/global-setup.ts'],
          env: { HITLINE_TEST_DATABASE: 'postgres' },
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          environment: 'node',
          // one cluster at a time: they share the test Redis (each file empties it first)
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          globalSetup: ['tests/infra/global-setup.ts'],
        },
      },
    ],
  },
});
