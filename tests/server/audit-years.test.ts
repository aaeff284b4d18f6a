/**
 * `npm run cli -- audit-years` (docs/disputes.md#audit): the real command in a
 * child process, on a real database, asking local stand-ins of MusicBrainz and
 * Wikidata (which answer 503 to requests faster than one a second).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { openDatabase, type Db } from '../../server/db/index.ts';
import { CatalogueService } from '../../server/services/catalogue.ts';
import { agreedYear } from '../../server/cli/audit.ts';
import { MB_DATA, musicBrainzStandIn, WD_DATA, wikidataStandIn, type StandIn } from '../support/evidence-standins.ts';
import { freePort, testDatabase } from './harness.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ONE = '11111111-1111-4111-8111-111111111111';
const TWO = '22222222-2222-4222-8222-222222222222';
const QUEEN = '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9c11';
const HITS = [
  // both sources say 1975: a report
  { id: QUEEN, title: 'Bohemian Rhapsody', artist: 'Queen', year: 1980, packs: [ONE] },
  // MusicBrainz 1984, Wikidata 1985: no agreement, no report
  { id: '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9c12', title: 'Take On Me', artist: 'a-ha', year: 1986, packs: [ONE] },
  // only MusicBrainz knows it: no report
  { id: '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9c13', title: 'Only One Knows', artist: 'Solo Act', year: 1991, packs: [ONE] },
  // another pack: not audited with --pack One
  { id: '0d9a43f4-1d0a-4c4e-8f3e-7b1f8a3a9c14', title: 'Take On Me', artist: 'a-ha', year: 1970, packs: [TWO] },
];

let dir: string;
let url: string;
let drop: () => Promise<void>;
let db: Db;
let mb: StandIn;
let wd: StandIn;

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the command; `interrupt(out)` true sends Ctrl+C (SIGINT) once. */
function audit(args: string[], interrupt?: (out: string) => boolean, env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, ['server/cli/index.ts', 'audit-years', ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      DATABASE_URL: url,
      EVIDENCE_SOURCES: 'musicbrainz,wikidata',
      MUSICBRAINZ_URL: mb.url,
      WIKIDATA_URL: wd.url,
      EVIDENCE_CONTACT: 'audit-tests@hitline.invalid',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = { code: null, out: '', err: '' };
  let sent = false;
  child.stdout.on('data', (d: Buffer) => {
    run.out += d.toString();
    if (interrupt && !sent && interrupt(run.out)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (d: Buffer) => (run.err += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ ...run, code })));
}

const openReports = () => db.selectFrom('hit_issues').selectAll().execute();
const queue = () => db.selectFrom('audit_queue').select(['hit_id', 'state']).execute();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hitline-audit-'));
  const database = await testDatabase(dir);
  url = database.url;
  drop = database.drop;
  db = await openDatabase(url);
  const file = join(dir, 'hits.yml');
  writeFileSync(file, stringify({ hits: HITS.map((h) => ({ ...h, belongs_to: '', playback_offset: 0 })), packs: [{ id: ONE, name: 'One' }, { id: TWO, name: 'Two' }] }));
  await new CatalogueService(db, pino({ level: 'silent' })).loadDemoIfEmpty(file);
  [mb, wd] = await Promise.all([musicBrainzStandIn(MB_DATA), wikidataStandIn(WD_DATA)]);
  mb.paceMs = 1000;
  wd.paceMs = 1000;
});

beforeEach(async () => {
  await db.deleteFrom('hit_issues').execute();
  await db.deleteFrom('year_evidence').execute();
  await db.deleteFrom('audit_queue').execute();
  mb.requests.length = 0;
  wd.requests.length = 0;
});

afterAll(async () => {
  await Promise.all([mb?.close(), wd?.close()]);
  await db?.destroy();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('audit-years', () => {
  it('audits a pack at the sources\' pace with progress, files a report only where two sources agree on another year, and not twice', async () => {
    const first = await audit(['--pack', 'One']);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const lines = first.out.trim().split('\n');
    expect(lines[0]).toBe('auditing 3 hits of pack "One" with MusicBrainz and Wikidata');
    expect(lines.filter((l) => l.startsWith('audited ')).map((l) => l.split(' ')[1])).toEqual(['1/3', '2/3', '3/3']);
    expect(first.out).toContain('Queen – Bohemian Rhapsody (1980): MusicBrainz 1975, Wikidata 1975 → sources agree on 1975, reported');
    expect(first.out).toContain('a-ha – Take On Me (1986): MusicBrainz 1984, Wikidata 1985 → no two sources agree');
    expect(first.out).toContain('Solo Act – Only One Knows (1991): MusicBrainz 1990, Wikidata ? → no two sources agree');
    expect(lines.at(-1)).toBe('finished: 1 reports filed');
    // never faster than one request a second per source: the stand-ins would have answered 503
    for (const s of [mb, wd]) s.requests.slice(1).forEach((r, i) => expect(r.at - s.requests[i]!.at).toBeGreaterThanOrEqual(990));
    expect(mb.requests).toHaveLength(6);
    expect(wd.requests).toHaveLength(3);

    const reports = await openReports();
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ hit_id: QUEEN, type: 'auto', kind: 'wrong_year', year: 1975, status: 'open' });
    expect(reports[0]!.message).toBe('MusicBrainz and Wikidata give 1975; the catalogue says 1980 (audit-years)');
    expect((JSON.parse(reports[0]!.evidence!) as { source: string; year: number }[]).map((e) => [e.source, e.year])).toEqual([
      ['musicbrainz', 1975],
      ['wikidata', 1975],
    ]);
    expect((await queue()).every((q) => q.state === 'done')).toBe(true);

    const again = await audit([]);
    expect(again.out.trim()).toBe('the last audit is finished (3 hits); --restart audits again');

    // restarted: the answers are cached (nobody is asked) and the open report is not filed again
    const restarted = await audit(['--restart', '--pack', 'one']);
    expect(restarted.code).toBe(0);
    expect(restarted.out).toContain('sources agree on 1975, already reported');
    expect(restarted.out.trim().split('\n').at(-1)).toBe('finished: 0 reports filed');
    expect(mb.requests).toHaveLength(6);
    expect(await openReports()).toHaveLength(1);

    // a curator dismissed it: the next audit does not file it again
    await db.updateTable('hit_issues').set({ status: 'dismissed', reason: 'the single came out in 1980', resolved_at: new Date().toISOString() }).execute();
    const afterDismissal = await audit(['--restart', '--pack', 'one']);
    expect(afterDismissal.out).toContain('sources agree on 1975, dismissed before');
    expect(afterDismissal.out.trim().split('\n').at(-1)).toBe('finished: 0 reports filed');
    expect(await openReports()).toHaveLength(1);
  }, 60_000);

  it('stops cleanly on Ctrl+C and resumes where it stopped', async () => {
    const stopped = await audit([], (out) => out.includes('audited 1/4'));
    expect(stopped.err).toBe('');
    expect(stopped.code).toBe(130);
    expect(stopped.out).toMatch(/stopped: [23] hits left; run audit-years again to resume/);
    const states = await queue();
    const done = states.filter((q) => q.state === 'done').map((q) => q.hit_id);
    expect(states).toHaveLength(4);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.length).toBeLessThan(4);
    const doneLines = stopped.out.split('\n').filter((l) => l.startsWith('audited '));

    const resumed = await audit([]);
    expect(resumed.code).toBe(0);
    expect(resumed.out.split('\n')[0]).toBe(`resuming the last audit: ${4 - done.length} of 4 hits left`);
    const resumedLines = resumed.out.split('\n').filter((l) => l.startsWith('audited '));
    expect(resumedLines.map((l) => l.split(' ')[1])).toEqual(Array.from({ length: 4 - done.length }, (_, i) => `${done.length + i + 1}/4`));
    // the hits audited before the interruption are not audited again
    for (const l of doneLines) expect(resumedLines.map((r) => r.slice(r.indexOf(' ', 9)))).not.toContain(l.slice(l.indexOf(' ', 9)));
    expect((await queue()).every((q) => q.state === 'done')).toBe(true);
    expect((await openReports()).map((r) => r.year)).toEqual([1975]);
  }, 40_000);

  it('refuses an unknown pack and an audit without sources, changing nothing', async () => {
    const unknown = await audit(['--pack', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim()).toBe('error: no pack "Nope"');
    const none = await audit([], undefined, { EVIDENCE_SOURCES: '' });
    expect(none.code).toBe(1);
    expect(none.err.trim()).toBe('error: no sources to ask: EVIDENCE_SOURCES is empty (docs/configuration.md)');
    expect(await queue()).toEqual([]);
    expect(mb.requests.length + wd.requests.length).toBe(0);
  });

  it('no network: stops after three hits no source answered, and leaves them to the next run', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const down = await audit([], undefined, { MUSICBRAINZ_URL: closed, WIKIDATA_URL: closed });
    expect(down.code).toBe(1);
    expect(down.out).toContain('audited 1/4 Queen – Bohemian Rhapsody (1980): MusicBrainz unavailable, Wikidata unavailable → no two sources agree');
    expect(down.out.trim().split('\n').at(-1)).toBe('stopped: no source answered for 3 hits in a row (no network?); 4 hits left; run audit-years again later to resume');
    expect((await queue()).map((q) => q.state).sort()).toEqual(['failed', 'failed', 'failed', 'pending']);
    expect(await openReports()).toEqual([]);
    const back = await audit([]);
    expect(back.out.split('\n')[0]).toBe('resuming the last audit: 4 of 4 hits left');
    expect(back.code).toBe(0);
    expect((await queue()).every((q) => q.state === 'done')).toBe(true);
  }, 40_000);

  it('a year counts only when two sources agree on it', () => {
    const a = (source: string, year: number | null) => ({ source, label: source, year, date: null, detail: '', url: null, found_at: new Date().toISOString() });
    expect(agreedYear([a('musicbrainz', 1975), a('wikidata', 1975)])).toBe(1975);
    expect(agreedYear([a('musicbrainz', 1975), a('wikidata', 1976)])).toBeNull();
    expect(agreedYear([a('musicbrainz', 1975), a('wikidata', null)])).toBeNull();
    expect(agreedYear([a('musicbrainz', 1975), a('musicbrainz', 1975)])).toBeNull();
  });
});
