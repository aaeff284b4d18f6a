/**
 * Build benchmark: budget P9 of docs/budgets.md (the client's initial
 * JavaScript, entry chunk plus its static imports, gzip, ≤ 200 kB; the game
 * screen and the hit editor load lazily).
 *
 *   npm run bench -- build [--smoke] [--dir DIR]
 *
 * Runs the production build (`vite build` with client/vite.config.ts) into a
 * temporary folder and measures it with scripts/check-bundle.ts (the same code
 * `npm test` runs on dist/client): what index.html loads and everything that
 * imports statically, gzip level 6 (what Vite reports and servers typically
 * send). Then the lazy chunks: what opening the game screen and the catalogue
 * screens (with the hit editor: create and edit a hit) loads on top.
 * `--dir DIR` measures an existing build instead of building.
 *
 * `--smoke` is the same run with the budgets shown but not enforced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { initialJs, lazyJs, type ChunkSize } from '../scripts/check-bundle.ts';
import type { BenchResult, Figure } from './lib/bench.ts';
import { buildClient } from './lib/client-build.ts';

/** P9, kB (1,000 bytes) gzip. */
const INITIAL_MAX_KB = 200;

/** The screens P9 names as lazy, by their module in the Vite manifest. */
const LAZY = [
  { key: 'src/routes/game/GameScreen.tsx', label: 'game screen' },
  { key: 'src/routes/hits/HitsScreen.tsx', label: 'catalogue screens with the hit editor' },
] as const;

const kb = (bytes: number): number => Math.round(bytes / 100) / 10;
const sum = (rows: ChunkSize[], k: 'gzip' | 'raw') => rows.reduce((s, r) => s + r[k], 0);

export async function run(args: string[]): Promise<BenchResult> {
  const { values } = parseArgs({ args, options: { smoke: { type: 'boolean' }, dir: { type: 'string' } } });
  const enforced = !(values.smoke ?? false);
  const figures: Figure[] = [];
  const notes: string[] = [];
  const dir = values.dir ? resolve(values.dir) : mkdtempSync(join(tmpdir(), 'hitline-bench-build-'));
  try {
    if (!values.dir) {
      const ms = await buildClient(dir);
      figures.push({ label: 'vite build (production)', unit: 'ms', value: Math.round(ms) });
    }
    const initial = initialJs(dir);
    const initialFiles = new Set(initial.map((r) => r.file));
    figures.push({
      label: 'initial JavaScript (entry + static imports), gzip',
      unit: 'kB',
      value: kb(sum(initial, 'gzip')),
      budget: { id: 'P9', stat: 'value', max: INITIAL_MAX_KB, enforced },
      note: `${(sum(initial, 'gzip') / 1000).toFixed(1)} kB exactly, ${(INITIAL_MAX_KB - sum(initial, 'gzip') / 1000).toFixed(1)} kB to spare; ${initial.length} chunk(s), ${kb(sum(initial, 'raw'))} kB minified`,
    });
    for (const r of initial) figures.push({ label: `  ${r.file}`, unit: 'kB', value: kb(r.gzip), note: `${kb(r.raw)} kB minified` });

    let eager = 0;
    for (const { key, label } of LAZY) {
      const rows = lazyJs(dir, key);
      // lazyJs leaves out what the first page already loads: a screen whose own chunk is missing is loaded up front
      const own = rows.find((r) => r.file.includes(key.split('/').pop()!.replace(/\.tsx$/, '')));
      if (!own) eager++;
      figures.push({
        label: `${label} (lazy), gzip on top of the initial JS`,
        unit: 'kB',
        value: kb(sum(rows, 'gzip')),
        note: own ? `${rows.length} chunk(s): ${rows.map((r) => `${r.file.replace(/^assets\//, '')} ${kb(r.gzip)}`).join(', ')}` : 'its chunk is part of the initial JavaScript',
      });
    }
    figures.push({
      label: 'screens P9 wants lazy that load up front',
      unit: '',
      value: eager,
      budget: { id: 'P9', stat: 'value', max: 0, enforced },
    });
    notes.push(
      `built into ${values.dir ? dir : 'a temporary folder'} with client/vite.config.ts; sizes measured by scripts/check-bundle.ts (gzip level 6, kB = 1,000 bytes)`,
      'lazy figures: the screen chunk and its static imports that are not already part of the initial JavaScript (what navigating there downloads); howler loads on first sound',
    );
    if (!enforced) notes.push('smoke run: budgets shown but not enforced');
  } finally {
    if (!values.dir) rmSync(dir, { recursive: true, force: true });
  }
  return { title: 'build: production client bundle (P9)', figures, notes };
}
