// A hit's year history in hits.yml (docs/api.md#hits-yml, docs/disputes.md#reports):
// the export writes it under each hit, the import adds the rows a database does not
// have yet (twice the same file adds nothing), a changed year adds a row "import",
// and bad history rows are rejected with their reasons.
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openDatabase, type Db } from '../../server/db/index.ts';
import { createLogger } from '../../server/logger.ts';
import { CatalogueService } from '../../server/services/catalogue.ts';
import { importHitsYaml } from '../../server/services/catalogue-yaml/apply.ts';
import { exportHitsYaml } from '../../server/services/catalogue-yaml/export.ts';
import { parseHitsYaml } from '../../server/services/catalogue-yaml/validate.ts';

const dbs: Db[] = [];
async function freshDb(): Promise<Db> {
  const db = await openDatabase(':memory:');
  dbs.push(db);
  return db;
}
afterAll(async () => {
  for (const db of dbs) await db.destroy();
});

const u = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const P = (n: number) => u(n, 'aaaaaaaa');
const H = (n: number) => u(n, 'bbbbbbbb');
const TS = '2025-07-24T09:31:10.506Z';

const FILE = `hits:
- artist: ABBA
  title: Waterloo
  belongs_to: ''
  year: 1974
  packs:
  - ${P(1)}
  playback_offset: 0
  id: ${H(1)}
  last_modified: '${TS}'
- artist: Queen
  title: Bohemian Rhapsody
  belongs_to: ''
  year: 1975
  packs: []
  playback_offset: 0
  id: ${H(2)}
  last_modified: '${TS}'
packs:
- id: ${P(1)}
  name: Seventies
  last_modified: '${TS}'
`;

const log = createLogger('silent');

/** Every history row, as the history shows it, by hit. */
async function historyRows(db: Db) {
  const rows = await db.selectFrom('hit_history').select(['hit_id', 'at', 'from_year', 'to_year', 'by_name', 'reason']).orderBy('hit_id').orderBy('at').orderBy('reason').execute();
  return rows.map((r) => ({ ...r, from_year: r.from_year === null ? null : Number(r.from_year), to_year: Number(r.to_year) }));
}

describe('year history in hits.yml', () => {
  it('exports each hit\'s history, and an import into an empty database brings it back byte for byte; twice adds nothing', async () => {
    const a = await freshDb();
    expect((await importHitsYaml(a, FILE, { apply: true })).applied).toBe(true);
    // a file without history stays without history
    expect((await exportHitsYaml(a)).text).not.toContain('history');
    const catalogue = new CatalogueService(a, log);
    expect(await catalogue.setYear(H(1), 1973, { by: 'Curator', reason: 'the single came out in 1973' })).toBe(true);
    expect(await catalogue.setYear(H(1), 1974, { by: null, reason: 'report accepted' })).toBe(true);
    const exported = (await exportHitsYaml(a)).text;
    const abba = (parse(exported) as { hits: { title: string; history?: unknown[] }[] }).hits.find((h) => h.title === 'Waterloo')!;
    expect(abba.history).toEqual([
      { at: expect.any(String), from: 1974, to: 1973, by: 'Curator', reason: 'the single came out in 1973' },
      { at: expect.any(String), from: 1973, to: 1974, by: null, reason: 'report accepted' },
    ]);
    // the layout: a list under the hit, after last_modified
    expect(exported).toMatch(/ {2}last_modified: '[^']+'\n {2}history:\n {2}- at: '[^']+'\n {4}from: 1974\n {4}to: 1973\n {4}by: Curator\n {4}reason: the single came out in 1973\n/);

    const b = await freshDb();
    expect((await importHitsYaml(b, exported, { apply: true })).applied).toBe(true);
    expect(await historyRows(b)).toEqual(await historyRows(a));
    expect((await exportHitsYaml(b)).text).toBe(exported);
    expect((await importHitsYaml(b, exported, { apply: true })).applied).toBe(true);
    expect(await historyRows(b)).toEqual(await historyRows(a));
  });

  it('an import that changes a year adds a row "import" naming the importer, besides the file\'s rows', async () => {
    const db = await freshDb();
    expect((await importHitsYaml(db, FILE, { apply: true })).applied).toBe(true);
    const changed = FILE.replace('year: 1975', 'year: 1976').replace(
      `  id: ${H(2)}\n  last_modified: '${TS}'\n`,
      `  id: ${H(2)}\n  last_modified: '${TS}'\n  history:\n  - at: '2020-01-01T00:00:00.000Z'\n    from: null\n    to: 1975\n    by: null\n    reason: created\n`,
    );
    const report = await importHitsYaml(db, changed, { apply: true, by: 'Importer', now: '2026-02-02T00:00:00.000Z' });
    expect(report.summary.hits).toMatchObject({ changed: 1, unchanged: 1 });
    expect(await historyRows(db)).toEqual([
      { hit_id: H(2), at: '2020-01-01T00:00:00.000Z', from_year: null, to_year: 1975, by_name: null, reason: 'created' },
      { hit_id: H(2), at: '2026-02-02T00:00:00.000Z', from_year: 1975, to_year: 1976, by_name: 'Importer', reason: 'import' },
    ]);
    // the same file again: the year is the file's, the history row known: nothing new
    await importHitsYaml(db, changed, { apply: true, by: 'Importer' });
    expect(await historyRows(db)).toHaveLength(2);
    // a dry run writes no history
    const other = await freshDb();
    await importHitsYaml(other, changed);
    expect(await historyRows(other)).toEqual([]);
  });

  it('rejects a hit whose history is not a list of year changes, with every reason', async () => {
    const bad = FILE.replace(
      `  id: ${H(2)}\n  last_modified: '${TS}'\n`,
      `  id: ${H(2)}\n  last_modified: '${TS}'\n  history:\n  - at: yesterday\n    from: 0\n    to: 1975\n    by: ''\n    reason: ''\n  - 7\n`,
    );
    const parsed = await parseHitsYaml(bad);
    expect(parsed.hits.map((h) => h.title)).toEqual(['Waterloo']);
    expect(parsed.rejectedHits).toHaveLength(1);
    expect(parsed.rejectedHits[0]!.reasons).toEqual([
      'history[0]: at must be an RFC 3339 date and time (like 2025-07-24T09:31:10.506Z), not "yesterday"',
      expect.stringMatching(/^history\[0\]: from must be a whole number from 1 to \d+ \(the current year\), not 0$/),
      'history[0]: by must be a name of 1 to 80 characters or null, not ""',
      'history[0]: reason must be a text of 1 to 500 characters, not ""',
      'history[1] must be a mapping of at, from, to, by and reason, not a number',
    ]);
    const db = await freshDb();
    expect((await importHitsYaml(db, bad, { apply: true })).applied).toBe(false);
    expect(await historyRows(db)).toEqual([]);
    const notList = await parseHitsYaml(FILE.replace(`  id: ${H(2)}\n`, `  id: ${H(2)}\n  history: often\n`));
    expect(notList.rejectedHits[0]!.reasons).toEqual(['history must be a list of year changes, not a string']);
  });
});
