import type { Evidence, SourceAnswer, VoteCount } from '../../shared/protocol/reports.ts';
import type { GameEvent, GameMode, GamePayload, Game, Hit, NewGame, RuleError } from '../../shared/rules/index.ts';
import type { Config } from '../config.ts';
import type { EventPublisher } from '../events/bus.ts';
import type { Logger } from '../logger.ts';
import type { CatalogueService } from '../services/catalogue.ts';
import type { GameStore } from '../services/game-store.ts';

/** What a game host (game-host.ts) is given, and what it gives back to whoever connects players. */

export interface CreateGameOptions {
  gameId: string;
  mode: GameMode;
  creator: { id: string; name: string };
  seed: NewGame['seed'];
  packIds: string[];
  settings?: unknown;
  /** A game brought back after a restart (its stored state, event seq and time of its last action) instead of a new one. */
  restore?: { game: Game; seq: number; updatedAt: number };
}

/**
 * Matchmaking metadata: what the lobby needs to filter games without asking each
 * room. Nothing that changes within a turn: each change is a Redis write with
 * several processes.
 */
export interface GameMetadata {
  mode: GameMode;
  players: number;
  /** Ids of the real (non-virtual) players. */
  members: string[];
  creator: string;
}

export type ActOutcome = { ok: true } | { ok: false; error: RuleError };

/** The hidden clips of audio games (server/http/audio-clips.ts, shared with the audio routes). */
export interface HiddenClips {
  prepare(turn: { game: string; draw: number }, hitId: string, seconds: number, next?: string): Promise<void>;
  release(game: string): Promise<void>;
}

/**
 * What is known about a hit's year (docs/disputes.md#evidence): the
 * catalogue's year, its history and earlier reports, and the outside
 * sources' answers (server/services/evidence).
 */
export interface YearEvidence {
  /**
   * Starts the outside sources' lookups for a card just drawn, in the
   * background (cached answers are not asked again). Never waits, never
   * throws: a source that fails is just missing from the evidence.
   */
  prefetch(hit: Pick<Hit, 'id' | 'title' | 'artist' | 'year'>): void;
  /** What is known now (only ever shown after the card's reveal). */
  gather(hit: Pick<Hit, 'id' | 'title' | 'artist' | 'year'>): Promise<Omit<Evidence, 'hit'>>;
}

/** Where a decided dispute goes: a report in the review queue (server/services/reports.ts). */
export interface DisputeReports {
  fileDispute(d: {
    game: string;
    hit: Pick<Hit, 'id' | 'year'>;
    /** The year proposed. */
    year: number;
    outcome: 'kept' | 'changed';
    votes: VoteCount;
    /** The disputer's seat name. */
    reporter: string;
    evidence: SourceAnswer[];
  }): Promise<void>;
}

export interface GameHostDeps {
  /** Where the game persists every accepted action (restart survival). */
  store: Pick<GameStore, 'snapshot' | 'append' | 'remove'>;
  /** Where its events and lobby updates go. */
  publisher: EventPublisher;
  catalogue: Pick<CatalogueService, 'packIds' | 'playableHits'>;
  /** The clip cache, asked for only by audio games. */
  clips: () => HiddenClips;
  /** Year evidence: looked up at each draw. */
  evidence: Pick<YearEvidence, 'prefetch' | 'gather'>;
  /** Where a decided dispute is filed. */
  reports: DisputeReports;
  config: Pick<Config, 'RECONNECT_SECONDS' | 'OPEN_GAME_IDLE_MINUTES' | 'GAME_IDLE_HOURS' | 'AUDIO_DIR'>;
  log: Logger;
}

/** What the host hands to whoever connects players (the room). */
export interface HostOutbox {
  /**
   * One accepted action changed the game: `view` is its public view now (null
   * once a Local game lost its creator), `seq` the seq of its last event;
   * `events` carry the seqs up to it, the last one final when the game was
   * deleted. Called within the action, before anything else hears of it.
   */
  changed(view: GamePayload | null, seq: number, events: readonly GameEvent[], deleted: boolean): void;
  /** The lobby's metadata of the game changed. */
  metadataChanged(meta: GameMetadata): void;
  /** The game is gone (deleted, or removed idle): every connection closes. */
  gone(): Promise<void>;
}
