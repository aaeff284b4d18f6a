import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss as chakraGlobalCss,
  keyframes,
  layerStyles,
  semanticTokens,
  textStyles,
  tokens,
  badgeRecipe,
  buttonRecipe,
  headingRecipe,
  iconRecipe,
  linkRecipe,
  menuSlotRecipe,
  spinnerRecipe,
  tableSlotRecipe,
} from '@chakra-ui/react/theme';
import { useEffect } from 'react';
import { useSettings, type ColorScheme } from './stores/settings.ts';

/**
 * The design system: Chakra's base config and default theme (tokens, semantic
 * tokens, text styles, global CSS) plus ONLY the component recipes the first screen uses, because the full
 * default theme alone costs ~25 kB gzip of the initial-JS budget (P9). Lazily
 * loaded code registers the recipes of the components it uses with
 * {@link registerRecipes} at its top level (a component whose recipe is missing
 * renders unstyled). Chakra's semantic tokens (whose semantic tokens `fg`, `bg`,
 * `fg.muted`, `border` meet WCAG AA in both schemes) with the spec's
 * breakpoints (§9), 44 px touch targets on everything tappable, and the
 * `purple` palette for primary actions (white on purple.600 is 5.4:1).
 */

/** Spec §9: responsive breakpoints (min-widths). */
export const BREAKPOINTS = { sm: '576px', md: '768px', lg: '992px', xl: '1200px', '2xl': '1400px' } as const;

/** WCAG 2.5.5 / Apple HIG: the smallest comfortable touch target. */
export const TOUCH_TARGET = '44px';

/** The palette of primary actions. */
export const ACCENT = 'purple';

const touch = { minH: TOUCH_TARGET, minW: TOUCH_TARGET } as const;

/** A recipe with extra base styles (the recipes are plain objects). */
export function withBase<R extends { base?: object }>(recipe: R, base: object): R {
  return { ...recipe, base: { ...recipe.base, ...base } };
}

/**
 * A recipe whose every size keeps a 44 px minimum: the small sizes set their
 * own `minW`/`h`, which would win over the base styles.
 */
export function withTouchSizes<R extends { base?: object; variants?: { size?: Record<string, object> } }>(recipe: R, styles: object = touch): R {
  const sizes = recipe.variants?.size;
  if (!sizes) return withBase(recipe, styles);
  const size = Object.fromEntries(Object.entries(sizes).map(([name, css]) => [name, { ...css, ...styles }]));
  return { ...withBase(recipe, styles), variants: { ...recipe.variants, size } };
}

/** Chakra's default theme without its recipes (what `defaultConfig` adds to `defaultBaseConfig`, minus them). */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss: chakraGlobalCss,
  theme: { keyframes, tokens, semanticTokens, textStyles, layerStyles, animationStyles },
});

const config = defineConfig({
  theme: {
    breakpoints: BREAKPOINTS,
    recipes: {
      badge: badgeRecipe,
      button: withTouchSizes(buttonRecipe),
      heading: headingRecipe,
      icon: iconRecipe,
      link: withBase(linkRecipe, { textUnderlineOffset: '3px' }),
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      menu: menuSlotRecipe,
      table: tableSlotRecipe,
    },
  },
  globalCss: {
    // Parts of composite widgets, by the data attributes Ark UI puts on them
    // (a slot recipe override would have to restate every slot).
    '[data-scope=menu][data-part=item], [data-scope=tabs][data-part=trigger], [data-scope=segment-group][data-part=item]': { minH: TOUCH_TARGET },
    '[data-scope=dialog][data-part=close-trigger], [data-scope=popover][data-part=close-trigger]': touch,
    // the page never scrolls sideways, from a 360 px phone up
    'html, body': { overflowX: 'hidden' },
    // a visible focus ring for keyboard users everywhere, in both schemes
    ':focus-visible': { outline: '3px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' },
  },
});

export const system = createSystem(defaultBaseConfig, chakraTheme, config);

type RecipeMap = Record<string, object>;

/**
 * Adds component recipes from lazily loaded code, before its components first
 * render: `registerRecipes({ slotRecipes: { tabs: tabsSlotRecipe } })` at the
 * top of the module (recipes from '@chakra-ui/react/theme'). The system looks
 * recipes up by key on first use, so adding keys to its theme is enough; keys
 * already present are kept. tests/client/theme.test.tsx guards this against
 * Chakra upgrades.
 */
export function registerRecipes(extra: { recipes?: RecipeMap; slotRecipes?: RecipeMap }): void {
  const theme = system._config.theme as { recipes?: RecipeMap; slotRecipes?: RecipeMap };
  for (const kind of ['recipes', 'slotRecipes'] as const) {
    const add = extra[kind];
    if (!add) continue;
    const target = (theme[kind] ??= {});
    for (const [key, recipe] of Object.entries(add)) if (!(key in target)) target[key] = recipe;
  }
}

// ---------------------------------------------------------------------------
// colour scheme: a class on <html> (Chakra's `.dark &` condition) plus the CSS
// `color-scheme`, so form controls and scrollbars follow too

export type ResolvedScheme = 'light' | 'dark';

export function resolveColorScheme(preference: ColorScheme, systemPrefersDark: boolean): ResolvedScheme {
  if (preference === 'auto') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

const darkQuery = (): MediaQueryList | null =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;

/** Applies a resolved scheme to the document. */
export function applyColorScheme(scheme: ResolvedScheme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', scheme === 'dark');
  root.classList.toggle('light', scheme === 'light');
  root.style.colorScheme = scheme;
}

/** Applies the stored preference now (before the first render, so the page does not flash). */
export function applyStoredColorScheme(): void {
  applyColorScheme(resolveColorScheme(useSettings.getState().colorScheme, darkQuery()?.matches ?? false));
}

/** Keeps the document's scheme in step with the setting and, for `auto`, with the system. */
export function useColorSchemeEffect(): void {
  const preference = useSettings((s) => s.colorScheme);
  useEffect(() => {
    const query = darkQuery();
    const apply = (): void => applyColorScheme(resolveColorScheme(preference, query?.matches ?? false));
    apply();
    if (preference !== 'auto' || !query) return;
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [preference]);
}
