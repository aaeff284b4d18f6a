/**
 * Gives the demo catalogue (assets/demo-hits.yml) the YouTube ids and playback
 * offsets of its songs, taken from another catalogue in the hits.yml format:
 * the original Hitster server's (GPL-3.0, credited in the README), whose file
 * sits beside the repository as ../shared/data/original-hits.yml.
 *
 *   node scripts/demo-youtube.ts [catalogue.yml]
 *
 * A demo hit takes a catalogue hit's id and offset when their titles are the
 * same (letters and digits only, accents and bracketed parts dropped, case
 * ignored) and their artists share a word ("Beyoncé feat. Jay-Z" is "Beyoncé,
 * JAY-Z"); among several, the one with the same artist spelling, then the
 * nearest year. A demo hit without a match keeps no id (a card only). Only
 * `yt_id` and `playback_offset` change; the rest of the file stays as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const DEMO = join(ROOT, 'assets', 'demo-hits.yml');
const source = process.argv[2] ?? join(ROOT, '..', 'shared', 'data', 'original-hits.yml');

interface Row {
  artist: string;
  title: string;
  year: number;
  yt_id?: string;
  playback_offset?: number;
}

const plain = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
const titleKey = (s: string): string => plain(s.replace(/\(.*?\)/g, '')).replace(/[^a-z0-9]+/g, '');
const NOT_NAMES = new Set(['feat', 'ft', 'the', 'and', 'with', 'x']);
const artistWords = (s: string): Set<string> => new Set(plain(s).split(/[^a-z0-9]+/).filter((w) => w && !NOT_NAMES.has(w)));

const catalogue = (parse(readFileSync(source, 'utf8')) as { hits: Row[] }).hits.filter((h) => typeof h.yt_id === 'string' && /^[\w-]{11}$/.test(h.yt_id));
const byTitle = new Map<string, Row[]>();
for (const h of catalogue) byTitle.set(titleKey(h.title), [...(byTitle.get(titleKey(h.title)) ?? []), h]);

function match(demo: Row): Row | undefined {
  const words = artistWords(demo.artist);
  const found = (byTitle.get(titleKey(demo.title)) ?? []).filter((h) => [...artistWords(h.artist)].some((w) => words.has(w)));
  const same = (h: Row): number => (plain(h.artist) === plain(demo.artist) ? 0 : 1);
  return found.sort((a, b) => same(a) - same(b) || Math.abs(a.year - demo.year) - Math.abs(b.year - demo.year))[0];
}

// the file is edited line by line, so its layout, quoting and comments stay
const text = readFileSync(DEMO, 'utf8');
const demo = (parse(text) as { hits: Row[] }).hits;
const blocks = text.split(/\n(?=- artist:)/);
const head = blocks.shift() ?? '';
if (blocks.length !== demo.length) throw new Error(`${DEMO}: ${blocks.length} blocks for ${demo.length} hits`);
let found = 0;
const out = blocks.map((block, i) => {
  const hit = demo[i] as Row;
  const m = match(hit);
  const lines = block.split('\n').filter((l) => !l.startsWith('  yt_id:'));
  const at = lines.findIndex((l) => l.startsWith('  playback_offset:'));
  if (at < 0) throw new Error(`${DEMO}: no playback_offset for ${hit.artist} – ${hit.title}`);
  if (!m) {
    lines[at] = '  playback_offset: 0';
    return lines.join('\n');
  }
  found++;
  lines[at] = `  playback_offset: ${m.playback_offset ?? 0}`;
  // after the id, where the export writes it
  const id = lines.findIndex((l) => l.startsWith('  id:'));
  lines.splice(id + 1, 0, `  yt_id: '${m.yt_id}'`);
  return lines.join('\n');
});
writeFileSync(DEMO, [head, ...out].join('\n'));
console.log(`${found} of ${demo.length} demo hits have a YouTube id (${source})`);
