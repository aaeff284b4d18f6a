// Checks the bundled demo catalogue (assets/demo-hits.yml): the hits.yml format of
// docs/api.md#hits-yml plus the content rules for the demo data (decade packs,
// spread over the decades, YouTube ids and offsets for most songs).
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';

const FILE = new URL('../../assets/demo-hits.yml', import.meta.url);
const text = readFileSync(FILE, 'utf8');
const doc: unknown = parse(text);

const HIT_KEYS = ['artist', 'title', 'belongs_to', 'year', 'packs', 'playback_offset', 'id', 'last_modified'];
const PACK_KEYS = ['id', 'name', 'last_modified'];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FIRST_DECADE = 1950;
const LAST_DECADE = 2020;
const DECADES: number[] = [];
for (let d = FIRST_DECADE; d <= LAST_DECADE; d += 10) DECADES.push(d);
const decadeName = (decade: number): string => `${decade}s`;

// "Natural" order: digit runs compare numerically, letters by the collation rules with
// uppercase first on case-only ties. The locale is pinned to 'en' (instead of the
// machine default) so the check gives the same answer under any LANG setting.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant', caseFirst: 'upper' });

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

const root = isRec(doc) ? doc : {};
const hits: Rec[] = Array.isArray(root.hits) ? root.hits.filter(isRec) : [];
const packs: Rec[] = Array.isArray(root.packs) ? root.packs.filter(isRec) : [];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const hitLabel = (h: Rec): string => `${str(h.artist)} – ${str(h.title)}`;
const sortKey = (h: Rec): string => `${str(h.artist)} ${str(h.title)} ${String(h.year)} ${str(h.belongs_to)}`;

describe('demo catalogue assets/demo-hits.yml', () => {
  it('parses into a mapping with hits then packs', () => {
    expect(isRec(doc)).toBe(true);
    expect(Object.keys(root)).toEqual(['hits', 'packs']);
    expect(Array.isArray(root.hits)).toBe(true);
    expect(Array.isArray(root.packs)).toBe(true);
    expect(hits).toHaveLength((root.hits as unknown[]).length);
    expect(packs).toHaveLength((root.packs as unknown[]).length);
  });

  it('has enough hits, spread over every decade', () => {
    expect(hits.length).toBeGreaterThanOrEqual(250);
    const perDecade = new Map<number, number>();
    for (const h of hits) {
      const decade = Math.floor(Number(h.year) / 10) * 10;
      perDecade.set(decade, (perDecade.get(decade) ?? 0) + 1);
    }
    for (const d of DECADES) {
      expect(perDecade.get(d) ?? 0, `hits in the ${decadeName(d)}`).toBeGreaterThanOrEqual(25);
    }
  });

  it('uses the documented key order for hits and packs', () => {
    // yt_id, where a hit has one, after the id (as the export writes it)
    for (const h of hits) expect(Object.keys(h), hitLabel(h)).toEqual('yt_id' in h ? [...HIT_KEYS.slice(0, 7), 'yt_id', 'last_modified'] : HIT_KEYS);
    for (const p of packs) expect(Object.keys(p), str(p.name)).toEqual(PACK_KEYS);
  });

  it('gives most songs a YouTube id (well-formed, each once) and an offset into the song', () => {
    const ids = hits.filter((h) => 'yt_id' in h).map((h) => h.yt_id);
    expect(ids.length).toBeGreaterThanOrEqual(250);
    for (const id of ids) expect(id).toMatch(/^[\w-]{11}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // an offset only with an id (a card-only hit has nothing to play)
    for (const h of hits) if (!('yt_id' in h)) expect(h.playback_offset, hitLabel(h)).toBe(0);
    expect(hits.filter((h) => Number(h.playback_offset) > 0).length).toBeGreaterThan(50);
  });

  it('has valid, unique UUIDs for hits and packs', () => {
    const ids = [...hits.map((h) => h.id), ...packs.map((p) => p.id)];
    for (const id of ids) {
      expect(typeof id).toBe('string');
      expect(id).toMatch(UUID_V4);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has well-formed hit fields', () => {
    for (const h of hits) {
      const label = hitLabel(h);
      expect(typeof h.artist, label).toBe('string');
      expect(typeof h.title, label).toBe('string');
      expect(str(h.artist).trim(), label).not.toBe('');
      expect(str(h.title).trim(), label).not.toBe('');
      expect(str(h.artist), label).toBe(str(h.artist).trim());
      expect(str(h.title), label).toBe(str(h.title).trim());
      expect(typeof h.belongs_to, label).toBe('string');
      expect(Number.isInteger(h.year), label).toBe(true);
      expect(h.year as number, label).toBeGreaterThanOrEqual(1950);
      expect(h.year as number, label).toBeLessThanOrEqual(2026);
      expect(Number.isInteger(h.playback_offset) && (h.playback_offset as number) >= 0 && (h.playback_offset as number) < 600, label).toBe(true);
      expect(typeof h.last_modified, label).toBe('string');
      expect(Number.isNaN(Date.parse(str(h.last_modified))), label).toBe(false);
    }
    for (const p of packs) {
      expect(str(p.name).trim()).not.toBe('');
      expect(Number.isNaN(Date.parse(str(p.last_modified))), str(p.name)).toBe(false);
    }
  });

  it('has no duplicate (artist, title) pair', () => {
    const seen = new Set<string>();
    const dupes: string[] = [];
    for (const h of hits) {
      const key = `${str(h.artist).toLowerCase()}\u0000${str(h.title).toLowerCase()}`;
      if (seen.has(key)) dupes.push(hitLabel(h));
      seen.add(key);
    }
    expect(dupes).toEqual([]);
  });

  it('has one pack per decade and unique pack names', () => {
    const names = packs.map((p) => str(p.name));
    expect(new Set(names).size).toBe(names.length);
    for (const d of DECADES) expect(names).toContain(decadeName(d));
  });

  it('puts every hit in existing packs, sorted, with exactly its own decade pack', () => {
    const packName = new Map(packs.map((p) => [str(p.id), str(p.name)]));
    const decadeNames = new Set(DECADES.map(decadeName));
    for (const h of hits) {
      const label = hitLabel(h);
      expect(Array.isArray(h.packs), label).toBe(true);
      const ids = (h.packs as unknown[]).map(str);
      expect(ids.length, label).toBeGreaterThan(0);
      expect(new Set(ids).size, label).toBe(ids.length);
      // "sorted ascending": plain code-unit order of the lowercase UUID strings.
      expect(ids, label).toEqual([...ids].sort());
      for (const id of ids) expect(packName.has(id), `${label}: unknown pack ${id}`).toBe(true);
      const decadePacks = ids.map((id) => packName.get(id) ?? '').filter((n) => decadeNames.has(n));
      expect(decadePacks, label).toEqual([decadeName(Math.floor(Number(h.year) / 10) * 10)]);
    }
  });

  it('has no empty pack', () => {
    const used = new Set(hits.flatMap((h) => (Array.isArray(h.packs) ? h.packs.map(str) : [])));
    for (const p of packs) expect(used.has(str(p.id)), str(p.name)).toBe(true);
  });

  it('lists hits and packs in the documented sort order', () => {
    const outOfOrder: string[] = [];
    for (let i = 1; i < hits.length; i++) {
      const a = sortKey(hits[i - 1]!);
      const b = sortKey(hits[i]!);
      if (collator.compare(a, b) >= 0) outOfOrder.push(`${a} ≥ ${b}`);
    }
    expect(outOfOrder).toEqual([]);
    const names = packs.map((p) => str(p.name));
    expect(names).toEqual([...names].sort((a, b) => collator.compare(a, b)));
  });
});
