import { describe, expect, it } from 'vitest';
import { DECADES, decadeOf, PLAYER_COLORS, playerColor, type Swatch } from '../../client/src/routes/game/table/palette.ts';
import { SURFACES } from '../../client/src/theme-design.ts';
import { contrast, deltaE2000, distance, labOf, linearRgb, parseHex, type Vision } from './colour.ts';

const SCHEMES = ['light', 'dark'] as const;
const VISIONS: readonly Vision[] = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'];
/** CIEDE2000 between any two player colours, for every kind of vision: clearly apart side by side. */
const MIN_PLAYER_DISTANCE = 10;

/** The closest pair of colours as someone with `vision` sees them. */
function closestPair(colors: readonly string[], vision: Vision): { d: number; pair: string } {
  let best = { d: Infinity, pair: '' };
  for (let i = 0; i < colors.length; i++) {
    for (let j = i + 1; j < colors.length; j++) {
      const d = distance(colors[i] as string, colors[j] as string, vision);
      if (d < best.d) best = { d, pair: `${colors[i]}/${colors[j]}` };
    }
  }
  return best;
}

/** The hue angle (CIELAB, degrees) of a colour. */
const hueOf = (hex: string): number => {
  const [, a, b] = labOf(linearRgb(parseHex(hex)));
  return (Math.atan2(b, a) * 180) / Math.PI + 360;
};
const hueGap = (x: number, y: number): number => {
  const d = Math.abs(x - y) % 360;
  return Math.min(d, 360 - d);
};

describe('the colour science the checks rely on', () => {
  it('computes WCAG contrast', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('computes CIEDE2000 as in the published test data (Sharma, Wu & Dalal 2005)', () => {
    expect(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE2000([50, 0, 0], [50, -1, 2])).toBeCloseTo(2.3669, 4);
    expect(deltaE2000([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
    expect(deltaE2000([2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514])).toBeCloseTo(0.9082, 4);
  });

  it('simulates colour blindness: red and green, far apart normally, nearly meet for deuteranopes', () => {
    expect(distance('#d62728', '#2ca02c')).toBeGreaterThan(50);
    expect(distance('#d62728', '#2ca02c', 'deuteranopia')).toBeLessThan(15);
    // tritanopes lose blue–yellow, not red–green
    expect(distance('#d62728', '#2ca02c', 'tritanopia')).toBeGreaterThan(30);
  });
});

describe('the decade palette', () => {
  it('covers the 1950s (and earlier) to the 2020s (and later), one colour per decade', () => {
    expect(DECADES.map((d) => d.from)).toEqual([1950, 1960, 1970, 1980, 1990, 2000, 2010, 2020]);
    expect(decadeOf(1931).from).toBe(1950);
    expect(decadeOf(1959).from).toBe(1950);
    expect(decadeOf(1960).from).toBe(1960);
    expect(decadeOf(1989).from).toBe(1980);
    expect(decadeOf(2020).from).toBe(2020);
    expect(decadeOf(2031).from).toBe(2020);
  });

  for (const scheme of SCHEMES) {
    it(`has card text at WCAG AA on every decade, ${scheme}`, () => {
      for (const d of DECADES) {
        const { bg, fg } = d[scheme];
        expect(contrast(fg, bg), `${d.from}s ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
    });

    it(`gives every decade its own hue, ${scheme}`, () => {
      const colors = DECADES.map((d) => d[scheme].bg);
      for (let i = 0; i < colors.length; i++) {
        for (let j = i + 1; j < colors.length; j++) {
          const [a, b] = [colors[i] as string, colors[j] as string];
          expect(hueGap(hueOf(a), hueOf(b)), `${a}/${b}`).toBeGreaterThanOrEqual(20);
          expect(distance(a, b), `${a}/${b}`).toBeGreaterThanOrEqual(15);
        }
      }
    });
  }
});

describe('the player colours', () => {
  it('are ten, and any colour index maps into them', () => {
    expect(PLAYER_COLORS).toHaveLength(10);
    expect(playerColor(0)).toBe(PLAYER_COLORS[0]);
    expect(playerColor(9)).toBe(PLAYER_COLORS[9]);
    expect(playerColor(10)).toBe(PLAYER_COLORS[0]);
    expect(playerColor(-1)).toBe(PLAYER_COLORS[9]);
    expect(playerColor(Number.NaN)).toBe(PLAYER_COLORS[0]);
  });

  for (const scheme of SCHEMES) {
    // what avatars, rings and chips lie on (`emphasized` is a hover state, not a surface)
    const surfaces = [SURFACES.bg, SURFACES.subtle, SURFACES.muted, SURFACES.panel].map((s) => s[scheme]);

    it(`have their text at WCAG AA and show as a ring or badge on every surface, ${scheme}`, () => {
      for (const c of PLAYER_COLORS) {
        const { bg, fg }: Swatch = c[scheme];
        expect(contrast(fg, bg), `${c.name}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
        for (const surface of surfaces) expect(contrast(bg, surface), `${c.name}: ${bg} on ${surface}`).toBeGreaterThanOrEqual(3);
      }
    });

    for (const vision of VISIONS) {
      it(`stay apart for ${vision}, ${scheme}`, () => {
        const { d, pair } = closestPair(
          PLAYER_COLORS.map((c) => c[scheme].bg),
          vision,
        );
        expect(d, pair).toBeGreaterThanOrEqual(MIN_PLAYER_DISTANCE);
      });
    }
  }

  it('the check is not a formality: a plain rainbow of ten fails it', () => {
    const rainbow = ['#cc2827', '#c9690c', '#8e710f', '#4a710a', '#095c34', '#117878', '#0d7cb6', '#153bb7', '#7a31ca', '#d13d91'];
    expect(closestPair(rainbow, 'normal').d).toBeGreaterThanOrEqual(MIN_PLAYER_DISTANCE);
    expect(closestPair(rainbow, 'deuteranopia').d).toBeLessThan(MIN_PLAYER_DISTANCE);
    expect(closestPair(rainbow, 'protanopia').d).toBeLessThan(MIN_PLAYER_DISTANCE);
  });
});
