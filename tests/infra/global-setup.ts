/**
 * Global setup of vitest.scale.config.ts: PostgreSQL and Redis for the `server-pg`
 * and `cluster` projects. Uses TEST_PG_URL / TEST_REDIS_URL when set (the `npm
 * test` stage starts both through `services.ts run`); otherwise starts both here
 * and stops them after the run.
 */
import type { TestProject } from 'vitest/node';
import { startServices } from './services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test PostgreSQL (its `postgres` database). */
    pgUrl: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.TEST_PG_URL && process.env.TEST_REDIS_URL ? { pgUrl: process.env.TEST_PG_URL, redisUrl: process.env.TEST_REDIS_URL } : null;
  const services = given ? null : await startServices();
  project.provide('pgUrl', given?.pgUrl ?? services!.pgUrl);
  project.provide('redisUrl', given?.redisUrl ?? services!.redisUrl);
  return services ? () => services.stop() : undefined;
}
