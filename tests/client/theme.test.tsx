import { kbdRecipe } from '@chakra-ui/react/theme';
import { describe, expect, it } from 'vitest';
import { applyColorScheme, BREAKPOINTS, registerRecipes, resolveColorScheme, system } from '../../client/src/theme.ts';

/** A recipe's resolved base styles (Chakra wraps them in a cascade layer). */
const stylesOf = (key: string): Record<string, unknown> => {
  const out = system.getRecipeFn(key)({}) as Record<string, Record<string, unknown>>;
  return out['@layer recipes'] ?? {};
};

describe('theme', () => {
  it('has the spec breakpoints', () => {
    expect(Object.values(BREAKPOINTS)).toEqual(['576px', '768px', '992px', '1200px', '1400px']);
    expect(system.breakpoints.keys()).toEqual(expect.arrayContaining(['sm', 'md', 'lg', 'xl', '2xl']));
  });

  it('gives buttons a 44 px touch target', () => {
    for (const size of ['2xs', 'xs', 'sm', 'md', 'lg']) {
      const styles = (system.getRecipeFn('button')({ size }) as Record<string, Record<string, unknown>>)['@layer recipes'] ?? {};
      expect(styles.minHeight, size).toBe('44px');
      expect(styles.minWidth, size).toBe('44px');
    }
  });

  it('lets lazy code register recipes (guards the Chakra internals registerRecipes relies on)', () => {
    expect(system.isRecipe('kbd')).toBe(false);
    registerRecipes({ recipes: { kbd: kbdRecipe } });
    expect(system.isRecipe('kbd')).toBe(true);
    expect(stylesOf('kbd').fontFamily).toBe('var(--chakra-fonts-mono)');
    // an existing recipe is not replaced
    registerRecipes({ recipes: { button: kbdRecipe } });
    expect(stylesOf('button').minHeight).toBe('44px');
  });

  it('resolves and applies the colour scheme', () => {
    expect(resolveColorScheme('auto', true)).toBe('dark');
    expect(resolveColorScheme('auto', false)).toBe('light');
    expect(resolveColorScheme('light', true)).toBe('light');
    const root = document.createElement('html');
    applyColorScheme('dark', root);
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.style.colorScheme).toBe('dark');
    applyColorScheme('light', root);
    expect(root.classList.contains('dark')).toBe(false);
    expect(root.classList.contains('light')).toBe(true);
  });
});
