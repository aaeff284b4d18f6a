import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../shared/rules/errors.ts';
import { SHORTCUTS } from '../../client/src/a11y/shortcuts.ts';
import { COLOR_SCHEMES, LANGUAGES } from '../../client/src/stores/settings.ts';

/**
 * One key set for every language: a key missing in one of them fails here, so a
 * German reader never meets an English fallback (or a raw key) by accident.
 */

const root = join(import.meta.dirname, '..', '..');
const load = (lng: string): unknown => JSON.parse(readFileSync(join(root, 'locales', `${lng}.json`), 'utf8'));

/** Every leaf path ("a.b.0.heading"); arrays count by index, so both languages need as many paragraphs. */
function leaves(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${prefix}${i}.`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, `${prefix}${k}.`));
  return [prefix.slice(0, -1)];
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const flat = Object.fromEntries(LANGUAGES.map((lng) => [lng, new Set(leaves(load(lng)))]));
const en = flat.en as Set<string>;

/** Does English have this key (i18next resolves `key` to `key_one`/`key_other` when a count is given)? */
const hasKey = (key: string): boolean => en.has(key) || en.has(`${key}_other`) || [...en].some((k) => k.startsWith(`${key}.`));

describe('locales', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the English keys', (lng) => {
    const other = flat[lng] as Set<string>;
    expect([...en].filter((k) => !other.has(k)), `missing in ${lng}`).toEqual([]);
    expect([...other].filter((k) => !en.has(k)), `only in ${lng}`).toEqual([]);
  });

  it('has no empty strings', () => {
    for (const lng of LANGUAGES) {
      const empty: string[] = [];
      const walk = (v: unknown, path: string): void => {
        if (typeof v === 'string') {
          if (v.trim() === '') empty.push(path);
        } else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, `${path}.${k}`);
      };
      walk(load(lng), lng);
      expect(empty).toEqual([]);
    }
  });

  it('uses the same interpolation variables in every language', () => {
    const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
    const get = (obj: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], obj);
    const base = load('en');
    for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
      const other = load(lng);
      for (const key of en) {
        const a = get(base, key);
        const b = get(other, key);
        if (typeof a === 'string' && typeof b === 'string') expect(vars(b), `${lng}: ${key}`).toEqual(vars(a));
      }
    }
  });

  it('names every engine error code (errors.<code>)', () => {
    expect(Object.keys(ERRORS).filter((code) => !en.has(`errors.${code}`))).toEqual([]);
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
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      // t('key'), t("key"), i18next.t('key'), youOr(who, 'key')
      for (const m of source.matchAll(/\bt\(\s*'([a-z_]+(?:\.[A-Za-z_]+)+)'/g)) used.add(m[1] as string);
      for (const m of source.matchAll(/youOr\([^,]+,\s*'([a-z_.]+)'/g)) {
        used.add(m[1] as string);
        used.add(`${m[1]}_you`);
      }
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((k) => !hasKey(k) && !PLURAL.test(k))).toEqual([]);
  });
});
