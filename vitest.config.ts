import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  test: {
    // no test reaches MusicBrainz or Wikidata, not even a server process a test spawns with this environment
    env: { EVIDENCE_SOURCES: '' },
    projects: [
      {
        extends: true,
        test: { name: 'rules', include: ['tests/rules/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'server', include: ['tests/server/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        extends: true,
        test: { name: 'architecture', include: ['tests/architecture.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'protocol', include: ['tests/protocol/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'docs', include: ['tests/docs.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'client',
          include: ['tests/client/**/*.test.tsx', 'tests/client/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['tests/client/setup.ts'],
          // screens render in a simulated DOM: on a busy 2-core machine a whole screen's test can take seconds
          testTimeout: 15_000,
        },
      },
    ],
  },
});
