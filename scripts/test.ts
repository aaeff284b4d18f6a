/**
 * `npm test`: the type check, then every test suite, the client build and the
 * end-to-end tests in a browser. Stops at the first failing
 * stage and exits non-zero, so CI and a newcomer see the same verdict.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const bin = (name: string) => join(import.meta.dirname, '..', 'node_modules', '.bin', name);

const stages: { name: string; cmd: string; args: string[] }[] = [
  { name: 'type check', cmd: bin('tsc'), args: ['--noEmit', '-p', '.'] },
  // the browser client resolves modules as its bundler does (client/tsconfig.json)
  { name: 'type check (client)', cmd: bin('tsc'), args: ['--noEmit', '-p', 'client'] },
  { name: 'unit, scenario, fuzz, server and client tests', cmd: bin('vitest'), args: ['run'] },
  // PostgreSQL and Redis from Debian packages (installed when missing) on ports of their own, stopped afterwards;
  // the game server's REST/SSE/WebSocket suites once more on PostgreSQL, then two server processes sharing both
  {
    name: 'scale-out: server suites on PostgreSQL, two processes over Redis',
    cmd: process.execPath,
    args: [join(import.meta.dirname, '..', 'tests', 'infra', 'services.ts'), 'run', '--', bin('vitest'), 'run', '--config', 'vitest.scale.config.ts'],
  },
  // the benchmark path itself (small data; budgets shown, not enforced): `npm run bench` is the real run
  { name: 'catalogue benchmark smoke run', cmd: process.execPath, args: [join(import.meta.dirname, '..', 'bench', 'run.ts'), 'catalogue', '--smoke'] },
  // the load path (P1–P5): 50 rooms of real SDK clients, REST + SSE, reconnects, the bare room; any error fails it
  { name: 'load benchmark smoke run', cmd: process.execPath, args: [join(import.meta.dirname, '..', 'bench', 'run.ts'), 'load', '--smoke'] },
  // budget P9: the production build's initial JavaScript
  { name: 'client build', cmd: bin('vite'), args: ['build', '--config', 'client/vite.config.ts', '--logLevel', 'warn'] },
  { name: 'client bundle size (P9)', cmd: process.execPath, args: [join(import.meta.dirname, 'check-bundle.ts')] },
  // the built client in Debian's Chromium against the real server (installs Chromium with apt-get when missing)
  { name: 'ensure chromium', cmd: process.execPath, args: [join(import.meta.dirname, '..', 'tests', 'e2e', 'ensure-chromium.ts')] },
  { name: 'end-to-end tests', cmd: process.execPath, args: [join(import.meta.dirname, '..', 'tests', 'e2e', 'run.ts')] },
];

for (const stage of stages) {
  const t0 = Date.now();
  console.log(`\n== ${stage.name}`);
  const r = spawnSync(stage.cmd, stage.args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`\n== ${stage.name} FAILED (exit ${r.status ?? r.signal}) after ${secs} s`);
    process.exit(1);
  }
  console.log(`== ${stage.name} passed in ${secs} s`);
}
