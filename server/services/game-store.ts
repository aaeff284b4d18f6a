import { CompiledQuery } from 'kysely';
import { isoNow, writeNowIfIdle, type Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import { applyAction, type Action, type Game } from '../../shared/rules/index.ts';

/**
 * Games survive a restart (issue 10). Each game is a row with a base snapshot of
 * the engine state and the actions accepted since, each written before the room
 * applies it (one transaction: the action and the game's summary). A new base is
 * written when the game is created, at every start (the deck is the only big
 * part of the state and changes only then) and after a restore, so the log stays
 * short. The engine is pure and carries its PRNG state, so replaying the log on
 * the base gives back exactly the game that was running.
 */

export interface StoredGame {
  game: Game;
  /** The room's event sequence number after the last replayed action. */
  seq: number;
  /** When the last action was accepted (ms). */
  updatedAt: number;
}

/** What the log keeps of one action: the action as the engine got it, the engine's clock, and the room's seq after it. */
interface LoggedAction {
  action: Action;
  now: number;
  seq: number;
}

interface PendingAppend {
  row: { game_id: string; n: number; action: string };
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Batch sizes whose insert SQL is kept. */
const KEPT_INSERTS = 32;

/** Most actions written by one insert (3 parameters each, well within SQLite's limit). */
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
    const entry: LoggedAction = { action, now, seq };
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row: { game_id: gameId, n, action: JSON.stringify(entry) }, resolve, reject });
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
      await this.insertRows(batch.map((b) => b.row));
      for (const b of batch) b.resolve();
    } catch (err) {
      // one refused row (its game was removed meanwhile) must not fail the others' actions
      if (batch.length === 1) batch[0]!.reject(err);
      else
        for (const b of batch) {
          await this.insertRows([b.row]).then(b.resolve, b.reject);
        }
    } finally {
      this.flushing = false;
      if (this.pending.length > 0) this.schedule();
    }
  }

  /** Inserts log entries, all or none, with one statement. */
  private async insertRows(rows: PendingAppend['row'][]): Promise<void> {
    const insert = CompiledQuery.raw(this.insertSql(rows.length), rows.flatMap((r) => [r.game_id, r.n, r.action]));
    if (!writeNowIfIdle(this.db, [insert])) await this.db.executeQuery(insert);
  }

  /** The insert of `rows` log entries, in this database's SQL, by row count. */
  private readonly insertSqls = new Map<number, string>();

  /**
   * The SQL that inserts `rows` log entries (game_id, n, action each). Built by
   * kysely once per row count and reused: building and compiling the query on
   * every action cost more than running it (budget P1). Only the SQL of small
   * batches, the usual ones, is kept.
   */
  private insertSql(rows: number): string {
    let text = this.insertSqls.get(rows);
    if (text === undefined) {
      text = this.db
        .insertInto('game_actions')
        .values(Array.from({ length: rows }, () => ({ game_id: '', n: 0, action: '' })))
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
    for (const row of rows) {
      try {
        out.push(await this.replay(row.id, JSON.parse(row.base) as Game, row.base_seq, Date.parse(row.updated_at)));
      } catch (err) {
        this.log.error({ err, game: row.id }, 'a stored game could not be restored; it stays in the database untouched');
      }
    }
    return out;
  }

  private async replay(gameId: string, base: Game, baseSeq: number, updatedAt: number): Promise<StoredGame> {
    const actions = await this.db.selectFrom('game_actions').select(['n', 'action']).where('game_id', '=', gameId).orderBy('n').execute();
    let game = base;
    let seq = baseSeq;
    let last = updatedAt;
    for (const row of actions) {
      const entry = JSON.parse(row.action) as LoggedAction;
      const result = applyAction(game, entry.action, { now: entry.now });
      if (!result.ok) throw new Error(`action ${row.n} (${entry.action.type}) does not replay: ${result.error.message}`);
      game = result.game;
      seq = entry.seq;
      last = Math.max(last, entry.now);
    }
    return { game, seq, updatedAt: last };
  }
}

/**
 * The restored game's deadline, moved by the downtime: players get back the time
 * they had left when the server went down (`downAt`: its last sign of life, or
 * the last accepted action if later). Nobody could act while it was down, so
 * that time does not count against anybody (rules A5 counts the room's clock).
 */
export function shiftDeadline(game: Game, downAt: number, now: number): Game {
  if (!game.deadline) return game;
  const downtime = Math.max(0, now - downAt);
  return { ...game, deadline: { ...game.deadline, at: game.deadline.at + downtime } };
}
