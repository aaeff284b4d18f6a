import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SystemContext } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { THEME_CSS_PATH, themeCss } from '../../client/src/theme-css.ts';
import { createFullSystem, getSystem, UNUSED_PALETTES } from '../../client/src/theme.ts';

/**
 * Budget P10 moved work out of the browser: the theme's global CSS is compiled
 * ahead of time (theme.css), the browser's system knows colours and shadows by
 * name only, and unused palettes are left out. These checks keep that honest.
 */

const root = join(import.meta.dirname, '..', '..');

/** Every file under a folder. */
function filesIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesIn(path) : [path];
  });
}

/** A token map as sorted entries (Map order is insertion order, which differs). */
const sorted = (map: Map<string, unknown>): [string, unknown][] => [...map].sort(([a], [b]) => a.localeCompare(b));

describe('the compiled theme CSS', () => {
  it('is up to date with the theme (regenerate: npx node client/src/theme-css.ts)', () => {
    expect(readFileSync(THEME_CSS_PATH, 'utf8')).toBe(themeCss());
  });

  it('declares the layer order, the reset and the tokens in light and dark', () => {
    const css = readFileSync(THEME_CSS_PATH, 'utf8');
    expect(css).toContain('@layer reset,base,tokens,recipes;');
    expect(css).toMatch(/--chakra-colors-accent-fg:var\(--chakra-colors-accent-700\)/);
    expect(css).toMatch(/\.dark[^{]*\{[^}]*--chakra-colors-accent-fg:var\(--chakra-colors-accent-300\)/);
    expect(css).toContain('@keyframes spin');
  });

  it('is what the browser no longer builds: its system has no global styles', () => {
    expect(getSystem()._global).toEqual([]);
    expect(createFullSystem()._global).not.toEqual([]);
  });
});

describe("the browser's system", () => {
  const full = createFullSystem();
  const names: SystemContext = getSystem();

  it('resolves every token to the same CSS variable as the full system', () => {
    expect(sorted(names.tokens.flatMap)).toEqual(sorted(full.tokens.flatMap));
    const palettes = (s: SystemContext) => sorted(new Map([...s.tokens.colorPaletteMap].map(([k, v]) => [k, sorted(v)])));
    expect(palettes(names)).toEqual(palettes(full));
    for (const category of full.tokens.categoryMap.keys()) {
      expect(names.tokens.getCategoryValues(category), category).toEqual(full.tokens.getCategoryValues(category));
    }
  });

  it('makes the same styles from style props and recipes', () => {
    const samples = [
      { color: 'fg.muted', bg: 'bg.panel', borderColor: 'border', boxShadow: 'lg' },
      { colorPalette: 'accent', bg: 'colorPalette.solid', color: 'colorPalette.contrast', _hover: { bg: 'colorPalette.solid/90' } },
      { bg: 'red.500/40', outlineColor: 'colorPalette.focusRing', _dark: { color: 'orange.fg' } },
      { px: { base: '2', md: '4' }, mx: '-3', maxW: '7xl', fontSize: '5xl', rounded: 'l2' },
    ];
    for (const styles of samples) expect(names.css(styles)).toEqual(full.css(styles));
    for (const key of ['button', 'badge', 'link', 'spinner', 'heading']) {
      expect(names.getRecipeFn(key)({ variant: 'subtle', colorPalette: 'green' } as never)).toEqual(full.getRecipeFn(key)({ variant: 'subtle', colorPalette: 'green' } as never));
    }
    expect(names.getSlotRecipeFn('alert')({ status: 'error' } as never)).toEqual(full.getSlotRecipeFn('alert')({ status: 'error' } as never));
  });

  it('leaves out only palettes that no code names', () => {
    for (const palette of UNUSED_PALETTES) expect(full.tokens.getByName(`colors.${palette}.500`), palette).toBeUndefined();
    const named = new RegExp(`['"\`](?:${UNUSED_PALETTES.join('|')})(?:\\.[a-zA-Z0-9]+)*['"\`]`);
    const offenders = filesIn(join(root, 'client', 'src'))
      .filter((f) => /\.(?:tsx?|css)$/.test(f) && !/[/\\]theme\.(?:ts|css)$/.test(f))
      .filter((f) => named.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
