/**
 * Budget P9: the client's initial JavaScript (the entry chunk plus every chunk
 * it imports statically, gzip) must stay within 200 kB. Reads the built
 * index.html (the scripts and module preloads the browser fetches first) and the
 * Vite manifest of the last `npm run build` (build.manifest: true) for their
 * static imports, prints the chunks it counts, and exits non-zero over budget
 * or when there is no build. Dynamic imports (lazy screens, dialogs, the German
 * messages, zod) are not counted: they are not needed before the first render.
 *
 *   node scripts/check-bundle.ts [--budget-kb 200] [--dir dist/client]
 *
 * The measurement is exported too ({@link initialJs}, {@link lazyJs}): the build
 * benchmark (bench/build.ts) reports the same figures beside the lazy screens.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** One built JavaScript file, with its size as served uncompressed and gzip'ed. */
export interface ChunkSize {
  file: string;
  raw: number;
  gzip: number;
}

/** Reads the Vite manifest of the build in `dir`; throws when there is none. */
export function readManifest(dir: string): Manifest {
  const manifestPath = join(dir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`No Vite manifest at ${manifestPath}: run \`npm run build\` first.`);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/**
 * The files index.html loads as scripts or module preloads. When the entry
 * module is merged into a manual chunk group, the manifest no longer marks an
 * entry, so the page itself is the reliable starting point.
 */
function pageScripts(html: string): string[] {
  const files: string[] = [];
  const tag = /<(script|link)\b[^>]*>/gi;
  for (const [element] of html.matchAll(tag)) {
    const isScript = /^<script/i.test(element) && /type=["']module["']/i.test(element);
    const isPreload = /^<link/i.test(element) && /rel=["']modulepreload["']/i.test(element);
    const url = /(?:src|href)=["']([^"']+)["']/i.exec(element)?.[1];
    if ((isScript || isPreload) && url && !/^[a-z]+:\/\//i.test(url)) files.push(url.replace(/^\//, ''));
  }
  return files;
}

/**
 * The entry chunks (unless `withEntries` is false) and `startFiles` and, transitively,
 * everything they import statically (for the page: what the browser loads before the app runs).
 */
function initialFiles(m: Manifest, startFiles: readonly string[], withEntries = true): string[] {
  const byFile = new Map(Object.entries(m).map(([key, chunk]) => [chunk.file, key]));
  const seen = new Set<string>();
  const visitKey = (key: string): void => {
    const chunk = m[key];
    if (!chunk) throw new Error(`manifest: unknown chunk ${key}`);
    visitFile(chunk.file);
  };
  const visitFile = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const key = byFile.get(file);
    for (const dep of (key ? m[key]?.imports : undefined) ?? []) visitKey(dep);
  };
  if (withEntries) for (const [key, chunk] of Object.entries(m)) if (chunk.isEntry) visitKey(key);
  for (const file of startFiles) visitFile(file);
  return [...seen];
}

function sizes(dir: string, files: readonly string[]): ChunkSize[] {
  return files
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const bytes = readFileSync(join(dir, file));
      // zlib's default level (6), what Vite reports and what servers typically use
      return { file, raw: bytes.length, gzip: gzipSync(bytes).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

/** The initial JavaScript of the build in `dir`: what index.html loads and everything that imports statically, largest first. */
export function initialJs(dir: string): ChunkSize[] {
  const manifest = readManifest(dir);
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  return sizes(dir, initialFiles(manifest, pageScripts(html)));
}

/**
 * The JavaScript a lazy module (its manifest key, a source path relative to the
 * client root such as `src/routes/game/GameScreen.tsx`) loads on top of the
 * initial JavaScript: its chunk and the chunks that imports statically, less
 * those already loaded up front. Throws when the build has no such dynamic entry.
 */
export function lazyJs(dir: string, key: string): ChunkSize[] {
  const manifest = readManifest(dir);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest: no chunk for ${key} (is it still imported dynamically?)`);
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const initial = new Set(initialFiles(manifest, pageScripts(html)));
  return sizes(
    dir,
    initialFiles(manifest, [chunk.file], false).filter((f) => !initial.has(f)),
  );
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'budget-kb': { type: 'string', default: '200' },
      dir: { type: 'string', default: resolve(import.meta.dirname, '..', 'dist', 'client') },
    },
  });
  const budgetKb = Number(values['budget-kb']);
  let rows: ChunkSize[];
  try {
    rows = initialJs(resolve(values.dir));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const kb = (n: number): string => (n / 1000).toFixed(1);
  const total = rows.reduce((s, r) => s + r.gzip, 0);
  const totalRaw = rows.reduce((s, r) => s + r.raw, 0);
  console.log('Initial JavaScript (entry + static imports):');
  for (const r of rows) console.log(`  ${kb(r.gzip).padStart(7)} kB gzip  ${kb(r.raw).padStart(7)} kB  ${r.file}`);
  console.log(`  ${kb(total).padStart(7)} kB gzip  ${kb(totalRaw).padStart(7)} kB  total in ${rows.length} chunks; budget ${budgetKb} kB gzip`);
  if (total > budgetKb * 1000) {
    console.error(`Over budget P9 by ${kb(total - budgetKb * 1000)} kB gzip.`);
    process.exit(1);
  }
  console.log(`Within budget P9 (${kb(budgetKb * 1000 - total)} kB to spare).`);
}

if (import.meta.main) main();
