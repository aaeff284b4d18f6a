import { randomInt, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { HitBody } from '../../shared/protocol/catalogue.ts';
import { HITS_PER_PLAYER_GOAL, LIMITS, MAX_PLAYERS, type ClueMode, type Hit } from '../../shared/rules/index.ts';
import { isoNow, isPostgres, withDatabaseLock, type Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import { importHitsYaml, reportProblems } from './catalogue-yaml/apply.ts';
import { packNameKey } from './catalogue-yaml/rows.ts';
import { recordYearChange, YEAR_REASONS, type YearChangeBy } from './hit-history.ts';
import type { HitQuery, HitRecord, HitSearchIndex, HitSearchResult } from './search.ts';
import { PostgresHitSearch } from './search-postgres.ts';
import { SqliteHitSearch } from './search-sqlite.ts';

/**
 * The hit catalogue: packs and hits, the decks games are dealt from, search, and
 * every single-item edit (docs/api.md#b6, #b7). Bulk writers (the import) write through
 * the database and then call {@link CatalogueService.changed}.
 */

export interface PackInfo {
  id: string;
  name: string;
  hits: number;
}

/** What changed, for {@link CatalogueService.onChanged} listeners. */
export type CatalogueChange =
  | {
      kind: 'hit' | 'pack';
      id: string;
      action: 'created' | 'updated' | 'deleted';
      /** For hits: the audio needs a new download (new yt_id) or a re-cut of its source (new offset). */
      audio?: 'new_source' | 'reprocess';
    }
  /** Anything, e.g. after a bulk import. */
  | { kind: 'bulk' };

/** Why a hit write was refused; `unknown_pack` gives the index into `packs`. */
export type HitWriteError = { reason: 'not_found' } | { reason: 'yt_id_taken' } | { reason: 'unknown_pack'; index: number };
/** A hit write: the hit as stored, or why nothing was written. */
export type HitWriteResult = { ok: true; hit: HitRecord } | ({ ok: false } & HitWriteError);
/** A pack write: the pack as stored, or why nothing was written. */
export type PackWriteResult = { ok: true; pack: PackInfo } | { ok: false; reason: 'not_found' | 'name_taken' };

/** Pack names in natural order: digit runs by value, case and accents ignored ("Pack 2" < "pack 10"). */
const packCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Unique-constraint violations of SQLite (better-sqlite3) and PostgreSQL (pg). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** How long an answer of {@link CatalogueService.playableHits} is reused, ms. */
const PLAYABLE_TTL_MS = 5_000;
/**
 * Most hits a start deals from: the largest game (10 players, goal 100, 2 hits per
 * card of the goal) needs 2,000. A larger selection is sampled at random: a
 * catalogue of 100,000 hits read, validated, shuffled and logged whole at every
 * start held the event loop for 0.5–1.3 s, stalling every room and request of the
 * process (budget P6 with rooms playing).
 */
export const DEAL_MAX = MAX_PLAYERS * LIMITS.goal.max * HITS_PER_PLAYER_GOAL;
/** Hit ids read per query when a start reads its selection. */
const ID_PAGE = 2_000;
/** Most pack selections whose answers are kept at once. */
const PLAYABLE_KEYS = 64;

export class CatalogueService {
  readonly db: Db;
  readonly log: Logger;
  /** The search index: kept in step by the database; see {@link changed} for its typo vocabulary. */
  readonly search: HitSearchIndex;
  private readonly listeners = new Set<(change: CatalogueChange) => void>();
  /** Recent answers of {@link playableHits}, by clue mode and pack selection. */
  private readonly playable = new Map<string, { at: number; hits: Promise<Hit[]> }>();

  constructor(db: Db, log: Logger) {
    this.db = db;
    this.log = log;
    this.search = isPostgres(db) ? new PostgresHitSearch(db, log) : new SqliteHitSearch(db, log);
  }

  // -------------------------------------------------------------------------
  // change notification

  /**
   * Call after writing hits or packs behind this service's back (a bulk import, a
   * script): rebuilds the search's typo vocabulary in the background (the search
   * index itself follows the tables through database triggers) and tells the
   * listeners (the app publishes `hits_changed` on the global stream). Resolves
   * when the vocabulary is rebuilt; nobody has to wait for that.
   */
  changed(): Promise<void> {
    const rebuilt = this.search.refresh();
    this.emit({ kind: 'bulk' });
    return rebuilt;
  }

  /** Calls `listener` after every committed change made through this service or announced by {@link changed}; returns the unsubscribe function. */
  onChanged(listener: (change: CatalogueChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: CatalogueChange): void {
    this.forgetPlayable();
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        this.log.error({ err, change }, 'a catalogue change listener failed');
      }
    }
  }

  // -------------------------------------------------------------------------
  // packs

  /** Every pack id (the default pack selection of a new game). */
  async packIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('packs').select('id').orderBy('name').execute();
    return rows.map((r) => r.id);
  }

  /** Packs with their hit counts, in natural order of their names (then exact name, then id: a stable order). */
  async packs(): Promise<PackInfo[]> {
    const rows = await this.db
      .selectFrom('packs')
      .leftJoin('hit_packs', 'hit_packs.pack_id', 'packs.id')
      .select(({ fn }) => ['packs.id', 'packs.name', fn.count<number>('hit_packs.hit_id').as('hits')])
      .groupBy(['packs.id', 'packs.name'])
      .execute();
    const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return rows
      .map((r) => ({ id: r.id, name: r.name, hits: Number(r.hits) }))
      .sort((a, b) => packCollator.compare(a.name, b.name) || byCode(a.name, b.name) || byCode(a.id, b.id));
  }

  /** How many hits are in any pack, each counted once (what games can deal from; the welcome's total). */
  async packedHits(): Promise<number> {
    const row = await this.db
      .selectFrom('hit_packs')
      .select(({ fn }) => fn.count<number>('hit_id').distinct().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Creates a pack; refused when another pack has the name, case-insensitively. */
  async createPack(name: string): Promise<PackWriteResult> {
    const now = isoNow();
    const pack = { id: randomUUID(), name, name_key: packNameKey(name), created_at: now, updated_at: now };
    try {
      const taken = await this.db.transaction().execute(async (trx) => {
        if (await trx.selectFrom('packs').select('id').where('name_key', '=', pack.name_key).executeTakeFirst()) return true;
        await trx.insertInto('packs').values(pack).execute();
        return false;
      });
      if (taken) return { ok: false, reason: 'name_taken' };
    } catch (err) {
      if (isUniqueViolation(err)) return { ok: false, reason: 'name_taken' };
      throw err;
    }
    this.emit({ kind: 'pack', id: pack.id, action: 'created' });
    return { ok: true, pack: { id: pack.id, name, hits: 0 } };
  }

  /** Renames a pack; refused when another pack has the new name (its own name in other case is fine). */
  async renamePack(id: string, name: string): Promise<PackWriteResult> {
    const key = packNameKey(name);
    let outcome: PackWriteResult;
    try {
      outcome = await this.db.transaction().execute(async (trx): Promise<PackWriteResult> => {
        if (!(await trx.selectFrom('packs').select('id').where('id', '=', id).executeTakeFirst())) return { ok: false, reason: 'not_found' };
        if (await trx.selectFrom('packs').select('id').where('name_key', '=', key).where('id', '!=', id).executeTakeFirst()) return { ok: false, reason: 'name_taken' };
        await trx.updateTable('packs').set({ name, name_key: key, updated_at: isoNow() }).where('id', '=', id).execute();
        const row = await trx.selectFrom('hit_packs').select(({ fn }) => fn.countAll<number>().as('n')).where('pack_id', '=', id).executeTakeFirst();
        return { ok: true, pack: { id, name, hits: Number(row?.n ?? 0) } };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { ok: false, reason: 'name_taken' };
      throw err;
    }
    if (outcome.ok) this.emit({ kind: 'pack', id, action: 'updated' });
    return outcome;
  }

  /** Deletes a pack; its hits stay (only their links to it go, by cascade). False when there is no such pack. */
  async deletePack(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('packs').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.emit({ kind: 'pack', id, action: 'deleted' });
    return deleted;
  }

  // -------------------------------------------------------------------------
  // hits

  /** One page of a search (search.ts has the matching and order rules). */
  searchHits(q: HitQuery): Promise<HitSearchResult> {
    return this.search.search(q);
  }

  /** A hit with its pack ids (ascending), or undefined. */
  async hit(id: string): Promise<HitRecord | undefined> {
    const row = await this.db
      .selectFrom('hits')
      .select(['id', 'title', 'artist', 'belongs_to', 'year', 'yt_id', 'playback_offset', 'audio_state'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const links = await this.db.selectFrom('hit_packs').select('pack_id').where('hit_id', '=', id).orderBy('pack_id').execute();
    return { ...row, year: Number(row.year), playback_offset: Number(row.playback_offset), packs: links.map((l) => l.pack_id) };
  }

  /** Creates a hit with a new id (`by`: the user's name, for its year history). Its packs must exist and its yt_id (if any) must be unused. */
  async createHit(input: HitBody, by: string | null = null): Promise<HitWriteResult> {
    const id = randomUUID();
    const now = isoNow();
    const refused = await this.writeHit(async (trx) => {
      const problem = await this.checkHit(trx, input, null);
      if (problem) return problem;
      const { packs, ...fields } = input;
      await trx.insertInto('hits').values({ id, ...fields, created_at: now, updated_at: now }).execute();
      await recordYearChange(trx, id, null, input.year, { by, reason: YEAR_REASONS.created }, now);
      if (packs.length > 0) await trx.insertInto('hit_packs').values(packs.map((pack_id) => ({ hit_id: id, pack_id }))).execute();
      return null;
    });
    return this.afterHitWrite(refused, id, input, 'created', input.yt_id ? 'new_source' : undefined);
  }

  /**
   * Replaces a hit's fields and packs (the reference server's PATCH is a full replacement). A new
   * yt_id or playback_offset makes its processed audio stale: the audio state goes
   * back to `none` for the audio pipeline to redo.
   */
  async updateHit(id: string, input: HitBody, by: string | null = null): Promise<HitWriteResult> {
    let audio: 'new_source' | 'reprocess' | undefined;
    const refused = await this.writeHit(async (trx) => {
      const old = await trx.selectFrom('hits').select(['yt_id', 'playback_offset', 'year']).where('id', '=', id).executeTakeFirst();
      if (!old) return { reason: 'not_found' };
      const problem = await this.checkHit(trx, input, id);
      if (problem) return problem;
      const audioStale = old.yt_id !== input.yt_id || Number(old.playback_offset) !== input.playback_offset;
      audio = old.yt_id !== input.yt_id && input.yt_id ? 'new_source' : audioStale ? 'reprocess' : undefined;
      const { packs, ...fields } = input;
      await trx
        .updateTable('hits')
        .set({ ...fields, updated_at: isoNow(), ...(audioStale ? { audio_state: 'none' } : {}) })
        .where('id', '=', id)
        .execute();
      await recordYearChange(trx, id, Number(old.year), input.year, { by, reason: YEAR_REASONS.edited });
      // only the difference: unchanged links (and the search's pack index) are left alone
      const had = new Set((await trx.selectFrom('hit_packs').select('pack_id').where('hit_id', '=', id).execute()).map((l) => l.pack_id));
      const gone = [...had].filter((p) => !packs.includes(p));
      const added = packs.filter((p) => !had.has(p));
      if (gone.length > 0) await trx.deleteFrom('hit_packs').where('hit_id', '=', id).where('pack_id', 'in', gone).execute();
      if (added.length > 0) await trx.insertInto('hit_packs').values(added.map((pack_id) => ({ hit_id: id, pack_id }))).execute();
      return null;
    });
    return this.afterHitWrite(refused, id, input, 'updated', audio);
  }

  /**
   * Sets a hit's year alone (an accepted report), with its history row; search,
   * caches and `hits_changed` follow as for any edit. False when there is no such hit.
   */
  async setYear(id: string, year: number, who: YearChangeBy): Promise<boolean> {
    const found = await this.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('hits').select('year').where('id', '=', id).executeTakeFirst();
      if (!old) return false;
      if (Number(old.year) === year) return true;
      await trx.updateTable('hits').set({ year, updated_at: isoNow() }).where('id', '=', id).execute();
      await recordYearChange(trx, id, Number(old.year), year, who);
      return true;
    });
    if (found) this.emit({ kind: 'hit', id, action: 'updated' });
    return found;
  }

  /** Deletes a hit and its pack links. False when there is no such hit. Running games keep their own copy. */
  async deleteHit(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('hits').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.emit({ kind: 'hit', id, action: 'deleted' });
    return deleted;
  }

  /** The first reason to refuse writing `input` as hit `self` (null: a new hit), or null. */
  private async checkHit(trx: Db, input: HitBody, self: string | null): Promise<HitWriteError | null> {
    if (input.packs.length > 0) {
      const known = new Set((await trx.selectFrom('packs').select('id').where('id', 'in', input.packs).execute()).map((p) => p.id));
      const index = input.packs.findIndex((p) => !known.has(p));
      if (index >= 0) return { reason: 'unknown_pack', index };
    }
    if (input.yt_id !== null) {
      let q = trx.selectFrom('hits').select('id').where('yt_id', '=', input.yt_id);
      if (self !== null) q = q.where('id', '!=', self);
      if (await q.executeTakeFirst()) return { reason: 'yt_id_taken' };
    }
    return null;
  }

  /** Runs a hit write in one transaction; a unique violation that slipped past the checks is a taken yt_id. */
  private async writeHit(write: (trx: Db) => Promise<HitWriteError | null>): Promise<HitWriteError | null> {
    try {
      return await this.db.transaction().execute(write);
    } catch (err) {
      if (isUniqueViolation(err)) return { reason: 'yt_id_taken' };
      throw err;
    }
  }

  private async afterHitWrite(
    refused: HitWriteError | null,
    id: string,
    input: HitBody,
    action: 'created' | 'updated',
    audio: 'new_source' | 'reprocess' | undefined,
  ): Promise<HitWriteResult> {
    if (refused) return { ok: false, ...refused };
    this.search.noteWrite(input);
    this.emit(audio ? { kind: 'hit', id, action, audio } : { kind: 'hit', id, action });
    const hit = await this.hit(id);
    return hit ? { ok: true, hit } : { ok: false, reason: 'not_found' }; // deleted in between
  }

  // -------------------------------------------------------------------------
  // games

  /**
   * The hits a game in `clueMode` may deal from `packIds`: in `audio` mode only hits
   * whose audio is ready, in `dj` mode only hits with a YouTube id (with their
   * playback offsets, where the DJ's player starts), in `card` mode every hit.
   * Catalogue edits after this call never reach a running game (A8).
   *
   * Games starting within PLAYABLE_TTL_MS of each other with the same selection get
   * the same answer, Hit objects included: hundreds of games starting a minute do
   * not each read the catalogue, and their decks share one object per hit instead
   * of holding a copy each (budget P1: CPU and memory). The engine never changes a
   * Hit. A change made through this service or by this process's audio pipeline
   * clears the answers at once; one made by another process reaches new games here
   * after at most PLAYABLE_TTL_MS.
   */
  playableHits(packIds: readonly string[], clueMode: ClueMode): Promise<Hit[]> {
    if (packIds.length === 0) return Promise.resolve([]);
    const key = `${clueMode}:${[...new Set(packIds)].sort().join(',')}`;
    const now = Date.now();
    const known = this.playable.get(key);
    if (known && now - known.at < PLAYABLE_TTL_MS) return known.hits;
    if (this.playable.size >= PLAYABLE_KEYS) this.playable.clear();
    const hits = this.readPlayable(packIds, clueMode);
    this.playable.set(key, { at: now, hits });
    // a failed read is not kept
    hits.catch(() => {
      if (this.playable.get(key)?.hits === hits) this.playable.delete(key);
    });
    return hits;
  }

  /** Drops the reused answers of {@link playableHits}: hits became playable or stopped being so (the audio pipeline). */
  forgetPlayable(): void {
    this.playable.clear();
  }

  private async readPlayable(packIds: readonly string[], clueMode: ClueMode): Promise<Hit[]> {
    // The selection's hit ids, a page at a time with the event loop free between pages:
    // one read of a 100,000-hit selection would hold it for 100 ms or more (P6).
    const all = new Set<string>();
    for (const pack of new Set(packIds)) {
      let after = '';
      for (;;) {
        let q = this.db
          .selectFrom('hit_packs')
          .select('hit_packs.hit_id')
          .where('hit_packs.pack_id', '=', pack)
          .where('hit_packs.hit_id', '>', after)
          .orderBy('hit_packs.hit_id')
          .limit(ID_PAGE);
        if (clueMode === 'audio') q = q.innerJoin('hits', 'hits.id', 'hit_packs.hit_id').where('hits.audio_state', '=', 'ready');
        else if (clueMode === 'dj') q = q.innerJoin('hits', 'hits.id', 'hit_packs.hit_id').where('hits.yt_id', 'is not', null);
        const page = await q.execute();
        for (const r of page) all.add(r.hit_id);
        if (page.length < ID_PAGE) break;
        after = page[page.length - 1]!.hit_id;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const whole = all.size <= DEAL_MAX;
    const chosen = [...all];
    if (!whole) {
      // partial Fisher–Yates from the CSPRNG (which hits can come up is nobody's guess either): the first DEAL_MAX places become a uniform sample
      for (let k = 0; k < DEAL_MAX; k++) {
        const j = k + randomInt(chosen.length - k);
        [chosen[k], chosen[j]] = [chosen[j]!, chosen[k]!];
      }
      chosen.length = DEAL_MAX;
    }
    const byId = new Map<string, Hit>();
    // in chunks: SQLite allows 32,766 parameters, PostgreSQL 65,535
    for (let i = 0; i < chosen.length; i += 1000) {
      const rows = await this.db
        .selectFrom('hits')
        .innerJoin('hit_packs', 'hit_packs.hit_id', 'hits.id')
        .select(['hits.id', 'hits.title', 'hits.artist', 'hits.belongs_to', 'hits.year', 'hits.yt_id', 'hits.playback_offset', 'hit_packs.pack_id'])
        .where('hits.id', 'in', chosen.slice(i, i + 1000))
        .where('hit_packs.pack_id', 'in', [...packIds])
        .orderBy('hits.id')
        .execute();
      for (const r of rows) {
        const hit = byId.get(r.id);
        if (hit) hit.packs.push(r.pack_id);
        else {
          const hit: Hit = { id: r.id, title: r.title, artist: r.artist, belongs_to: r.belongs_to, year: r.year, yt_id: r.yt_id, packs: [r.pack_id] };
          // only a DJ's game plays from the offset: the other modes' stored hit sets stay as they were
          if (clueMode === 'dj') hit.playback_offset = Number(r.playback_offset);
          byId.set(r.id, hit);
        }
      }
    }
    const hits = [...byId.values()];
    // a whole selection in a stable order (games starting together share it and its stored hit set)
    if (whole) hits.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits;
  }

  /**
   * How many hits of `packIds` a game can deal: `hits` in card mode (all of them),
   * `audio` in audio mode (their audio is ready), `youtube` in dj mode (they have
   * a YouTube id), each hit once. What the game settings show of a pack
   * selection; an automatic game's start decides by the same counts (playableHits).
   */
  async playableCounts(packIds: readonly string[]): Promise<{ hits: number; audio: number; youtube: number }> {
    if (packIds.length === 0) return { hits: 0, audio: 0, youtube: 0 };
    const count = async (mode: ClueMode): Promise<number> => {
      let q = this.db
        .selectFrom('hits')
        .innerJoin('hit_packs', 'hit_packs.hit_id', 'hits.id')
        .select(({ fn }) => fn.count<number>('hits.id').distinct().as('n'))
        .where('hit_packs.pack_id', 'in', [...new Set(packIds)]);
      if (mode === 'audio') q = q.where('hits.audio_state', '=', 'ready');
      else if (mode === 'dj') q = q.where('hits.yt_id', 'is not', null);
      return Number((await q.executeTakeFirst())?.n ?? 0);
    };
    const [hits, audio, youtube] = await Promise.all([count('card'), count('audio'), count('dj')]);
    return { hits, audio, youtube };
  }

  /**
   * Audio counts for `process_hits`: ready hits, hits waiting for or in download,
   * hits being processed, hits whose audio failed, and hits without audio that
   * nothing prepares (played as cards).
   */
  async progress(): Promise<{ available: number; downloading: number; processing: number; failed: number; cards: number }> {
    const rows = await this.db
      .selectFrom('hits')
      .select(['audio_state', ({ fn }) => fn.countAll<number>().as('n')])
      .groupBy('audio_state')
      .execute();
    const count = (...states: string[]) => rows.filter((r) => states.includes(r.audio_state)).reduce((a, r) => a + Number(r.n), 0);
    return { available: count('ready'), downloading: count('queued', 'fetching'), processing: count('processing'), failed: count('failed'), cards: count('none') };
  }

  /**
   * Loads a `hits.yml` file into an empty catalogue (first start) with the catalogue
   * importer, all or nothing. Returns the hits added. A file with rejected rows
   * stops the start with the reasons: a broken bundled catalogue is a bug to fix,
   * not something to half-load.
   */
  async loadDemoIfEmpty(file: string): Promise<number> {
    // processes of a cluster starting together: one loads, the others then find hits
    return withDatabaseLock(this.db, 'hitline:demo-catalogue', (db) => this.loadDemo(db, file));
  }

  private async loadDemo(db: Db, file: string): Promise<number> {
    const existing = await db.selectFrom('hits').select('id').limit(1).executeTakeFirst();
    if (existing) return 0;
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      this.log.warn({ file }, 'no demo catalogue found; starting with an empty catalogue');
      return 0;
    }
    // a local file chosen by the operator: no upload size limit; text that the API
    // refuses now (direction or invisible characters) but a catalogue made before
    // the rule may have must not stop the start
    const report = await importHitsYaml(db, bytes, { apply: true, maxBytes: Number.POSITIVE_INFINITY, cleanText: false });
    if (!report.applied) throw new Error(`the demo catalogue ${file} cannot be loaded: ${reportProblems(report)}`);
    this.log.info({ hits: report.summary.hits.added, packs: report.summary.packs.added }, 'demo catalogue loaded');
    return report.summary.hits.added;
  }
}
