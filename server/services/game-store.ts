import { createHash } from 'node:crypto';
import { CompiledQuery, sql, type QueryCreator } from 'kysely';
import { isoNow, isPostgres, writeNowIfIdle, writeLog, type Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { applyAction, fillMissingLooks, LIMITS, type Action, type Game, type Hit } from '../../shared/rules/index.ts';

/**
 * Games survive a restart. Each game is a row with a base snapshot of
 * the engine state and the actions accepted since, each written before the room
 * applies it. A new base is written when the game is created, after a restore,
 * and when the log grows long. A start carries the playable hits it deals from,
 * the one big part of an action: they are stored once in `hit_sets` for every
 * game started from the same hits, and the logged start names them. The engine
 * is pure and carries its PRNG state, so replaying the log on the base gives
 * back exactly the game that was running.
 */

export interface StoredGame {
  game: Game;
  /** The room's event sequence number after the last replayed action. */
  seq: number;
  /** When the last action was accepted (ms). */
  updatedAt: number;
}

/**
 * What the log keeps of one action: the action as the engine got it (a start
 * without its hits), the engine's clock, the room's seq after it, and for a start
 * the `hit_sets` row its hits are in.
 */
interface LoggedAction {
  action: Action;
  now: number;
  seq: number;
  hits?: string;
}

/** Playable hits as stored in `hit_sets`: their JSON and its hash. */
interface HitSet {
  hash: string;
  json: string;
}

interface PendingAppend {
  row: { game_id: string; n: number; action: string; hit_set: string | null };
  /** The hits a start names. */
  set?: HitSet;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Each array of playable hits as a hit set: the catalogue hands the same array to every game that starts within a few seconds. */
const hitSets = new WeakMap<readonly Hit[], HitSet>();

function hitSetOf(hits: readonly Hit[]): HitSet {
  let set = hitSets.get(hits);
  if (!set) {
    const json = JSON.stringify(hits);
    set = { hash: createHash('sha256').update(json).digest('base64url'), json };
    hitSets.set(hits, set);
  }
  return set;
}

/**
 * A stored base as the engine's Game. Bases written before the engine counted
 * drawn cards (`deck_at`) hold only the cards still to draw: none drawn. Those
 * written before players had colours and avatars get them (fillMissingLooks).
 * Bases written before reveals took time had none: their logged actions replay
 * with the deadlines they were accepted with. Those written before the DJ mode
 * get its defaults.
 */
function storedGame(json: string): Game {
  const game = JSON.parse(json) as Game;
  game.deck_at ??= 0;
  game.settings.reveal_time ??= 0;
  // stored before the automatic clue mode: the game keeps the mode it was given
  game.settings.clue_mode_auto ??= false;
  // stored before the DJ mode: the creator would be its DJ, and he would play
  game.settings.dj ??= '';
  game.settings.dj_plays ??= true;
  game.dj ??= null;
  // stored before year disputes: the defaults, and nothing disputed
  game.settings.disputes ??= LIMITS.disputes.default;
  game.settings.dispute_timeout ??= LIMITS.dispute_timeout.default;
  game.dispute ??= null;
  game.disputes_used ??= {};
  return fillMissingLooks(game);
}

/** Batch sizes whose insert SQL is kept. */
const KEPT_INSERTS = 32;

/** Most actions written by one insert (4 parameters each, well within SQLite's limit). */
const MAX_BATCH = 1000;

/** Real players who are connected, for the idle rule ("Open and nobody there"). */
export const presentPlayers = (game: Game): number => game.players.filter((p) => !p.virtual && p.connected).length;

export class GameStore {
  private readonly db: Db;
  /** This process's name: it restores the games it hosted. */
  readonly process: string;
  private readonly log: Logger;

  constructor(db: Db, process: string, log: Logger) {
    this.db = db;
    this.process = process;
    this.log = log;
  }

  /** Writes `game` as the new base (after action `seq`) and drops the older log. */
  async snapshot(game: Game, seq: number, now: number): Promise<void> {
    const row = {
      id: game.id,
      process: this.process,
      base: JSON.stringify(game),
      base_seq: seq,
      state: game.state,
      players: presentPlayers(game),
      updated_at: isoNow(now),
    };
    const dropLog = this.db.deleteFrom('game_actions').where('game_id', '=', game.id);
    const upsert = this.db
      .insertInto('games')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet({ process: row.process, base: row.base, base_seq: row.base_seq, state: row.state, players: row.players, updated_at: row.updated_at }));
    if (writeNowIfIdle(this.db, [dropLog.compile(), upsert.compile()])) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.executeQuery(dropLog.compile());
      await trx.executeQuery(upsert.compile());
    });
  }

  /**
   * Appends the `n`th accepted action since the base (n ≥ 1): `action` made game
   * `gameId` reach the room's event sequence number `seq`. Resolves once it is
   * stored. Appends of every room that arrive in the same turn of the event loop
   * go to the database as one insert (group commit): hundreds of games acting at
   * once cost one write, not hundreds.
   */
  append(gameId: string, n: number, seq: number, action: Action, now: number): Promise<void> {
    let entry: LoggedAction = { action, now, seq };
    let set: HitSet | undefined;
    if (action.type === 'start') {
      set = hitSetOf(action.hits);
      entry = { action: { ...action, hits: [] }, now, seq, hits: set.hash };
    }
    const row = { game_id: gameId, n, action: JSON.stringify(entry), hit_set: set?.hash ?? null };
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, ...(set ? { set } : {}), resolve, reject });
      this.schedule();
    });
  }

  private pending: PendingAppend[] = [];
  private scheduled = false;
  private flushing = false;

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    this.flushing = true;
    const batch = this.pending.splice(0, MAX_BATCH);
    try {
      await this.insertRows(batch);
      for (const b of batch) b.resolve();
    } catch (err) {
      // one refused row (its game was removed meanwhile) must not fail the others' actions
      if (batch.length === 1) batch[0]!.reject(err);
      else
        for (const b of batch) {
          await this.insertRows([b]).then(b.resolve, b.reject);
        }
    } finally {
      this.flushing = false;
      if (this.pending.length > 0) this.schedule();
    }
  }

  /**
   * Inserts log entries, all or none, with the hit sets they name (each written
   * unless stored already: `pruneHitSets` may have removed it meanwhile, and the
   * entry and its hits must stand or fall together). SQLite: one transaction,
   * run at once when the connection is free. PostgreSQL: one statement (the hit
   * sets' insert as a data-modifying WITH), one round trip, on the log's own
   * connection; the usual batch, entries without hits, as a prepared statement.
   */
  private async insertRows(entries: PendingAppend[]): Promise<void> {
    const sets = new Map<string, HitSet>();
    for (const e of entries) if (e.set) sets.set(e.set.hash, e.set);
    const rows = entries.map((e) => e.row);
    const hitRows = [...sets.values()].map((set) => ({ hash: set.hash, hits: set.json }));
    const storeSets = (db: QueryCreator<Database>) => db.insertInto('hit_sets').values(hitRows).onConflict((oc) => oc.column('hash').doNothing());
    if (sets.size > 0 && isPostgres(this.db)) {
      await writeLog(this.db, null, this.db.with('stored_sets', storeSets).insertInto('game_actions').values(rows).compile());
      return;
    }
    const log = CompiledQuery.raw(this.insertSql(entries.length), rows.flatMap((r) => [r.game_id, r.n, r.action, r.hit_set]));
    if (sets.size === 0) {
      if (writeNowIfIdle(this.db, [log])) return;
      // the SQL of a kept batch size never changes, so it may be prepared under a name of its size
      const name = this.insertSqls.has(entries.length) ? `hitline_log_${entries.length}` : null;
      await (writeLog(this.db, name, log) ?? this.db.executeQuery(log));
      return;
    }
    const writes = [storeSets(this.db).compile(), log];
    if (writeNowIfIdle(this.db, writes)) return;
    await this.db.transaction().execute(async (trx) => {
      for (const w of writes) await trx.executeQuery(w);
    });
  }

  /**
   * Removes the stored hit sets that no log entry names any more (their games
   * started again, were snapshotted or removed); returns how many. Safe beside
   * appends: an entry is written together with its hit set, and on PostgreSQL the
   * removal first locks `hit_sets` against writes, so it waits for the starts
   * being written and sees their entries (without the lock, a start naming a set
   * that was stored already could commit just after the removal's snapshot, and
   * its game would not restore).
   */
  async pruneHitSets(): Promise<number> {
    const prune = async (db: Db) => {
      const named = db.selectFrom('game_actions').select('hit_set').where('hit_set', 'is not', null);
      const r = await db.deleteFrom('hit_sets').where('hash', 'not in', named).executeTakeFirst();
      return Number(r.numDeletedRows);
    };
    if (!isPostgres(this.db)) return prune(this.db);
    return this.db.transaction().execute(async (trx) => {
      // SHARE ROW EXCLUSIVE: no insert into hit_sets meanwhile, and one removal at a time (several processes)
      await sql`LOCK TABLE hit_sets IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
      return prune(trx);
    });
  }

  /** The insert of `rows` log entries, in this database's SQL, by row count. */
  private readonly insertSqls = new Map<number, string>();

  /**
   * The SQL that inserts `rows` log entries (game_id, n, action, hit_set each). Built by
   * kysely once per row count and reused: building and compiling the query on
   * every action cost more than running it (budget P1). Only the SQL of small
   * batches, the usual ones, is kept.
   */
  private insertSql(rows: number): string {
    let text = this.insertSqls.get(rows);
    if (text === undefined) {
      text = this.db
        .insertInto('game_actions')
        .values(Array.from({ length: rows }, () => ({ game_id: '', n: 0, action: '', hit_set: null as string | null })))
        .compile().sql;
      if (rows <= KEPT_INSERTS) this.insertSqls.set(rows, text);
    }
    return text;
  }

  /** Notes that this process is alive (see `lastSeen`). */
  async heartbeat(now = Date.now()): Promise<void> {
    const seen_at = isoNow(now);
    await this.db
      .insertInto('server_processes')
      .values({ name: this.process, seen_at })
      .onConflict((oc) => oc.column('name').doUpdateSet({ seen_at }))
      .execute();
  }

  /** When this process was last alive before now (ms), or null on its first start. */
  async lastSeen(): Promise<number | null> {
    const row = await this.db.selectFrom('server_processes').select('seen_at').where('name', '=', this.process).executeTakeFirst();
    return row ? Date.parse(row.seen_at) : null;
  }

  async remove(gameId: string): Promise<void> {
    await this.db.deleteFrom('games').where('id', '=', gameId).execute();
  }

  /**
   * Every game this process hosted, rebuilt from its base and its log. A game whose
   * log does not replay (a bug, or a hand-edited database) is logged and skipped,
   * never half-restored.
   */
  async load(): Promise<StoredGame[]> {
    const rows = await this.db.selectFrom('games').selectAll().where('process', '=', this.process).orderBy('id').execute();
    const out: StoredGame[] = [];
    // games started from the same hits share them again
    const sets = new Map<string, Promise<Hit[]>>();
    this.loadingSets = sets;
    for (const row of rows) {
      try {
        out.push(await this.replay(row.id, storedGame(row.base), row.base_seq, Date.parse(row.updated_at)));
      } catch (err) {
        this.log.error({ err, game: row.id }, 'a stored game could not be restored; it stays in the database untouched');
      }
    }
    this.loadingSets = new Map();
    return out;
  }

  private async replay(gameId: string, base: Game, baseSeq: number, updatedAt: number): Promise<StoredGame> {
    const actions = await this.db.selectFrom('game_actions').select(['n', 'action']).where('game_id', '=', gameId).orderBy('n').execute();
    let game = base;
    let seq = baseSeq;
    let last = updatedAt;
    for (const row of actions) {
      const entry = JSON.parse(row.action) as LoggedAction;
      if (entry.action.type === 'start' && entry.hits !== undefined) entry.action.hits = await this.hitSet(entry.hits);
      const result = applyAction(game, entry.action, { now: entry.now });
      if (!result.ok) throw new Error(`action ${row.n} (${entry.action.type}) does not replay: ${result.error.message}`);
      game = result.game;
      seq = entry.seq;
      last = Math.max(last, entry.now);
    }
    return { game, seq, updatedAt: last };
  }

  /** Hit sets read during the running `load`, by hash. */
  private loadingSets = new Map<string, Promise<Hit[]>>();

  /** The hits of stored hit set `hash`. */
  private hitSet(hash: string): Promise<Hit[]> {
    let hits = this.loadingSets.get(hash);
    if (!hits) {
      hits = this.db
        .selectFrom('hit_sets')
        .select('hits')
        .where('hash', '=', hash)
        .executeTakeFirst()
        .then((row) => {
          if (!row) throw new Error(`the hits of a logged start (${hash}) are not stored`);
          return JSON.parse(row.hits) as Hit[];
        });
      this.loadingSets.set(hash, hits);
    }
    return hits;
  }
}

/**
 * The restored game's deadline, moved by the downtime: players get back the time
 * they had left when the server went down (`downAt`: its last sign of life, or
 * the last accepted action if later). Nobody could act while it was down, so
 * that time does not count against anybody (docs/rules.md#a5 counts the room's clock).
 */
export function shiftDeadline(game: Game, downAt: number, now: number): Game {
  if (!game.deadline) return game;
  const downtime = Math.max(0, now - downAt);
  // a vote's deadline is also its dispute's (docs/rules.md#disputes)
  const dispute = game.deadline.state === 'Disputing' && game.dispute?.until ? { ...game.dispute, until: game.dispute.until + downtime } : game.dispute;
  return { ...game, deadline: { ...game.deadline, at: game.deadline.at + downtime }, ...(dispute === undefined ? {} : { dispute }) };
}
