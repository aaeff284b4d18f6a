import { createSystem, defaultBaseConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
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
/**
 * Text fields and selects: 44 px tall, 16 px text (Safari on iPhones and iPads
 * zooms the page into a field with smaller text; a text style, since the size
 * variants set one, which would win over a font size), and a focus ring keyboard
 * users see: 2 px in purple (the gray default, 1 px of gray.400, is 2.6:1 on
 * white; WCAG asks 3:1).
 */
export const FIELD_STYLES = { minH: TOUCH_TARGET, textStyle: 'md', colorPalette: 'purple', '--focus-ring-width': '2px' } as const;

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

/**
 * Colour palettes nothing uses (tests/client/theme-static.test.ts checks that the
 * code names none): each is ~20 tokens for `createSystem` to resolve on every
 * page load (budget P10).
 */
export const UNUSED_PALETTES: readonly string[] = ['yellow', 'teal', 'cyan', 'pink'];

const withoutUnusedPalettes = <T extends object>(colors: T): T =>
  Object.fromEntries(Object.entries(colors).filter(([name]) => !UNUSED_PALETTES.includes(name))) as T;

/** The same tokens, each with `value` in place of its own (light and dark) values. */
function valuesAs<T extends object>(tree: T, value: string): T {
  if ('value' in tree) return { value } as T;
  return Object.fromEntries(Object.entries(tree).map(([key, sub]) => [key, valuesAs(sub as object, value)])) as T;
}

const colorTokens = withoutUnusedPalettes(tokens.colors ?? {});
const semanticColorTokens = withoutUnusedPalettes(semanticTokens.colors ?? {});

/**
 * Chakra's default theme without its recipes (what `defaultConfig` adds to
 * `defaultBaseConfig`, minus them) and unused palettes, as the full theme
 * (theme.css is compiled from it) or as the browser needs it (`forBrowser`).
 * In the browser, a colour or shadow token only needs its name: style props
 * and recipes resolve it to its CSS variable, whose light and dark values are
 * in theme.css, and resolving ~300 colours, most with a light and a dark value,
 * is a third of `createSystem` (budget P10); the reset and the global styles
 * are in theme.css too. tests/client/theme-static.test.ts checks that both
 * resolve every token to the same variable and make the same styles; only
 * `system.token('colors.…')` differs (`currentColor`), and nothing uses it.
 */
function chakraTheme(forBrowser: boolean) {
  return defineConfig({
    preflight: !forBrowser,
    cssVarsPrefix,
    cssVarsRoot,
    globalCss: forBrowser ? {} : chakraGlobalCss,
    theme: {
      keyframes,
      tokens: { ...tokens, colors: forBrowser ? valuesAs(colorTokens, 'currentColor') : colorTokens },
      semanticTokens: {
        ...semanticTokens,
        colors: forBrowser ? valuesAs(semanticColorTokens, 'currentColor') : semanticColorTokens,
        shadows: forBrowser ? valuesAs(semanticTokens.shadows ?? {}, 'none') : semanticTokens.shadows,
      },
      textStyles,
      layerStyles,
      animationStyles,
    },
  });
}

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
});

/** The app's global styles (compiled into theme.css with the rest, see chakraTheme). */
const globalStyles = defineConfig({
  globalCss: {
    // Parts of composite widgets, by the data attributes Ark UI puts on them
    // (a slot recipe override would have to restate every slot).
    '[data-scope=menu][data-part=item], [data-scope=tabs][data-part=trigger], [data-scope=segment-group][data-part=item]': { minH: TOUCH_TARGET },
    '[data-scope=dialog][data-part=close-trigger], [data-scope=popover][data-part=close-trigger]': touch,
    // the page never scrolls sideways, from a 360 px phone up; `clip`, not `hidden`: a hidden
    // overflow makes the body a scroll container, and the sticky header would scroll away with it
    'html, body': { overflowX: 'clip' },
    // a visible focus ring for keyboard users everywhere, in both schemes
    ':focus-visible': { outline: '3px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' },
  },
});

let created: SystemContext | undefined;

/**
 * The browser's design system, made on first use: `createSystem` resolves
 * every token, ~30 ms of one task on a phone, so the app's start does it in a
 * task of its own (main.tsx) rather than while its modules are evaluated
 * (budget P10). It has no global CSS (`_global`, which Chakra's provider would
 * turn into a style sheet on every page load): that is compiled ahead of time
 * into theme.css, which main.tsx imports (see theme-css.ts); the variables this
 * system would declare have placeholder colours (see chakraTheme). The
 * production build also spares `createSystem` the work of making that CSS
 * (chakraWithoutRuntimeGlobalCss in vite.config.ts).
 */
export function getSystem(): SystemContext {
  return (created ??= { ...createSystem(defaultBaseConfig, chakraTheme(true), config), _global: [] });
}

/** The design system with every token's values and the global styles: what theme.css is compiled from (theme-css.ts). */
export function createFullSystem(): SystemContext {
  return createSystem(defaultBaseConfig, chakraTheme(false), config, globalStyles);
}

/** The browser's design system (see {@link getSystem}), made when first used. */
export const system: SystemContext = new Proxy({} as SystemContext, {
  get: (_target, key) => Reflect.get(getSystem(), key),
  has: (_target, key) => Reflect.has(getSystem(), key),
  ownKeys: () => Reflect.ownKeys(getSystem()),
  getOwnPropertyDescriptor: (_target, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(getSystem(), key);
    return descriptor && { ...descriptor, configurable: true };
  },
});

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
  const theme = getSystem()._config.theme as { recipes?: RecipeMap; slotRecipes?: RecipeMap };
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
