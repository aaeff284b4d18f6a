import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;
const pkg = JSON.parse(readFileSync(resolve(root, '..', 'package.json'), 'utf8')) as { version: string };

/**
 * Chakra's `createSystem` also turns every token into CSS (`getTokenCss`, for
 * the provider's global styles): half of its run time, in the one long task it
 * makes at start-up (budget P10). The browser never uses that CSS: theme.css
 * has it, compiled ahead of time (theme-css.ts), and the browser's system has
 * no global styles (getSystem in theme.ts). So the production build leaves out
 * that call; the build fails if a Chakra upgrade changes the line or moves the file.
 */
function chakraWithoutRuntimeGlobalCss(): Plugin {
  const line = 'const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];';
  let patched = false;
  return {
    name: 'chakra-without-runtime-global-css',
    apply: 'build',
    transform: {
      filter: { id: /[/\\]@chakra-ui[/\\]react[/\\]dist[/\\]esm[/\\]styled-system[/\\]system\.js$/ },
      handler(code) {
        if (!code.includes(line)) this.error(`Chakra's createSystem changed: "${line}" not found (see chakraWithoutRuntimeGlobalCss)`);
        patched = true;
        return code.replace(line, 'const _global = [];');
      },
    },
    buildEnd(err) {
      // a Chakra that moved the file would otherwise pass unpatched, silently
      if (!err && !patched) this.error("Chakra's styled-system/system.js was not built (see chakraWithoutRuntimeGlobalCss)");
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), chakraWithoutRuntimeGlobalCss()],
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
          groups: [
            { name: 'app', tags: ['$initial'], includeDependenciesRecursively: false },
            // zod and the schemas of net/schemas.ts (not the game room's: room.ts, and
            // schema-strings.ts, which would bring @colyseus/schema along) in one chunk, so
            // that net/schemas-yield.ts can split its evaluation in two tasks (budget P10)
            { name: 'schemas', test: /[/\\](?:node_modules[/\\]zod|shared[/\\]protocol[/\\](?!room\.ts|schema-strings\.ts)|client[/\\]src[/\\]net[/\\]schemas)/ },
          ],
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
