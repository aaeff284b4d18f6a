/**
 * Year evidence (docs/disputes.md#evidence) against local stand-ins of
 * MusicBrainz and Wikidata over real HTTP, with a real database for the cache
 * and the catalogue's own history.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type Db } from '../../server/db/index.ts';
import { CatalogueService } from '../../server/services/catalogue.ts';
import { configuredSources, EvidenceService, songKey } from '../../server/services/evidence/index.ts';
import { MusicBrainzSource } from '../../server/services/evidence/musicbrainz.ts';
import { Pacer, SourceUnavailable, userAgent, type HttpOptions, type YearSource } from '../../server/services/evidence/source.ts';
import { WikidataSource } from '../../server/services/evidence/wikidata.ts';
import { ReportsService } from '../../server/services/reports.ts';
import { SourceAnswerSchema } from '../../shared/protocol/reports.ts';
import { DESCRIPTIVE_UA, MB_DATA, musicBrainzStandIn, WD_DATA, wikidataStandIn, type StandIn } from '../support/evidence-standins.ts';
import { bootServer, freePort, testDatabase } from './harness.ts';

const log = pino({ level: 'silent' });
const QUEEN = { id: '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9c01', title: 'Bohemian Rhapsody', artist: 'Queen', year: 1980 };
const AHA = { id: '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9c02', title: 'Take On Me', artist: 'a-ha', year: 1985 };

let dir: string;
let db: Db;
let dropDb: () => Promise<void>;
let mb: StandIn;
let wd: StandIn;
let reports: ReportsService;

/** Fast settings for tests that are not about the pace or the timeout. */
const http = (over: Partial<HttpOptions> = {}): HttpOptions => ({ userAgent: userAgent('tests@hitline.invalid'), timeoutMs: 3000, retryMs: 50, restMs: 0, pacer: new Pacer(0), ...over });
const sources = (over: Partial<HttpOptions> = {}): YearSource[] => [new MusicBrainzSource(mb.url, http(over)), new WikidataSource(wd.url, http(over))];
const service = (list: YearSource[], options = {}) => new EvidenceService(db, log, (id) => reports.historyOf(id), { sources: list, ...options });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hitline-evidence-'));
  const database = await testDatabase(dir);
  dropDb = database.drop;
  db = await openDatabase(database.url);
  const file = join(dir, 'hits.yml');
  const hit = (h: typeof QUEEN) => ({ ...h, belongs_to: '', packs: [], playback_offset: 0 });
  writeFileSync(file, stringify({ hits: [hit(QUEEN), hit(AHA)], packs: [] }));
  await new CatalogueService(db, log).loadDemoIfEmpty(file);
  reports = new ReportsService(db, log);
  [mb, wd] = await Promise.all([musicBrainzStandIn(MB_DATA), wikidataStandIn(WD_DATA)]);
});

afterEach(async () => {
  await db.deleteFrom('year_evidence').execute();
  for (const s of [mb, wd]) {
    s.requests.length = 0;
    s.busy = 0;
    s.delayMs = 0;
    s.paceMs = 0;
  }
});

afterAll(async () => {
  await Promise.all([mb?.close(), wd?.close()]);
  await db?.destroy();
  await dropDb?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('the sources', () => {
  it('MusicBrainz: the earliest original recording or release, with what the date is of and its page; remasters, live takes, covers, compilations and bootlegs left out', async () => {
    const found = await new MusicBrainzSource(mb.url, http()).lookup(QUEEN);
    expect(found).toEqual({
      year: 1975,
      date: '1975-10-31',
      detail: 'first release of the recording “Bohemian Rhapsody” by Queen',
      url: `${mb.url}/recording/ebf79ba5-085e-48d2-9eb8-2d992fbf0f6d`,
    });
    // a recording search and a release search, each a Lucene query on title and artist, JSON asked for
    expect(mb.requests.map((r) => [r.path, r.params.get('query'), r.params.get('fmt')])).toEqual([
      ['/ws/2/recording', 'recording:"Bohemian Rhapsody" AND artist:"Queen"', 'json'],
      ['/ws/2/release', 'release:"Bohemian Rhapsody" AND artist:"Queen"', 'json'],
    ]);
    const single = await new MusicBrainzSource(mb.url, http()).lookup(AHA);
    expect(single).toMatchObject({ year: 1984, date: '1984-10', url: `${mb.url}/release/c0ffee00-0000-4000-8000-000000000104` });
    expect(single.detail).toBe('release “Take On Me” (Single) by a-ha');
  });

  it('Wikidata: the earliest publication date of the song by that performer, as precise as Wikidata is; covers and vague dates left out', async () => {
    const wiki = new WikidataSource(wd.url, http());
    expect(await wiki.lookup(QUEEN)).toEqual({
      year: 1975,
      date: '1975-10-31',
      detail: 'publication date of the song or single “Bohemian Rhapsody” by Queen',
      url: 'https://www.wikidata.org/wiki/Q187745',
    });
    expect(await wiki.lookup(AHA)).toMatchObject({ year: 1985, date: '1985' });
    expect(wd.requests[0]!.path).toBe('/sparql');
    expect(wd.requests[0]!.params.get('format')).toBe('json');
  });

  it('a song a source does not know is an answer without a year', async () => {
    expect(await new WikidataSource(wd.url, http()).lookup({ title: 'Only One Knows', artist: 'Solo Act' })).toEqual({ year: null, date: null, detail: 'no matching song or single', url: null });
  });

  it('sends a descriptive User-Agent with the version and the contact (the stand-ins refuse others)', async () => {
    const [config] = [loadConfig({ EVIDENCE_SOURCES: 'musicbrainz,wikidata', MUSICBRAINZ_URL: mb.url, WIKIDATA_URL: wd.url, EVIDENCE_CONTACT: 'curator@hitline.invalid' })];
    const [music, wiki] = configuredSources(config);
    await music!.lookup(AHA);
    await wiki!.lookup(AHA);
    for (const r of [...mb.requests, ...wd.requests]) {
      expect(r.userAgent).toMatch(DESCRIPTIVE_UA);
      expect(r.userAgent).toMatch(/^Hitline\/\d+\.\d+\.\d+ \( curator@hitline\.invalid \)$/);
    }
    // without one, the stand-in answers as the services do: refused, so unavailable
    await expect(new MusicBrainzSource(mb.url, http({ userAgent: '' })).lookup(AHA)).rejects.toBeInstanceOf(SourceUnavailable);
  });

  it('paces each source at one request a second, across every caller of the process', async () => {
    mb.paceMs = 1000; // the stand-in answers 503 to anything faster, as MusicBrainz does
    const config = loadConfig({ EVIDENCE_SOURCES: 'musicbrainz', MUSICBRAINZ_URL: mb.url, EVIDENCE_CONTACT: 'tests@hitline.invalid' });
    const evidence = service(configuredSources(config));
    // two games drawing two songs at the same moment
    evidence.prefetch(QUEEN);
    evidence.prefetch(AHA);
    const both = await evidence.answers(AHA);
    expect(both.unavailable).toEqual([]);
    await expect.poll(async () => (await evidence.answers(QUEEN)).sources.length).toBe(1);
    expect(mb.requests).toHaveLength(4);
    const gaps = mb.requests.slice(1).map((r, i) => r.at - mb.requests[i]!.at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(990);
  }, 20_000);

  it('a 503 is asked once more after a pause; a second 503 makes the source unavailable', async () => {
    mb.busy = 1;
    expect(await new MusicBrainzSource(mb.url, http()).lookup(AHA)).toMatchObject({ year: 1984 });
    expect(mb.requests).toHaveLength(3);
    mb.requests.length = 0;
    mb.busy = 10;
    await expect(new MusicBrainzSource(mb.url, http()).lookup(AHA)).rejects.toThrow(/HTTP 503/);
    expect(mb.requests).toHaveLength(2);
  });

  it('an answer slower than the timeout makes the source unavailable, without waiting for it', async () => {
    wd.delayMs = 2000;
    const started = performance.now();
    await expect(new WikidataSource(wd.url, http({ timeoutMs: 200 })).lookup(AHA)).rejects.toThrow(/no answer within 200 ms/);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('a source out of reach rests: the next lookups fail at once, without a request, until the rest is over', async () => {
    wd.delayMs = 1000;
    const wiki = new WikidataSource(wd.url, http({ timeoutMs: 100, restMs: 600 }));
    await expect(wiki.lookup(AHA)).rejects.toThrow(/no answer within/);
    const started = performance.now();
    await expect(wiki.lookup(QUEEN)).rejects.toThrow(/resting after a failure/);
    expect(performance.now() - started).toBeLessThan(50);
    expect(wd.requests).toHaveLength(1);
    wd.delayMs = 0;
    await sleep(650);
    expect(await wiki.lookup(AHA)).toMatchObject({ year: 1985 });
  });

  it('the queue of a source is short: lookups beyond it are unavailable at once, not minutes later', async () => {
    const pacer = new Pacer(300, 2);
    const music = new MusicBrainzSource(mb.url, http({ pacer }));
    const lookups = [AHA, QUEEN, AHA].map((song) => music.lookup(song).then((f) => f.year, (err: Error) => err.message));
    expect(await Promise.all(lookups)).toEqual([1984, 1975, '2 lookups are waiting already']);
  });

  it('no network: a port nobody listens on makes the source unavailable', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(new MusicBrainzSource(closed, http()).lookup(AHA)).rejects.toBeInstanceOf(SourceUnavailable);
    await expect(new WikidataSource(closed, http()).lookup(AHA)).rejects.toBeInstanceOf(SourceUnavailable);
  });
});

describe('EvidenceService', () => {
  it('gather: the catalogue\'s year and history with both sources\' answers, valid on the wire', async () => {
    const evidence = service(sources());
    await reports.fileReport({ hit_id: QUEEN.id, type: 'custom', kind: 'wrong_year', message: 'it is 1975', year: 1975 });
    evidence.prefetch(QUEEN);
    const got = await evidence.gather(QUEEN);
    expect(got.year).toBe(1980);
    expect(got.reports.map((r) => r.year)).toEqual([1975]);
    expect(got.missing).toEqual([]);
    expect(got.sources.map((s) => [s.source, s.label, s.year, s.date])).toEqual([
      ['musicbrainz', 'MusicBrainz', 1975, '1975-10-31'],
      ['wikidata', 'Wikidata', 1975, '1975-10-31'],
    ]);
    for (const s of got.sources) expect(SourceAnswerSchema.safeParse(s).success).toBe(true);
    await db.deleteFrom('hit_issues').execute();
  });

  it('caches answers per song: asked again for the same title and artist (another hit, another year), nobody is asked; after the TTL, they are', async () => {
    let now = Date.now();
    const evidence = service(sources(), { now: () => now });
    await evidence.gather(QUEEN);
    const asked = mb.requests.length + wd.requests.length;
    expect(asked).toBe(3);
    const other = await evidence.gather({ ...QUEEN, id: AHA.id, year: 1999, title: 'bohemian  RHAPSODY' });
    expect(other.sources).toHaveLength(2);
    expect(mb.requests.length + wd.requests.length).toBe(asked);
    // a fresh service (a restarted server) reads the same cache
    await service(sources()).gather(QUEEN);
    expect(mb.requests.length + wd.requests.length).toBe(asked);
    expect(songKey(QUEEN)).toBe(songKey({ title: 'Bohemian Rhapsody!', artist: 'QUEEN' }));
    now += 31 * 24 * 60 * 60 * 1000;
    await evidence.gather(QUEEN);
    expect(mb.requests.length + wd.requests.length).toBe(asked * 2);
  });

  it('prefetch: draws of the same song while its lookup runs share that lookup', async () => {
    wd.delayMs = 300;
    const evidence = service(sources());
    evidence.prefetch(AHA);
    evidence.prefetch(AHA);
    evidence.prefetch({ ...AHA, id: QUEEN.id });
    const got = await evidence.answers(AHA);
    expect(got.sources).toHaveLength(2);
    expect(mb.requests).toHaveLength(2);
    expect(wd.requests).toHaveLength(1);
  });

  it('gather does not wait long for a slow source: it is reported pending, and its answer shows later', async () => {
    wd.delayMs = 1500;
    const evidence = service(sources(), { waitMs: 200 });
    evidence.prefetch(AHA);
    const early = await evidence.gather(AHA);
    expect(early.sources.map((s) => s.source)).toEqual(['musicbrainz']);
    expect(early.missing).toEqual([{ source: 'wikidata', label: 'Wikidata', state: 'pending' }]);
    await expect.poll(async () => (await evidence.gather(AHA)).sources.length, { timeout: 5000 }).toBe(2);
  });

  it('every source failing: only the catalogue\'s evidence, both sources unavailable; the failure is not cached and not asked again at once', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const evidence = service([new MusicBrainzSource(closed, http()), new WikidataSource(closed, http())]);
    const got = await evidence.gather(QUEEN);
    expect(got).toEqual({
      year: 1980,
      changes: [],
      reports: [],
      sources: [],
      missing: [
        { source: 'musicbrainz', label: 'MusicBrainz', state: 'unavailable' },
        { source: 'wikidata', label: 'Wikidata', state: 'unavailable' },
      ],
    });
    expect(await db.selectFrom('year_evidence').selectAll().execute()).toEqual([]);
    // a source that failed is asked again after a while, not at every draw
    mb.busy = 10;
    const retrying = service([new MusicBrainzSource(mb.url, http())], { retryAfterMs: 60_000 });
    await retrying.gather(AHA);
    const asked = mb.requests.length;
    mb.busy = 0;
    expect((await retrying.gather(AHA)).missing[0]!.state).toBe('unavailable');
    expect(mb.requests).toHaveLength(asked);
    const again = service([new MusicBrainzSource(mb.url, http())], { retryAfterMs: 0 });
    expect((await again.gather(AHA)).sources[0]!.year).toBe(1984);
  });

  it('an unknown hit and no sources: nothing known, nothing missing', async () => {
    expect(await service([]).gather({ ...QUEEN, id: '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9cff' })).toEqual({ year: null, changes: [], reports: [], sources: [], missing: [] });
  });

  it('EVIDENCE_SOURCES: both by default, empty = none, unknown names refused', () => {
    expect(loadConfig({}).EVIDENCE_SOURCES).toEqual(['musicbrainz', 'wikidata']);
    expect(loadConfig({ EVIDENCE_SOURCES: '' }).EVIDENCE_SOURCES).toEqual([]);
    expect(loadConfig({ EVIDENCE_SOURCES: ' Wikidata ' }).EVIDENCE_SOURCES).toEqual(['wikidata']);
    expect(() => loadConfig({ EVIDENCE_SOURCES: 'musicbrainz,discogs' })).toThrow(/EVIDENCE_SOURCES: comma-separated, of musicbrainz, wikidata; not "discogs"/);
    expect(configuredSources(loadConfig({ EVIDENCE_SOURCES: '' }))).toEqual([]);
    expect(loadConfig({}).MUSICBRAINZ_URL).toBe('https://musicbrainz.org');
  });

  it('the server asks the sources EVIDENCE_SOURCES names, at the configured addresses; test servers ask none', async () => {
    const quiet = await bootServer();
    try {
      expect(quiet.server.evidence.sources).toEqual([]);
    } finally {
      await quiet.stop();
    }
    const t = await bootServer({ EVIDENCE_SOURCES: 'wikidata,musicbrainz', MUSICBRAINZ_URL: mb.url, WIKIDATA_URL: wd.url, EVIDENCE_CONTACT: 'tests@hitline.invalid' });
    try {
      const got = await t.server.evidence.gather({ ...AHA, id: '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9cfe' });
      expect(got.sources.map((a) => [a.source, a.year])).toEqual([
        ['wikidata', 1985],
        ['musicbrainz', 1984],
      ]);
    } finally {
      await t.stop();
    }
  });
});
