import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = import.meta.dirname;
const pkg = JSON.parse(readFileSync(resolve(root, '..', 'package.json'), 'utf8')) as { version: string };

export default defineConfig({
  root,
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  build: {
    outDir: resolve(root, '..', 'dist', 'client'),
    emptyOutDir: true,
    // scripts/check-bundle.ts reads it to measure the initial JavaScript (budget P9)
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // Chakra's config helpers return their argument unchanged, but the bundler
        // cannot tell: without this, building the (unused) default theme object
        // keeps every component recipe in the bundle.
        manualPureFunctions: ['defineConfig', 'defineRecipe', 'defineSlotRecipe', 'defineTokens', 'defineSemanticTokens', 'defineTextStyles', 'defineLayerStyles', 'defineAnimationStyles', 'defineKeyframes', 'defineGlobalStyles', 'createAnatomy'],
      },
      output: {
        codeSplitting: {
          // Everything the first page needs in one chunk: modules shared between it
          // and lazy screens would otherwise become dozens of tiny chunks, each a
          // request and each compressed on its own (about 4 kB gzip more in total).
          // Dependencies are not captured recursively: lazy code imports recipes from
          // the same Chakra theme module as the first page, and would drag them in.
          groups: [{ name: 'app', tags: ['$initial'], includeDependenciesRecursively: false }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false },
      '/matchmake': { target: 'http://127.0.0.1:8000' },
      // A game room's WebSocket is /<processId>/<roomId>. That shape also matches
      // client routes (/game/AbCd1234), so plain page requests stay with Vite and
      // only WebSocket upgrades go to the game server.
      '^/[A-Za-z0-9_-]+/[A-Za-z0-9]{8}(?:[?].*)?$': {
        target: 'ws://127.0.0.1:8000',
        ws: true,
        bypass: (req) => (req.headers.upgrade?.toLowerCase() === 'websocket' ? undefined : req.url),
      },
    },
  },
});
