import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The code explains itself with the repository's own pages: every citation of a
 * `docs/<page>.md` (optionally `#anchor`, further anchors as `, #other`) names a
 * page that exists and a section that page defines, and no comment still cites
 * the design notes that live outside the repository.
 */

const root = join(import.meta.dirname, '..');
const SOURCE_ROOTS = ['server', 'client/src', 'shared', 'tests', 'scripts', 'bench'];
const THIS_FILE = relative(root, import.meta.filename);

function sourceFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx|mts|js|mjs|md)$/.test(name)) out.push(path);
  }
  return out;
}

const files = SOURCE_ROOTS.flatMap((dir) => sourceFiles(join(root, dir)))
  .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }))
  .filter((file) => file.path !== THIS_FILE);

/** The anchors a page defines: explicit `<a id="…">` and the slugs of its headings. */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(root, 'docs', page), 'utf8');
  const anchors = new Set<string>();
  for (const m of text.matchAll(/<a id="([\w-]+)"><\/a>/g)) anchors.add(m[1]!);
  for (const m of text.matchAll(/^#+ (.+)$/gm)) {
    anchors.add(m[1]!.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-'));
  }
  return anchors;
}

// a citation: docs/page.md, then optionally #anchor and more ", #anchor" of the same page
const CITATION = /(?<![\w/.-])docs\/([\w-]+\.md)((?:#[\w-]+)(?:, #[\w-]+)*)?/g;

/** Every citation in the code, as "file:line: docs/page.md#anchor". */
function citations(): { where: string; page: string; anchor?: string }[] {
  const found: { where: string; page: string; anchor?: string }[] = [];
  for (const file of files) {
    file.text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(CITATION)) {
        const where = `${file.path}:${i + 1}`;
        const anchors = m[2] ? [...m[2].matchAll(/#([\w-]+)/g)].map((a) => a[1]!) : [];
        if (anchors.length === 0) found.push({ where, page: m[1]! });
        for (const anchor of anchors) found.push({ where, page: m[1]!, anchor });
      }
    });
  }
  return found;
}

// citations of the design notes kept outside the repository: their file names without
// `docs/`, their parts ("Part" A or B) and the product spec's numbered sections
const OUTSIDE = [
  /(?<![\w/.-])(?:\.\.\/)?(?:shared\/)?(?:(?:design|spec)\/)?(?:rules|api|budgets|architecture|product-spec|stack)\.md/,
  /\bPart [AB]\b/,
  /\b[Ss]pec §/,
  /\brules [AB]\d/,
];

describe('docs cited by the code', () => {
  it('finds the citations (the scan itself works)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(citations().length).toBeGreaterThan(100);
  });

  it('every cited page exists in docs/ and defines the cited section', () => {
    const pages = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const { where, page, anchor } of citations()) {
      if (!existsSync(join(root, 'docs', page))) {
        broken.push(`${where}: docs/${page} does not exist`);
        continue;
      }
      if (!pages.has(page)) pages.set(page, anchorsOf(page));
      if (anchor !== undefined && !pages.get(page)!.has(anchor)) broken.push(`${where}: docs/${page} has no #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it('no code cites the design notes outside the repository', () => {
    const left: string[] = [];
    for (const file of files) {
      file.text.split('\n').forEach((line, i) => {
        const withoutOwn = line.replace(CITATION, '');
        if (OUTSIDE.some((re) => re.test(withoutOwn))) left.push(`${file.path}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(left).toEqual([]);
  });

  it('product code names no issue of the tracker (its history is the commit log; its reasons are in the comments and docs/)', () => {
    const left: string[] = [];
    for (const file of files.filter((f) => /^(server|client\/src|shared)\//.test(f.path))) {
      file.text.split('\n').forEach((line, i) => {
        if (/\b[Ii]ssues? \d+\b/.test(line)) left.push(`${file.path}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(left).toEqual([]);
  });

  it('the pages link each other by anchors that exist', () => {
    const broken: string[] = [];
    for (const page of readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))) {
      const text = readFileSync(join(root, 'docs', page), 'utf8');
      for (const m of text.matchAll(/\]\((?:([\w-]+\.md))?#([\w-]+)\)/g)) {
        const target = m[1] ?? page;
        if (!existsSync(join(root, 'docs', target)) || !anchorsOf(target).has(m[2]!)) broken.push(`docs/${page}: ${m[0]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
