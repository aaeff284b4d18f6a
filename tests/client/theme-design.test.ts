import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEME_CSS_PATH } from '../../client/src/theme-css.ts';
import { ACCENT_SCALE, DESIGN_FONTS, designSemanticColors, NEUTRALS, SURFACES } from '../../client/src/theme-design.ts';
import { contrast } from './colour.ts';

/**
 * Hitline's own look (theme-design.ts): its colour pairs meet WCAG AA in both
 * schemes, and its display face is self-hosted, woff2 only, swapped in without
 * delaying the first paint.
 */

const root = join(import.meta.dirname, '..', '..');
type Scheme = 'light' | 'dark';
const semantic = designSemanticColors() as unknown as Record<string, Record<string, { value: { _light: string; _dark: string } }>>;

/** A colour value of the design as hex: a raw colour, or a `{colors.…}` reference to the neutrals or the accent's scale. */
function resolve(value: string): string {
  if (value.startsWith('#')) return value;
  const ref = /^\{colors\.(gray|accent|white|black)(?:\.(\d+))?\}$/.exec(value);
  if (!ref) throw new Error(`cannot resolve ${value}`);
  const [, palette, step] = ref;
  if (palette === 'white') return '#ffffff';
  if (palette === 'black') return '#000000';
  const scale: Record<string, string> = palette === 'gray' ? NEUTRALS : ACCENT_SCALE;
  const hex = scale[step ?? ''];
  if (!hex) throw new Error(`no ${value}`);
  return hex;
}

/** A semantic colour (`fg.muted`, `accent.solid`, `bg`) in one scheme. */
function color(path: string, scheme: Scheme): string {
  const [group, key = 'DEFAULT'] = path.split('.') as [string, string?];
  const token = semantic[group]?.[key];
  if (!token) throw new Error(`no semantic colour ${path}`);
  return resolve(scheme === 'light' ? token.value._light : token.value._dark);
}

const SURFACE_NAMES = ['bg', 'bg.subtle', 'bg.muted', 'bg.panel'] as const;

describe('the design palette', () => {
  it('has the surfaces it documents', () => {
    for (const scheme of ['light', 'dark'] as const) {
      expect(color('bg', scheme)).toBe(SURFACES.bg[scheme]);
      expect(color('bg.panel', scheme)).toBe(SURFACES.panel[scheme]);
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`sets text at WCAG AA on every surface, ${scheme}`, () => {
      for (const surface of SURFACE_NAMES) {
        const bg = color(surface, scheme);
        for (const text of ['fg', 'fg.muted', 'accent.fg']) {
          expect(contrast(color(text, scheme), bg), `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    });

    it(`makes the accent's buttons, badges and focus ring readable, ${scheme}`, () => {
      expect(contrast(color('accent.contrast', scheme), color('accent.solid', scheme)), 'button text').toBeGreaterThanOrEqual(4.5);
      expect(contrast(color('accent.fg', scheme), color('accent.subtle', scheme)), 'subtle badge').toBeGreaterThanOrEqual(4.5);
      expect(contrast(color('fg', scheme), color('accent.subtle', scheme)), 'text on a highlighted row').toBeGreaterThanOrEqual(4.5);
      for (const surface of SURFACE_NAMES) {
        // WCAG 1.4.11: the focus ring and a solid button's edge against what they lie on
        expect(contrast(color('accent.focusRing', scheme), color(surface, scheme)), `focus ring on ${surface}`).toBeGreaterThanOrEqual(3);
        expect(contrast(color('accent.solid', scheme), color(surface, scheme)), `solid on ${surface}`).toBeGreaterThanOrEqual(3);
      }
    });
  }
});

describe('the display face', () => {
  const fontsCss = readFileSync(join(root, 'client', 'src', 'theme-fonts.css'), 'utf8');
  const faces = [...fontsCss.matchAll(/@font-face\s*\{([^}]*)\}/g)].map((m) => m[1] ?? '');

  it('is the theme heading face, over a metric-matched local fallback', () => {
    expect(DESIGN_FONTS.heading.value).toMatch(/^'Bricolage Grotesque', 'Bricolage Grotesque Fallback', /);
    expect(readFileSync(THEME_CSS_PATH, 'utf8')).toContain("--chakra-fonts-heading:'Bricolage Grotesque','Bricolage Grotesque Fallback'");
    // text stays in the system sans
    expect(DESIGN_FONTS.body.value).not.toMatch(/Bricolage|Inter/);
  });

  it('is self-hosted woff2 from the npm package, Latin and Latin Extended only, swapped in', () => {
    const remote = faces.filter((f) => f.includes("'Bricolage Grotesque';"));
    expect(remote).toHaveLength(2);
    for (const face of remote) {
      expect(face).toMatch(/font-display:\s*swap/);
      expect(face).toMatch(/unicode-range:/);
      const urls = [...face.matchAll(/url\('([^']+)'\)/g)].map((m) => m[1] ?? '');
      expect(urls).toHaveLength(1);
      for (const url of urls) {
        expect(url).toMatch(/^@fontsource\/bricolage-grotesque\/files\/bricolage-grotesque-latin(?:-ext)?-800-normal\.woff2$/);
        expect(existsSync(join(root, 'node_modules', url)), url).toBe(true);
      }
    }
    // nothing from another host, and no other format
    expect(fontsCss).not.toMatch(/https?:|\/\/|\.woff\)|\.ttf|\.otf/);
    // the fallback is local only
    const fallback = faces.find((f) => f.includes("'Bricolage Grotesque Fallback'")) ?? '';
    expect(fallback).toMatch(/size-adjust/);
    expect(fallback).not.toMatch(/url\(/);
  });

  it('is loaded with the app, never before the first paint: the static shell neither uses nor preloads it', () => {
    expect(readFileSync(join(root, 'client', 'src', 'main.tsx'), 'utf8')).toContain("import './theme-fonts.css';");
    const html = readFileSync(join(root, 'client', 'index.html'), 'utf8');
    expect(html).not.toMatch(/preload|woff2|fonts\.googleapis|Bricolage/);
    expect(readFileSync(join(root, 'client', 'src', 'theme-shell.css'), 'utf8')).not.toMatch(/font-family|fonts-heading/);
  });
});
