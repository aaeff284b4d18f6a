/**
 * Hitline's own look, on top of Chakra's default theme: a dark
 * stage (deep ink with a violet tint) as the signature, a paper-white light
 * scheme, one accent (a hot stage-light pink), the display face Bricolage
 * Grotesque for headings, years and big moments (self-hosted, theme-fonts.css)
 * over the system sans for text, and named elevation, radius and spacing
 * tokens so every panel, card and dialog is built the same way.
 *
 * Contrast (WCAG AA in both schemes) is checked by tests/client/theme-design.test.ts
 * on these values: edit them there too. After a change, regenerate theme.css
 * (`npx node client/src/theme-css.ts`).
 */

/**
 * The neutral scale replacing Chakra's `gray`: the same lightness steps with a
 * violet tint (OKLCH hue 290), so greys, borders and the stage belong together.
 */
export const NEUTRALS = {
  50: '#f9f8fd',
  100: '#f1f0f8',
  200: '#e1e0ed',
  300: '#cdcbdd',
  400: '#a4a2b7',
  500: '#78768c',
  600: '#5c596e',
  700: '#444256',
  800: '#2d2b3d',
  900: '#1b1929',
  950: '#100e1c',
} as const;

/** The accent: one hot pink (OKLCH hue 355), for primary actions, links, focus and highlights. */
export const ACCENT_SCALE = {
  50: '#fef1f5',
  100: '#fde3ec',
  200: '#fdc8db',
  300: '#ff99c2',
  400: '#f866a7',
  500: '#ed3593',
  600: '#cf1a7c',
  700: '#aa1466',
  800: '#84124f',
  900: '#600e38',
  950: '#3d0822',
} as const;

/** The page's surfaces, light (paper) and dark (the stage). */
export const SURFACES = {
  bg: { light: '#fcfbfe', dark: '#0c0a18' },
  subtle: { light: '#f4f4fa', dark: '#141122' },
  muted: { light: '#ebeaf3', dark: '#1e1b2e' },
  emphasized: { light: '#dfdeeb', dark: '#2b283d' },
  panel: { light: '#ffffff', dark: '#161324' },
} as const;

/** The dark ink that text on bright colours (cards, the dark scheme's accent) is set in. */
export const INK = NEUTRALS[950];

const both = (light: string, dark: string) => ({ value: { _light: light, _dark: dark } });
const scale = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }]));

/*
 * The browser's design system needs only the names of colour and shadow tokens
 * (theme.ts getSystem: theme.css has their values), so their values are made by
 * functions only the full system calls, and stay out of the initial bundle
 * (budget P9); the names the browser adds are listed in DESIGN_NAMES.
 * tests/client/theme-static.test.ts checks that both systems know the same names.
 */

/** The names of the colour and shadow tokens this theme adds to Chakra's. */
export const DESIGN_NAMES = {
  scale: ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'],
  palette: ['solid', 'contrast', 'fg', 'subtle', 'muted', 'emphasized', 'focusRing', 'border'],
  shadows: ['raised', 'overlay', 'glow'],
} as const;

/** Colour tokens: the tinted neutrals in place of Chakra's `gray`, and the accent's scale. */
export function designColors() {
  return { gray: scale(NEUTRALS), accent: scale(ACCENT_SCALE) };
}

/**
 * Semantic colour tokens: the surfaces and text colours Chakra's components use
 * (`bg`, `fg` keep their names, with this theme's values) and the `accent`
 * palette in Chakra's palette shape, so `colorPalette="accent"` works on every
 * component.
 */
export function designSemanticColors() {
  return {
    bg: {
      DEFAULT: both(SURFACES.bg.light, SURFACES.bg.dark),
      subtle: both(SURFACES.subtle.light, SURFACES.subtle.dark),
      muted: both(SURFACES.muted.light, SURFACES.muted.dark),
      emphasized: both(SURFACES.emphasized.light, SURFACES.emphasized.dark),
      panel: both(SURFACES.panel.light, SURFACES.panel.dark),
    },
    fg: {
      DEFAULT: both('{colors.gray.950}', '{colors.gray.50}'),
      muted: both('{colors.gray.600}', '{colors.gray.400}'),
    },
    accent: {
      // the light scheme's solid takes white text; the dark's is brighter, a lit sign, with ink on it
      solid: both('{colors.accent.600}', '{colors.accent.400}'),
      contrast: both('{colors.white}', '{colors.gray.950}'),
      fg: both('{colors.accent.700}', '{colors.accent.300}'),
      subtle: both('{colors.accent.100}', '{colors.accent.950}'),
      muted: both('{colors.accent.200}', '{colors.accent.900}'),
      emphasized: both('{colors.accent.300}', '{colors.accent.800}'),
      focusRing: both('{colors.accent.500}', '{colors.accent.400}'),
      border: both('{colors.accent.500}', '{colors.accent.400}'),
    },
  };
}

/** Elevation: what lies on the page, what floats above it, and the glow of a big moment. */
export function designShadows() {
  return {
    /** Panels and cards lying on the page. */
    raised: both(
      '0px 1px 2px {colors.gray.900/8}, 0px 4px 12px {colors.gray.900/6}',
      '0px 1px 0px inset {colors.white/6}, 0px 6px 16px {black/40}',
    ),
    /** What floats above the page: dialogs, menus, a card being moved. */
    overlay: both(
      '0px 12px 32px {colors.gray.900/18}, 0px 0px 1px {colors.gray.900/30}',
      '0px 1px 0px inset {colors.white/8}, 0px 16px 40px {black/64}',
    ),
    /** The accent's glow: the big moments (a reveal, the winner). */
    glow: both(
      '0px 0px 0px 3px {colors.accent.500/25}, 0px 8px 28px {colors.accent.500/30}',
      '0px 0px 0px 3px {colors.accent.400/30}, 0px 8px 32px {colors.accent.400/35}',
    ),
  };
}

/** The type: the display face for headings (and years, big moments: `fontFamily="heading"`), the system sans for text. */
export const DESIGN_FONTS = {
  // the display face; its metric-matched fallback (theme-fonts.css) keeps the swap from moving the page
  heading: { value: "'Bricolage Grotesque', 'Bricolage Grotesque Fallback', ui-sans-serif, system-ui, sans-serif" },
  body: {
    value:
      "ui-sans-serif, system-ui, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji', 'Noto Color Emoji'",
  },
};

/** Semantic radii: rounder than Chakra's default everywhere (buttons, fields, panels), and named ones. */
export const DESIGN_RADII = {
  l1: { value: '{radii.sm}' },
  l2: { value: '{radii.lg}' },
  l3: { value: '{radii.xl}' },
  /** A section of a screen (the hit, the guess panel). */
  panel: { value: '{radii.2xl}' },
  /** A hit card: rounded like the game's cards. */
  card: { value: '{radii.xl}' },
};

/** Semantic spacing. */
export const DESIGN_SPACING = {
  /** Inside a panel. */
  panel: { value: '{spacing.5}' },
  /** Between the sections of a screen. */
  section: { value: '{spacing.6}' },
};
