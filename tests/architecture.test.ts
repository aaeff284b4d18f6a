import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers of the code point one way: the import graph of server/, shared/
 * and client/src/ has no cycle, shared/ stands on its own, and the client's
 * stores know nothing of the screens. Imports are read from the source text
 * (static, `export … from`, side-effect and dynamic `import()`, type-only ones
 * too: a cycle of types is still two modules that need each other).
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['server', 'shared', 'client/src'];
const EXTENSIONS = ['.ts', '.tsx'];

/** Every .ts/.tsx file below `dir`, as a path relative to the repository. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (EXTENSIONS.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Import statements start a line; their clause holds no quote or semicolon until `from`. */
const STATIC = /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /^\s*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative specifiers a source text imports. */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const re of [STATIC, SIDE_EFFECT, DYNAMIC]) for (const m of text.matchAll(re)) found.push(m[1]!);
  return found.filter((s) => s.startsWith('.'));
}

/** The repository file `specifier` names from `file`, or null when it is no source file (CSS, assets). */
function resolveImport(file: string, specifier: string): string | null {
  const target = join(dirname(file), specifier.replace(/\?.*$/, ''));
  for (const candidate of [target, ...EXTENSIONS.map((e) => target + e), ...EXTENSIONS.map((e) => join(target, `index${e}`))]) {
    if (EXTENSIONS.some((e) => candidate.endsWith(e)) && existsSync(join(ROOT, candidate))) return candidate;
  }
  return null;
}

/** file → the source files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SOURCES.flatMap(sourceFiles)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = importSpecifiers(text)
      .map((s) => resolveImport(file, s))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The cycles of `graph`: each strongly connected component of more than one file
 * (or a file importing itself), written as one closed path through it.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((c) => closedPath(graph, new Set(c)));
}

/** A shortest path from the component's first file (by name) back to itself, inside the component. */
function closedPath(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** Imports from files under `from` into files under `to`, as "importer → imported". */
function importsInto(graph: ReadonlyMap<string, readonly string[]>, from: string, to: string[]): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(from)) continue;
    for (const t of targets) if (to.some((prefix) => t.startsWith(prefix))) out.push(`${file} → ${t}`);
  }
  return out.sort();
}

describe('the import graph', () => {
  const graph = importGraph();

  it('reads the imports of the sources', () => {
    // a check that reads nothing finds no cycle: the graph must be the real one
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('server/db/index.ts')).toContain('server/db/schema.ts');
    expect(graph.get('client/src/main.tsx')?.length).toBeGreaterThan(0);
  });

  it('has no import cycle', () => {
    const cycles = findCycles(graph).map((c) => c.join(' → '));
    expect(cycles).toEqual([]);
  });

  it('shared/ imports nothing from server/ or client/', () => {
    expect(importsInto(graph, 'shared/', ['server/', 'client/'])).toEqual([]);
  });

  it('the client stores import nothing from the screens (client/src/routes/) or the translations (client/src/i18n.ts)', () => {
    expect(importsInto(graph, 'client/src/stores/', ['client/src/routes/', 'client/src/i18n.ts'])).toEqual([]);
  });

  it('the database layer (server/db/) imports nothing from the rooms, the HTTP layer or the search services', () => {
    expect(importsInto(graph, 'server/db/', ['server/rooms/', 'server/http/', 'server/services/search'])).toEqual([]);
  });

  it('the rooms, the event bus and the services import nothing from the HTTP layer (server/http/)', () => {
    const found = ['server/rooms/', 'server/events/', 'server/services/'].flatMap((from) => importsInto(graph, from, ['server/http/']));
    expect(found).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('reads every kind of relative import, not package imports', () => {
    const text = [
      "import { a } from './a.ts';",
      'import type {',
      '  B,',
      "} from '../b.ts';",
      "export { c } from './c.ts';",
      "export * from './d.ts';",
      "import './e.css';",
      "const f = () => import('./f.ts');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts', './e.css', './f.ts']);
  });

  it('finds a cycle and writes it as a closed path; a graph without one passes', () => {
    const cyclic = new Map([
      ['db/index.ts', ['db/migrations.ts', 'db/schema.ts']],
      ['db/migrations.ts', ['services/search.ts']],
      ['services/search.ts', ['db/index.ts']],
      ['db/schema.ts', []],
    ]);
    expect(findCycles(cyclic)).toEqual([['db/index.ts', 'db/migrations.ts', 'services/search.ts', 'db/index.ts']]);
    expect(findCycles(new Map([['a', ['a']]]))).toEqual([['a', 'a']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []], ['c', ['a', 'b']]]))).toEqual([]);
  });
});
