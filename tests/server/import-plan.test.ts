// The import's diff (server/services/catalogue-yaml/plan.ts): a checked file against
// the current catalogue, as plain data, without a database. The end-to-end behaviour
// (file text → database) is in hits-yaml.test.ts.
import { describe, expect, it } from 'vitest';
import { MAX_REPORTED_ROWS, PACKS_NEED_PERMISSION, plan, type CurrentCatalogue, type CurrentHit } from '../../server/services/catalogue-yaml/plan.ts';
import type { HitRow, PackRow, ParsedHitsFile } from '../../server/services/catalogue-yaml/rows.ts';
import { ImportReportSchema } from '../../shared/protocol/catalogue.ts';

const u = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const P = (n: number) => u(n, 'aaaaaaaa');
const H = (n: number) => u(n, 'bbbbbbbb');

/** A valid hit row (its index and line are set by {@link file}). */
const hitRow = (n: number, over: Partial<HitRow> = {}): HitRow => ({
  index: 0,
  line: 0,
  id: H(n),
  idGiven: true,
  artist: `Artist ${n}`,
  title: `Title ${n}`,
  belongs_to: '',
  year: 1990,
  packs: [],
  playback_offset: 0,
  yt_id: null,
  last_modified: null,
  history: [],
  ...over,
});
const packRow = (n: number, name = `Pack ${n}`): PackRow => ({ index: 0, line: 0, id: P(n), name, last_modified: null });

/** A checked file: rows numbered in order, hits from line 2 (10 lines each), packs after them (3 lines each). */
function file(hits: HitRow[], packs: PackRow[] = [], rest: Partial<ParsedHitsFile> = {}): ParsedHitsFile {
  const packsAt = 3 + hits.length * 10;
  return {
    errors: [],
    hits: hits.map((h, index) => ({ ...h, index, line: 2 + index * 10 })),
    packs: packs.map((p, index) => ({ ...p, index, line: packsAt + index * 3 })),
    rejectedHits: [],
    rejectedPacks: [],
    ...rest,
  };
}

const dbHit = (n: number, over: Partial<CurrentHit> = {}): CurrentHit => ({
  id: H(n),
  artist: `Artist ${n}`,
  title: `Title ${n}`,
  belongs_to: '',
  year: 1990,
  packs: [],
  playback_offset: 0,
  yt_id: null,
  ...over,
});
const dbPack = (n: number, name = `Pack ${n}`) => ({ id: P(n), name });
const EMPTY: CurrentCatalogue = { hits: [], packs: [] };

const counts = (added: number, changed: number, unchanged: number, rejected: number) => ({ added, changed, unchanged, rejected });

describe('plan: matching and changes', () => {
  it('adds every row to an empty catalogue, with the pack links to write', () => {
    const { report, ops } = plan(EMPTY, file([hitRow(1, { packs: [P(1), P(2)] }), hitRow(2)], [packRow(1), packRow(2)]));
    expect(report).toMatchObject({ ok: true, applied: false, errors: [], truncated: false, summary: { hits: counts(2, 0, 0, 0), packs: counts(2, 0, 0, 0) } });
    expect(report.message).toBe('hits: 2 added, 0 changed, 0 unchanged, 0 rejected; packs: 2 added, 0 changed, 0 unchanged, 0 rejected; dry run: nothing was written');
    expect(report.hits.added).toEqual([
      { index: 0, line: 2, id: H(1), artist: 'Artist 1', title: 'Title 1', year: 1990 },
      { index: 1, line: 12, id: H(2), artist: 'Artist 2', title: 'Title 2', year: 1990 },
    ]);
    expect(report.packs.added).toEqual([
      { index: 0, line: 23, id: P(1), name: 'Pack 1' },
      { index: 1, line: 26, id: P(2), name: 'Pack 2' },
    ]);
    expect(ops.addHits.map((h) => h.id)).toEqual([H(1), H(2)]);
    expect(ops.addPacks.map((p) => p.id)).toEqual([P(1), P(2)]);
    expect(ops.addHitPacks).toEqual(new Map([[H(1), [P(1), P(2)]], [H(2), []]]));
    expect(ops.changeHits).toEqual([]);
    expect(ops.renamePacks).toEqual([]);
    expect(ImportReportSchema.parse(report)).toEqual(report);
  });

  it('lists the changed fields in a fixed order with both values, compares packs as a set, and counts the rest unchanged', () => {
    const current = { hits: [dbHit(1, { packs: [P(2), P(1)] }), dbHit(2, { packs: [P(1)] }), dbHit(3, { yt_id: 'aaaaaaaaaaa' })], packs: [dbPack(1), dbPack(2)] };
    const rows = [
      hitRow(1, { packs: [P(1), P(2)] }), // same packs in another order
      hitRow(2, { title: 'New title', year: 1991, packs: [P(1), P(2)], playback_offset: 4 }),
      hitRow(3, { yt_id: 'bbbbbbbbbbb', belongs_to: 'Film' }),
    ];
    const { report, ops } = plan(current, file(rows, [packRow(1), packRow(2)]));
    expect(report.summary).toEqual({ hits: counts(0, 2, 1, 0), packs: counts(0, 0, 2, 0) });
    expect(report.hits.changed).toEqual([
      {
        index: 1,
        line: 12,
        id: H(2),
        artist: 'Artist 2',
        title: 'New title',
        year: 1991,
        matched_by: 'id',
        changes: [
          { field: 'title', before: 'Title 2', after: 'New title' },
          { field: 'year', before: 1990, after: 1991 },
          { field: 'packs', before: [P(1)], after: [P(1), P(2)] },
          { field: 'playback_offset', before: 0, after: 4 },
        ],
      },
      expect.objectContaining({
        id: H(3),
        changes: [
          { field: 'belongs_to', before: '', after: 'Film' },
          { field: 'yt_id', before: 'aaaaaaaaaaa', after: 'bbbbbbbbbbb' },
        ],
      }),
    ]);
    expect(ops.changeHits.map((c) => [c.id, [...c.fields], c.packs])).toEqual([
      [H(2), ['title', 'year', 'packs', 'playback_offset'], [P(1), P(2)]],
      [H(3), ['belongs_to', 'yt_id'], []],
    ]);
    expect(ops.addHits).toEqual([]);
  });

  it('matches a row with an unknown id by its yt_id (reporting the file id only when the file gave one)', () => {
    const current = { hits: [dbHit(1, { yt_id: 'video000001' }), dbHit(2, { yt_id: 'video000002' })], packs: [] };
    const rows = [hitRow(50, { yt_id: 'video000001', title: 'Renamed' }), hitRow(51, { idGiven: false, yt_id: 'video000002', title: 'Also renamed' })];
    const { report, ops } = plan(current, file(rows));
    expect(report.hits.changed.map((c) => [c.id, c.matched_by, c.file_id])).toEqual([
      [H(1), 'yt_id', H(50)],
      [H(2), 'yt_id', undefined],
    ]);
    expect(report.hits.changed[1]).not.toHaveProperty('file_id');
    // the row is written over the database's hit, which games and audio refer to
    expect(ops.changeHits.map((c) => [c.id, c.row.id])).toEqual([
      [H(1), H(50)],
      [H(2), H(51)],
    ]);
  });

  it('matches by id before yt_id: a yt_id whose hit is in the file under another one goes to a new hit', () => {
    const current = { hits: [dbHit(1, { yt_id: 'video000001' })], packs: [] };
    const rows = [hitRow(2, { yt_id: 'video000001' }), hitRow(1, { yt_id: 'video000009' })];
    const { report } = plan(current, file(rows));
    expect(report.ok).toBe(true);
    expect(report.hits.added.map((h) => h.id)).toEqual([H(2)]);
    expect(report.hits.changed.map((c) => [c.id, c.matched_by, c.changes])).toEqual([[H(1), 'id', [{ field: 'yt_id', before: 'video000001', after: 'video000009' }]]]);
  });

  it('refuses a yt_id that stays with a database hit the file leaves alone', () => {
    const current = { hits: [dbHit(1, { yt_id: 'video000001' }), dbHit(2, { yt_id: 'video000002' })], packs: [] };
    const rows = [hitRow(1, { yt_id: 'video000002' }), hitRow(3, { idGiven: false, yt_id: 'video000001', title: 'Taken' })];
    const { report, ops } = plan(current, file(rows));
    expect(report.ok).toBe(false);
    expect(report.message).toMatch(/; rejected rows; nothing was written$/);
    expect(report.hits.rejected).toEqual([
      { index: 0, line: 2, id: H(1), label: 'Artist 1 – Title 1', reasons: [`yt_id video000002 is already used by hit ${H(2)} ("Artist 2 – Title 2") in the database`] },
    ]);
    // row 1 may take hit 1's yt_id: hit 1 is in the file (row 0, even refused), matched by its id
    expect(report.hits.added.map((h) => h.title)).toEqual(['Taken']);
    expect(ops.changeHits).toEqual([]);
  });

  it('matches a pack with an unknown id by its name, ignoring case, and maps the hits that name it', () => {
    const current = { hits: [dbHit(1, { packs: [P(1)] })], packs: [dbPack(1, 'Seventies')] };
    const { report, ops } = plan(current, file([hitRow(1, { packs: [P(70)] }), hitRow(2, { packs: [P(70)] })], [packRow(70, 'SEVENTIES')]));
    expect(report.packs.changed).toEqual([
      { index: 0, line: 23, id: P(1), name: 'SEVENTIES', matched_by: 'name', file_id: P(70), changes: [{ field: 'name', before: 'Seventies', after: 'SEVENTIES' }] },
    ]);
    expect(report.summary.hits).toEqual(counts(1, 0, 1, 0)); // hit 1 keeps its pack under the file's id
    expect(ops.renamePacks).toEqual([{ id: P(1), name: 'SEVENTIES' }]);
    expect(ops.addPacks).toEqual([]);
    expect(ops.addHitPacks.get(H(2))).toEqual([P(1)]);
  });

  it('lets two packs swap their names, but refuses a name a pack outside the file keeps, and the hits in that pack', () => {
    const current = { hits: [], packs: [dbPack(1, 'One'), dbPack(2, 'Two'), dbPack(3, 'Three')] };
    const swapped = plan(current, file([], [packRow(1, 'two'), packRow(2, 'One')]));
    expect(swapped.report.ok).toBe(true);
    expect(swapped.ops.renamePacks).toEqual([
      { id: P(1), name: 'two' },
      { id: P(2), name: 'One' },
    ]);

    const { report, ops } = plan(current, file([hitRow(1, { packs: [P(1)] }), hitRow(2, { packs: [P(2)] })], [packRow(1, 'THREE'), packRow(2, 'Two')]));
    expect(report.packs.rejected).toEqual([{ index: 0, line: 23, id: P(1), label: 'THREE', reasons: [`name "THREE" is already used by pack ${P(3)} ("Three") in the database`] }]);
    expect(report.hits.rejected).toEqual([{ index: 0, line: 2, id: H(1), label: 'Artist 1 – Title 1', reasons: [`pack ${P(1)} is rejected (packs[0] (line 23))`] }]);
    expect(report.summary).toEqual({ hits: counts(1, 0, 0, 1), packs: counts(0, 0, 1, 1) });
    expect(ops.renamePacks).toEqual([]);
    expect(ops.addPacks).toEqual([]);
  });

  it('without the pack permission refuses rows that add or rename a pack, not those that leave it as it is', () => {
    const current = { hits: [], packs: [dbPack(1, 'One'), dbPack(2, 'Two')] };
    const { report } = plan(current, file([hitRow(1, { packs: [P(1)] })], [packRow(1, 'One'), packRow(2, 'Two renamed'), packRow(3)]), false);
    expect(report.packs.rejected.map((r) => [r.id, r.reasons])).toEqual([
      [P(2), [PACKS_NEED_PERMISSION]],
      [P(3), [PACKS_NEED_PERMISSION]],
    ]);
    expect(report.summary).toEqual({ hits: counts(1, 0, 0, 0), packs: counts(0, 0, 1, 2) });
    expect(plan(current, file([], [packRow(2, 'Two renamed')]), true).report.ok).toBe(true);
  });
});

describe('plan: the report', () => {
  it("keeps the file's rejected rows and errors, in file order with its own", () => {
    const current = { hits: [dbHit(8, { yt_id: 'video000008' }), dbHit(9, { yt_id: 'video000009' })], packs: [] };
    // row 1 could not be read; row 0 takes a yt_id that hit 9, which the file leaves alone, keeps
    const fromFile = { index: 1, line: 12, reasons: ['broken YAML: …'] };
    const parsed = file([hitRow(8, { yt_id: 'video000009' }), hitRow(2), hitRow(3)], [], { rejectedHits: [fromFile] });
    const { report } = plan(current, { ...parsed, hits: [parsed.hits[0]!, parsed.hits[2]!] });
    expect(report.hits.rejected.map((r) => [r.index, r.reasons[0]])).toEqual([
      [0, `yt_id video000009 is already used by hit ${H(9)} ("Artist 9 – Title 9") in the database`],
      [1, 'broken YAML: …'],
    ]);
    expect(report.summary.hits).toEqual(counts(1, 0, 0, 2));

    const broken = plan(EMPTY, file([], [], { errors: [{ line: 3, message: 'hits must be a list' }] })).report;
    expect(broken).toMatchObject({ ok: false, errors: [{ line: 3, message: 'hits must be a list' }] });
    expect(broken.message).toBe('hits: 0 added, 0 changed, 0 unchanged, 0 rejected; packs: 0 added, 0 changed, 0 unchanged, 0 rejected; the file cannot be read; nothing was written');
  });

  it('lists at most MAX_REPORTED_ROWS rows per list, with exact counts', () => {
    const rows = Array.from({ length: MAX_REPORTED_ROWS + 3 }, (_, i) => hitRow(i + 1));
    const { report, ops } = plan(EMPTY, file(rows));
    expect(report.hits.added).toHaveLength(MAX_REPORTED_ROWS);
    expect(report.summary.hits.added).toBe(MAX_REPORTED_ROWS + 3);
    expect(report.truncated).toBe(true);
    expect(ops.addHits).toHaveLength(MAX_REPORTED_ROWS + 3);
    expect(plan(EMPTY, file(rows.slice(0, MAX_REPORTED_ROWS))).report.truncated).toBe(false);
  });

  it('changes neither the catalogue nor the file it is given', () => {
    const current = { hits: [dbHit(1, { packs: [P(2), P(1)], yt_id: 'video000001' })], packs: [dbPack(1), dbPack(2)] };
    const parsed = file([hitRow(1, { packs: [P(1)] }), hitRow(2, { yt_id: 'video000001' })], [packRow(1, 'Renamed'), packRow(2)], { rejectedHits: [{ index: 5, line: 60, reasons: ['x'] }] });
    const before = structuredClone({ current, parsed });
    plan(current, parsed);
    expect({ current, parsed }).toEqual(before);
  });
});
