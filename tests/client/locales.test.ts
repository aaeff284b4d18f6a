import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADDRESS_IMPORT_ERROR_CODES, AUDIO_STATES, SORT_KEYS } from '../../shared/protocol/catalogue.ts';
import { ERRORS } from '../../shared/rules/errors.ts';
import { SHORTCUTS } from '../../client/src/a11y/shortcuts.ts';
import { COLOR_SCHEMES, LANGUAGES } from '../../client/src/stores/settings.ts';

/**
 * One key set for every language: a key missing in one of them fails here, so a
 * German reader never meets an English fallback (or a raw key) by accident.
 * Covers the main messages (`locales/<lng>.json`, namespace `translation`) and
 * every namespace file pair of lazily loaded screens (`locales/<ns>.<lng>.json`).
 */

const root = join(import.meta.dirname, '..', '..');
const localesDir = join(root, 'locales');
/** `translation` is `<lng>.json`; another namespace is `<ns>.<lng>.json`. */
const fileOf = (lng: string, ns = 'translation'): string => join(localesDir, ns === 'translation' ? `${lng}.json` : `${ns}.${lng}.json`);
const load = (lng: string, ns = 'translation'): unknown => JSON.parse(readFileSync(fileOf(lng, ns), 'utf8'));
/** Every namespace with an English file (`hits.en.json` → `hits`). */
const NAMESPACES = [
  'translation',
  ...readdirSync(localesDir)
    .map((f) => /^([a-z_]+)\.en\.json$/.exec(f)?.[1])
    .filter((ns): ns is string => ns !== undefined),
];
/** Client source folders whose `t('…')` keys belong to a namespace other than `translation`. */
const NAMESPACE_DIRS: Record<string, string> = { [join('client', 'src', 'routes', 'hits')]: 'hits' };

/** Every leaf path ("a.b.0.heading"); arrays count by index, so both languages need as many paragraphs. */
function leaves(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${prefix}${i}.`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, `${prefix}${k}.`));
  return [prefix.slice(0, -1)];
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const flat = Object.fromEntries(LANGUAGES.map((lng) => [lng, new Set(leaves(load(lng)))]));
const en = flat.en as Set<string>;
const enOf = (ns: string): Set<string> => new Set(leaves(load('en', ns)));

/** Does English have this key (i18next resolves `key` to `key_one`/`key_other` when a count is given)? */
const hasKeyIn = (keys: Set<string>, key: string): boolean => keys.has(key) || keys.has(`${key}_other`) || [...keys].some((k) => k.startsWith(`${key}.`));
/** i18next looks a key missing from the main messages up in the fallback namespace (`table`, loaded with the game screen). */
const fallback = enOf('table');
const hasKey = (key: string): boolean => hasKeyIn(en, key) || hasKeyIn(fallback, key);

describe('locales', () => {
  it('finds the namespace files of the lazy screens, each with a file per language', () => {
    expect(NAMESPACES).toContain('hits');
    for (const ns of NAMESPACES) for (const lng of LANGUAGES) expect(existsSync(fileOf(lng, ns)), `${ns}: ${fileOf(lng, ns)}`).toBe(true);
  });

  const pairs = NAMESPACES.flatMap((ns) => LANGUAGES.filter((l) => l !== 'en').map((lng) => [ns, lng] as const));

  it.each(pairs)('%s: %s has exactly the English keys', (ns, lng) => {
    const base = enOf(ns);
    const other = new Set(leaves(load(lng, ns)));
    expect([...base].filter((k) => !other.has(k)), `missing in ${lng}`).toEqual([]);
    expect([...other].filter((k) => !base.has(k)), `only in ${lng}`).toEqual([]);
  });

  it.each(NAMESPACES)('%s: has no empty strings', (ns) => {
    for (const lng of LANGUAGES) {
      const empty: string[] = [];
      const walk = (v: unknown, path: string): void => {
        if (typeof v === 'string') {
          if (v.trim() === '') empty.push(path);
        } else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, `${path}.${k}`);
      };
      walk(load(lng, ns), lng);
      expect(empty).toEqual([]);
    }
  });

  it.each(NAMESPACES)('%s: uses the same interpolation variables in every language', (ns) => {
    const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
    const get = (obj: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], obj);
    const base = load('en', ns);
    for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
      const other = load(lng, ns);
      for (const key of enOf(ns)) {
        const a = get(base, key);
        const b = get(other, key);
        if (typeof a === 'string' && typeof b === 'string') expect(vars(b), `${lng}: ${key}`).toEqual(vars(a));
      }
    }
  });

  it('has the catalogue keys built at run time: fields, audio states, form errors, errors of the import by address', () => {
    const hits = enOf('hits');
    const needed = [
      ...SORT_KEYS.map((k) => `fields.${k}`),
      ...ADDRESS_IMPORT_ERROR_CODES.map((code) => `import.address_errors.${code}`),
      ...AUDIO_STATES.flatMap((s) => [`audio.state.${s}`, `audio.explain.${s}`]),
      ...['required', 'year', 'video_url', 'offset', 'too_long', 'hidden'].map((e) => `form.errors.${e}`),
    ];
    expect(needed.filter((k) => !hits.has(k))).toEqual([]);
  });

  it('names every engine error code (errors.<code>): in the main messages, or for those only the game screen meets in its namespace (the fallback namespace)', () => {
    const table = enOf('table');
    expect(Object.keys(ERRORS).filter((code) => !en.has(`errors.${code}`) && !table.has(`errors.${code}`))).toEqual([]);
    // nothing twice: a code is found in one place
    expect(Object.keys(ERRORS).filter((code) => en.has(`errors.${code}`) && table.has(`errors.${code}`))).toEqual([]);
  });

  it('has the keys built at run time: shortcuts, modes, states, schemes, languages', () => {
    const needed = [
      ...SHORTCUTS.map((s) => `shortcuts.actions.${s.id}`),
      ...SHORTCUTS.map((s) => `shortcuts.sections.${s.section}`),
      ...['Public', 'Private', 'Local'].flatMap((m) => [`game.mode.${m}`, `lobby.create_${m}`]),
      ...['Open', 'Guessing', 'Intercepting', 'Confirming'].map((s) => `game.state.${s}`),
      ...COLOR_SCHEMES.map((s) => `settings.scheme_${s}`),
      ...LANGUAGES.map((l) => `language.${l}`),
    ];
    expect(needed.filter((k) => !en.has(k))).toEqual([]);
  });

  it('has every literal key the client source uses', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk(join(root, 'client', 'src'));
    const used = new Set<string>();
    /** Keys of other namespaces: `ns:key` anywhere, and every key of a namespace's own folder. */
    const usedIn = new Map<string, Set<string>>();
    const useIn = (ns: string, key: string): void => void (usedIn.get(ns) ?? usedIn.set(ns, new Set()).get(ns))?.add(key);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/\bt\(\s*'([a-z_]+):([a-z_]+(?:\.[A-Za-z_]+)+)'/g)) useIn(m[1] as string, m[2] as string);
      const dir = Object.keys(NAMESPACE_DIRS).find((d) => file.startsWith(join(root, d)));
      if (dir) {
        for (const m of source.matchAll(/\bt\(\s*'([a-z_]+(?:\.[A-Za-z_]+)*)'/g)) useIn(NAMESPACE_DIRS[dir] as string, m[1] as string);
        continue;
      }
      // t('key'), t("key"), i18next.t('key'), youOr(who, 'key')
      for (const m of source.matchAll(/\bt\(\s*'([a-z_]+(?:\.[A-Za-z_]+)+)'/g)) used.add(m[1] as string);
      for (const m of source.matchAll(/youOr\([^,]+,\s*'([a-z_.]+)'/g)) {
        used.add(m[1] as string);
        used.add(`${m[1]}_you`);
      }
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((k) => !hasKey(k) && !PLURAL.test(k))).toEqual([]);
    expect(usedIn.get('hits')?.size ?? 0).toBeGreaterThan(100);
    for (const [ns, keys] of usedIn) {
      const known = enOf(ns);
      expect([...keys].filter((k) => !hasKeyIn(known, k) && !PLURAL.test(k)), ns).toEqual([]);
    }
  });
});
