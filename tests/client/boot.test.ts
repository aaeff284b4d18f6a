import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage } from '../../client/src/i18n.ts';
import { resolveColorScheme } from '../../client/src/theme.ts';
import { COLOR_SCHEMES, LANGUAGES } from '../../client/src/stores/settings.ts';

/**
 * client/public/boot.js runs before the first paint and must agree with what
 * the app then does (theme.ts for the scheme, i18n.ts for the language), or the
 * static shell would show in one scheme or language and the app in another.
 */

const source = readFileSync(join(import.meta.dirname, '..', '..', 'client', 'public', 'boot.js'), 'utf8');
const root = document.documentElement;

function boot(options: { colorScheme?: string; language?: string; systemDark: boolean; languages: string[] }): void {
  localStorage.clear();
  if (options.colorScheme !== undefined) localStorage.setItem('colorScheme', options.colorScheme);
  if (options.language !== undefined) localStorage.setItem('language', options.language);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' && options.systemDark, media: query }));
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(options.languages);
  root.className = '';
  root.removeAttribute('style');
  root.lang = 'en';
  new Function(source)();
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  root.className = '';
  root.removeAttribute('style');
  root.lang = 'en';
});

describe('boot.js', () => {
  it('applies the colour scheme the app will: stored, else the system one', () => {
    for (const stored of [...COLOR_SCHEMES, 'bogus', undefined]) {
      for (const systemDark of [false, true]) {
        boot({ ...(stored !== undefined ? { colorScheme: stored } : {}), systemDark, languages: ['en'] });
        const preference = COLOR_SCHEMES.includes(stored as never) ? (stored as (typeof COLOR_SCHEMES)[number]) : 'auto';
        const expected = resolveColorScheme(preference, systemDark);
        expect(root.classList.contains(expected), `${stored} / dark ${systemDark}`).toBe(true);
        expect(root.classList.contains(expected === 'dark' ? 'light' : 'dark')).toBe(false);
        expect(root.style.colorScheme).toBe(expected);
      }
    }
  });

  it('sets the language the app will: stored, else the first of the browser languages it has', () => {
    const browsers = [['de-AT', 'en'], ['fr', 'de_CH'], ['EN-gb'], ['fr', 'es'], [], [' de ']];
    for (const stored of [...LANGUAGES, 'fr', undefined]) {
      for (const languages of browsers) {
        boot({ ...(stored !== undefined ? { language: stored } : {}), systemDark: false, languages });
        const expected = LANGUAGES.includes(stored as never) ? stored : detectLanguage(languages);
        expect(root.lang, `${stored} / ${languages.join(',')}`).toBe(expected);
      }
    }
  });

  it('copes with storage that throws (privacy mode)', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    boot({ systemDark: true, languages: ['de'] });
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.lang).toBe('de');
  });
});
