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

const { values } = parseArgs({
  options: {
    'budget-kb': { type: 'string', default: '200' },
    dir: { type: 'string', default: resolve(import.meta.dirname, '..', 'dist', 'client') },
  },
});
const budgetKb = Number(values['budget-kb']);
const dir = resolve(values.dir);
const manifestPath = join(dir, '.vite', 'manifest.json');

if (!existsSync(manifestPath)) {
  console.error(`No Vite manifest at ${manifestPath}: run \`npm run build\` first.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;

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

/** The entry chunks and, transitively, everything they import statically (what the browser loads before the app runs). */
function initialFiles(m: Manifest, startFiles: readonly string[]): string[] {
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
  for (const [key, chunk] of Object.entries(m)) if (chunk.isEntry) visitKey(key);
  for (const file of startFiles) visitFile(file);
  return [...seen];
}

const html = readFileSync(join(dir, 'index.html'), 'utf8');
const rows = initialFiles(manifest, pageScripts(html))
  .filter((file) => file.endsWith('.js'))
  .map((file) => {
    const bytes = readFileSync(join(dir, file));
    // zlib's default level (6), what Vite reports and what servers typically use
    return { file, raw: bytes.length, gzip: gzipSync(bytes).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

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
