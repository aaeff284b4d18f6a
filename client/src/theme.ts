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
import { DESIGN_FONTS, DESIGN_NAMES, DESIGN_RADII, DESIGN_SPACING, designColors, designSemanticColors, designShadows } from './theme-design.ts';

/**
 * The design system: Chakra's base config and default theme (tokens, semantic
 * tokens, text styles, global CSS) with Hitline's own look on top
 * (theme-design.ts: the stage and paper surfaces, the tinted neutrals, the
 * `accent` palette for primary actions, the display face, elevation), plus ONLY
 * the component recipes the first screen uses, because the full default theme
 * alone costs ~25 kB gzip of the initial-JS budget (P9). Lazily loaded code
 * registers the recipes of the components it uses with {@link registerRecipes}
 * at its top level (a component whose recipe is missing renders unstyled). The
 * spec's breakpoints (docs/product.md#limits) and 44 px touch targets on everything tappable.
 */

/** docs/product.md#limits: responsive breakpoints (min-widths). */
export const BREAKPOINTS = { sm: '576px', md: '768px', lg: '992px', xl: '1200px', '2xl': '1400px' } as const;

/** WCAG 2.5.5 / Apple HIG: the smallest comfortable touch target. */
export const TOUCH_TARGET = '44px';

/** The palette of primary actions, links, focus rings and highlights (theme-design.ts). */
export const ACCENT = 'accent';

const touch = { minH: TOUCH_TARGET, minW: TOUCH_TARGET } as const;
/**
 * Text fields and selects: 44 px tall, 16 px text (Safari on iPhones and iPads
 * zooms the page into a field with smaller text; a text style, since the size
 * variants set one, which would win over a font size), and a focus ring keyboard
 * users see: 2 px in the accent (the gray default, 1 px of gray.400, is 2.6:1 on
 * white; WCAG asks 3:1).
 */
export const FIELD_STYLES = { minH: TOUCH_TARGET, textStyle: 'md', colorPalette: ACCENT, '--focus-ring-width': '2px' } as const;

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
export const UNUSED_PALETTES: readonly string[] = ['yellow', 'teal', 'cyan', 'pink', 'purple'];

const withoutUnusedPalettes = <T extends object>(colors: T): T =>
  Object.fromEntries(Object.entries(colors).filter(([name]) => !UNUSED_PALETTES.includes(name))) as T;

/** The same tokens, each with `value` in place of its own (light and dark) values. */
function valuesAs<T extends object>(tree: T, value: string): T {
  if ('value' in tree) return { value } as T;
  return Object.fromEntries(Object.entries(tree).map(([key, sub]) => [key, valuesAs(sub as object, value)])) as T;
}

type TokenGroups = Record<string, object>;
/** Chakra's token groups with this theme's: a group of both is merged (this theme's entries win). */
function withDesign(chakra: object | undefined, design: TokenGroups): TokenGroups {
  const merged: TokenGroups = { ...(chakra as TokenGroups) };
  for (const [key, group] of Object.entries(design)) merged[key] = { ...merged[key], ...group };
  return merged;
}

/** Tokens by name only, each with `value`. */
const named = (names: readonly string[], value: string): TokenGroups => Object.fromEntries(names.map((n) => [n, { value }]));

interface ColorsAndShadows {
  colors: typeof tokens.colors;
  semanticColors: typeof semanticTokens.colors;
  shadows: typeof semanticTokens.shadows;
}

/**
 * The colour and shadow tokens as the browser needs them: by name only (see
 * chakraTheme), from the list of names the theme adds, so their values stay out
 * of the bundle (a function of its own, so the bundler leaves out {@link fullColorsAndShadows}).
 */
function browserColorsAndShadows(): ColorsAndShadows {
  return {
    colors: { ...valuesAs(withoutUnusedPalettes(tokens.colors ?? {}), 'currentColor'), accent: named(DESIGN_NAMES.scale, 'currentColor') },
    semanticColors: { ...valuesAs(withoutUnusedPalettes(semanticTokens.colors ?? {}), 'currentColor'), accent: named(DESIGN_NAMES.palette, 'currentColor') },
    shadows: { ...valuesAs(semanticTokens.shadows ?? {}, 'none'), ...named(DESIGN_NAMES.shadows, 'none') },
  } as unknown as ColorsAndShadows;
}

/** The colour and shadow tokens: Chakra's with this theme's (theme-design.ts), less the unused palettes. */
function fullColorsAndShadows(): ColorsAndShadows {
  return {
    colors: withoutUnusedPalettes({ ...tokens.colors, ...designColors() }),
    semanticColors: withoutUnusedPalettes(withDesign(semanticTokens.colors, designSemanticColors())),
    shadows: { ...semanticTokens.shadows, ...designShadows() },
  } as unknown as ColorsAndShadows;
}

/**
 * Chakra's default theme with this theme's look, without its recipes (what
 * `defaultConfig` adds to `defaultBaseConfig`, minus them) and unused palettes,
 * as the full theme (theme.css is compiled from it) or as the browser needs it
 * (`forBrowser`). In the browser, a colour or shadow token only needs its name:
 * style props and recipes resolve it to its CSS variable, whose light and dark
 * values are in theme.css, and resolving ~300 colours, most with a light and a
 * dark value, is a third of `createSystem` (budget P10); the reset and the
 * global styles are in theme.css too. tests/client/theme-static.test.ts checks
 * that both resolve every token to the same variable and make the same styles;
 * only `system.token('colors.…')` differs (`currentColor`), and nothing uses it.
 */
function chakraTheme(forBrowser: boolean, { colors, semanticColors, shadows }: ColorsAndShadows) {
  return defineConfig({
    preflight: !forBrowser,
    cssVarsPrefix,
    cssVarsRoot,
    globalCss: forBrowser ? {} : chakraGlobalCss,
    theme: {
      keyframes,
      tokens: { ...tokens, fonts: { ...tokens.fonts, ...DESIGN_FONTS }, colors },
      semanticTokens: {
        ...semanticTokens,
        colors: semanticColors,
        shadows,
        radii: { ...semanticTokens.radii, ...DESIGN_RADII },
        spacing: DESIGN_SPACING,
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
    // what the browser scrolls into view (a focused control, a menu's item, an anchor) stops below
    // the sticky header, not under it (WCAG 2.4.11, focus not obscured)
    html: { scrollPaddingTop: '4rem' },
    // a visible focus ring for keyboard users everywhere, in both schemes, in the accent (3:1 on every surface)
    ':focus-visible': { outline: '3px solid', outlineColor: 'accent.focusRing', outlineOffset: '2px' },
    // the stage: a light from above, faint on paper, stronger in the dark (a background image, no element, no layout)
    body: {
      backgroundImage: 'radial-gradient(110% 55% at 50% -8%, color-mix(in srgb, var(--chakra-colors-accent-500) 9%, transparent), transparent 70%)',
      backgroundRepeat: 'no-repeat',
      _dark: {
        backgroundImage:
          'radial-gradient(110% 55% at 50% -8%, color-mix(in srgb, var(--chakra-colors-accent-500) 17%, transparent), transparent 70%), radial-gradient(60% 40% at 100% 0%, color-mix(in srgb, #6d5cff 12%, transparent), transparent 70%)',
      },
    },
    // the display face on what reads as a heading; the recipes set their own weights
    'h1, h2, h3, [data-scope=dialog][data-part=title]': { fontFamily: 'heading', letterSpacing: '-0.01em' },
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
  return (created ??= { ...createSystem(defaultBaseConfig, chakraTheme(true, browserColorsAndShadows()), config), _global: [] });
}

/** The design system with every token's values and the global styles: what theme.css is compiled from (theme-css.ts). */
export function createFullSystem(): SystemContext {
  return createSystem(defaultBaseConfig, chakraTheme(false, fullColorsAndShadows()), config, globalStyles);
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
