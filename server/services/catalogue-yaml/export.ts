import type { Db } from '../../db/index.ts';
import type { HistoryRow } from './rows.ts';
import { foldWord, queryWords, textTerms, type HitSearchIndex } from '../search.ts';
import { NEEDS_ESCAPES, yamlScalar } from './scalars.ts';

/**
 * The export of the catalogue as a `hits.yml` (docs/api.md#hits-yml): byte-stable,
 * so the same catalogue always gives the same file, and an export imported into
 * an empty database exports the same bytes again.
 */

/** The export filter: the search's `query` and `packs` (docs/api.md#b7: packs OR, "" = hits without packs). */
export interface ExportFilter {
  query?: string | undefined;
  packs?: readonly string[] | undefined;
}

/** A hit as the file holds it. */
export interface ExportHit {
  id: string;
  artist: string;
  title: string;
  belongs_to: string;
  year: number;
  packs: readonly string[];
  playback_offset: number;
  yt_id: string | null;
  last_modified: string;
  /** The year changes, oldest first (absent or empty: no `history:` key). */
  history?: readonly HistoryRow[];
}

export interface ExportPack {
  id: string;
  name: string;
  last_modified: string;
}

const cmpText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0x85;

/**
 * Natural, case-sensitive order (the reference server's writer uses natord): white space is
 * skipped, runs of digits compare by their numeric value (`9` < `10`; with equal
 * values, fewer leading zeros first), everything else by code point, so capitals
 * sort before small letters. Strings that compare equal this way ("a b" and "ab")
 * fall back to plain code-unit order, so this is a total order and a sort by it
 * does not depend on the input order.
 */
export function naturalCompare(a: string, b: string): number {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && isSpace(a.charCodeAt(i))) i++;
    while (j < b.length && isSpace(b.charCodeAt(j))) j++;
    if (i >= a.length || j >= b.length) {
      if (i < a.length) return 1;
      if (j < b.length) return -1;
      break;
    }
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (isDigit(ca) && isDigit(cb)) {
      let ea = i;
      while (ea < a.length && isDigit(a.charCodeAt(ea))) ea++;
      let eb = j;
      while (eb < b.length && isDigit(b.charCodeAt(eb))) eb++;
      let za = i;
      while (za < ea - 1 && a.charCodeAt(za) === 48) za++;
      let zb = j;
      while (zb < eb - 1 && b.charCodeAt(zb) === 48) zb++;
      // numeric value: more significant digits win, then the first differing digit
      if (ea - za !== eb - zb) return ea - za - (eb - zb);
      for (let k = 0; k < ea - za; k++) {
        const d = a.charCodeAt(za + k) - b.charCodeAt(zb + k);
        if (d !== 0) return d;
      }
      if (za - i !== zb - j) return za - i - (zb - j);
      i = ea;
      j = eb;
      continue;
    }
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A pack name as a YAML comment: on one line whatever it holds (every reader ignores it; it only helps people). */
const commentText = (name: string): string => name.replace(new RegExp(NEEDS_ESCAPES.source, 'g'), '\uFFFD');

/** The sort key of a hit in the file (docs/api.md#hits-yml). */
const hitSortKey = (h: ExportHit): string => `${h.artist} ${h.title} ${h.year} ${h.belongs_to}`;

/**
 * Writes a `hits.yml` (docs/api.md#hits-yml): hits sorted by natural, case-sensitive
 * order of "artist title year belongs_to" (ties by id), their pack ids ascending,
 * then the packs sorted by natural order of name (ties by id). Keys in the
 * reference writer's order; `yt_id` is left out for a hit without one. The same
 * input always gives the same bytes. Unlike the reference writer, each pack id of
 * a hit is followed by the pack's name as a comment (`- 3f2c… # Seventies`), so a
 * person reading or editing the file sees which packs a hit is in; every YAML
 * reader (the reference server's too) skips comments, so the data is the same.
 */
export function formatHitsYaml(hits: readonly ExportHit[], packs: readonly ExportPack[]): string {
  const keyed = hits.map((h) => ({ h, key: hitSortKey(h) }));
  keyed.sort((a, b) => naturalCompare(a.key, b.key) || (a.h.id < b.h.id ? -1 : a.h.id > b.h.id ? 1 : 0));
  const sortedPacks = [...packs].sort((a, b) => naturalCompare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const packNames = new Map(packs.map((p) => [p.id, p.name]));
  const out: string[] = [];
  if (keyed.length === 0) out.push('hits: []');
  else out.push('hits:');
  for (const { h } of keyed) {
    out.push(`- artist: ${yamlScalar(h.artist)}`, `  title: ${yamlScalar(h.title)}`, `  belongs_to: ${yamlScalar(h.belongs_to)}`, `  year: ${h.year}`);
    const ids = [...h.packs].sort();
    if (ids.length === 0) out.push('  packs: []');
    else {
      out.push('  packs:');
      for (const p of ids) {
        const name = packNames.get(p);
        out.push(name === undefined ? `  - ${yamlScalar(p)}` : `  - ${yamlScalar(p)} # ${commentText(name)}`);
      }
    }
    out.push(`  playback_offset: ${h.playback_offset}`, `  id: ${yamlScalar(h.id)}`);
    if (h.yt_id !== null) out.push(`  yt_id: ${yamlScalar(h.yt_id)}`);
    out.push(`  last_modified: ${yamlScalar(h.last_modified)}`);
    if (h.history?.length) {
      out.push('  history:');
      for (const c of h.history) {
        const by = c.by === null ? 'null' : yamlScalar(c.by);
        out.push(`  - at: ${yamlScalar(c.at)}`, `    from: ${c.from ?? 'null'}`, `    to: ${c.to}`, `    by: ${by}`, `    reason: ${yamlScalar(c.reason)}`);
      }
    }
  }
  if (sortedPacks.length === 0) out.push('packs: []');
  else out.push('packs:');
  for (const p of sortedPacks) out.push(`- id: ${yamlScalar(p.id)}`, `  name: ${yamlScalar(p.name)}`, `  last_modified: ${yamlScalar(p.last_modified)}`);
  return `${out.join('\n')}\n`;
}

/**
 * The text filter used when no search index is given: every word of the query
 * must start a word of the title, artist or belongs_to, with case and Latin
 * diacritics ignored (the search's own word rules, without its typo tolerance).
 */
function textMatcher(query: string): ((h: { title: string; artist: string; belongs_to: string }) => boolean) | null {
  const words = queryWords(query).map(foldWord);
  if (words.length === 0) return null;
  return (h) => {
    const terms = [...textTerms(h.title), ...textTerms(h.artist), ...textTerms(h.belongs_to)];
    return words.every((w) => terms.some((t) => t.startsWith(w)));
  };
}

/** Options of {@link exportHitsYaml}. */
export interface ExportOptions {
  /**
   * The catalogue search; when given, the query matches exactly as in
   * `GET /api/hits/search` (typo tolerance included). Without it a prefix match
   * on the same words is used.
   */
  search?: Pick<HitSearchIndex, 'search'> | undefined;
}

/**
 * Exports the hits matching `filter` and the packs they reference as a `hits.yml`
 * ({@link formatHitsYaml}); `last_modified` is each row's `updated_at`.
 */
export async function exportHitsYaml(db: Db, filter: ExportFilter = {}, options: ExportOptions = {}): Promise<{ text: string; hits: number; packs: number }> {
  const query = filter.query ?? '';
  let ids: Set<string> | null = null;
  if (options.search && queryWords(query).length > 0) {
    const found = await options.search.search({ query, packs: filter.packs, sortBy: null, offset: 0, limit: null });
    ids = new Set(found.hits.map((h) => h.id));
  }
  const hitRows = await db
    .selectFrom('hits')
    .select(['id', 'title', 'artist', 'year', 'belongs_to', 'yt_id', 'playback_offset', 'updated_at'])
    .orderBy('id')
    .execute();
  const links = await db.selectFrom('hit_packs').select(['hit_id', 'pack_id']).execute();
  const packsOf = new Map<string, string[]>();
  for (const l of links) {
    const list = packsOf.get(l.hit_id);
    if (list) list.push(l.pack_id);
    else packsOf.set(l.hit_id, [l.pack_id]);
  }
  const historyOf = new Map<string, HistoryRow[]>();
  const changes = await db.selectFrom('hit_history').select(['hit_id', 'at', 'from_year', 'to_year', 'by_name', 'reason']).execute();
  for (const c of changes) {
    const row: HistoryRow = { at: c.at, from: c.from_year === null ? null : Number(c.from_year), to: Number(c.to_year), by: c.by_name, reason: c.reason };
    const list = historyOf.get(c.hit_id);
    if (list) list.push(row);
    else historyOf.set(c.hit_id, [row]);
  }
  // oldest first, and byte-stable: rows of one instant by their content
  for (const list of historyOf.values()) list.sort((a, b) => cmpText(a.at, b.at) || cmpText(JSON.stringify(a), JSON.stringify(b)));
  const wanted = filter.packs ? new Set(filter.packs) : null;
  const matches = ids === null ? textMatcher(query) : null;
  const hits: ExportHit[] = [];
  for (const r of hitRows) {
    if (ids !== null && !ids.has(r.id)) continue;
    const packs = packsOf.get(r.id) ?? [];
    if (wanted !== null && !(packs.length === 0 ? wanted.has('') : packs.some((p) => wanted.has(p)))) continue;
    if (matches !== null && !matches(r)) continue;
    hits.push({ id: r.id, artist: r.artist, title: r.title, belongs_to: r.belongs_to, year: r.year, packs, playback_offset: r.playback_offset, yt_id: r.yt_id, last_modified: r.updated_at, history: historyOf.get(r.id) ?? [] });
  }
  const used = new Set(hits.flatMap((h) => h.packs));
  const packRows = used.size === 0 ? [] : await db.selectFrom('packs').select(['id', 'name', 'updated_at']).execute();
  const packs = packRows.filter((p) => used.has(p.id)).map((p) => ({ id: p.id, name: p.name, last_modified: p.updated_at }));
  return { text: formatHitsYaml(hits, packs), hits: hits.length, packs: packs.length };
}
