/**
 * The table's colours as data: one colour per decade for the
 * cards, and one per player. Each has a light-scheme and a dark-scheme value
 * and the colour its text is set in; tests/client/palette.test.ts checks them:
 *
 * - decades: each a distinct hue (a spectrum from the 1950s' coral to the
 *   2020s' orchid, so a row of cards in year order reads as a gradient), with
 *   ink text at WCAG AA (≥ 4.5:1, in fact ≥ 8:1) in both schemes;
 * - players: 10 colours that stay apart for protanopia, deuteranopia and
 *   tritanopia (CIEDE2000 ≥ 10 between every pair, simulated), each ≥ 3:1
 *   against the page's surfaces (a ring or badge shows) and with its text at AA.
 *   The two schemes' values are the same hue family, lighter on the dark stage.
 *
 * A component picks a scheme's value with Chakra's conditions, e.g.
 * `bg={{ base: c.light.bg, _dark: c.dark.bg }}` (see {@link schemeStyle}).
 */

/** The ink of text on bright colours (theme-design.ts INK). */
export const INK = '#100e1c';
export const WHITE = '#ffffff';

/** A colour in one scheme: the fill and the colour of text on it. */
export interface Swatch {
  bg: string;
  fg: string;
}

/** A colour in both schemes. */
export interface SchemeColor {
  /** What the colour is called (for tests and documentation; not shown). */
  name: string;
  light: Swatch;
  dark: Swatch;
}

export interface Decade extends SchemeColor {
  /** The decade's first year; the first decade also takes every earlier year, the last every later one. */
  from: number;
}

const ink = (bg: string): Swatch => ({ bg, fg: INK });
const white = (bg: string): Swatch => ({ bg, fg: WHITE });

/** The decades, oldest first: 1950s (and earlier) … 2020s (and later). */
export const DECADES: readonly Decade[] = [
  { from: 1950, name: 'coral', light: ink('#fda19a'), dark: ink('#fe8b83') },
  { from: 1960, name: 'tangerine', light: ink('#fda856'), dark: ink('#f4993c') },
  { from: 1970, name: 'mustard', light: ink('#dabc43'), dark: ink('#cfaf1d') },
  { from: 1980, name: 'green', light: ink('#8bd47b'), dark: ink('#7ac869') },
  { from: 1990, name: 'aqua', light: ink('#1bd9d1'), dark: ink('#0dcbc3') },
  { from: 2000, name: 'sky', light: ink('#78c7fd'), dark: ink('#54bbfe') },
  { from: 2010, name: 'lavender', light: ink('#b6b4ff'), dark: ink('#a9a5fd') },
  { from: 2020, name: 'orchid', light: ink('#f09be8'), dark: ink('#e68cde') },
];

/** The decade of a year (years before the 1950s count as the 1950s, after the 2020s as the 2020s). */
export function decadeOf(year: number): Decade {
  let found = DECADES[0] as Decade;
  for (const d of DECADES) if (year >= d.from) found = d;
  return found;
}

/** The player colours, by colour index (0–9, the order players get them in). */
export const PLAYER_COLORS: readonly SchemeColor[] = [
  { name: 'red', light: white('#7d000b'), dark: ink('#e78269') },
  { name: 'orange', light: white('#8f4901'), dark: ink('#ffb78a') },
  { name: 'olive', light: ink('#93880d'), dark: ink('#908b12') },
  { name: 'lime', light: white('#547e42'), dark: ink('#9ecd14') },
  { name: 'green', light: white('#09653f'), dark: ink('#94ffc5') },
  { name: 'sea', light: ink('#078f8a'), dark: ink('#0c9f98') },
  { name: 'ocean', light: white('#0068ab'), dark: ink('#50b0ff') },
  { name: 'blue', light: white('#0e09da'), dark: ink('#5882ff') },
  { name: 'violet', light: ink('#a45bff'), dark: ink('#9f68b9') },
  { name: 'rose', light: ink('#e24788'), dark: ink('#c75b78') },
];

/** The colour of a player's colour index; any integer maps into the 10 (a bad index never crashes a render). */
export function playerColor(index: number): SchemeColor {
  const n = PLAYER_COLORS.length;
  const i = Number.isFinite(index) ? ((Math.trunc(index) % n) + n) % n : 0;
  return PLAYER_COLORS[i] as SchemeColor;
}

/** Chakra style props for a colour as fill and text colour, in both schemes. */
export function schemeStyle(c: SchemeColor): { bg: Record<string, string>; color: Record<string, string> } {
  return { bg: { base: c.light.bg, _dark: c.dark.bg }, color: { base: c.light.fg, _dark: c.dark.fg } };
}
