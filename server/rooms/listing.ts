import { summarizeGame, type Game, type GameSummary } from '../../shared/rules/index.ts';
import type { EventPublisher } from '../events/bus.ts';
import type { GameMetadata } from './host-ports.ts';

/**
 * What the lobby knows of one game: the matchmaking metadata it filters games
 * by, the summary line it shows, and who lists the game at all.
 */
export class LobbyListing {
  private readonly id: string;
  private readonly publisher: EventPublisher;
  private lastMeta: GameMetadata;
  private lastSummary: GameSummary | null = null;

  constructor(id: string, publisher: EventPublisher, game: Game) {
    this.id = id;
    this.publisher = publisher;
    this.lastMeta = gameMetadata(game);
  }

  /** The metadata of `game` now. */
  get metadata(): GameMetadata {
    return this.lastMeta;
  }

  /** The metadata of `game` when they changed since last asked (each change is a Redis write with several processes), else null. */
  changedMetadata(game: Game): GameMetadata | null {
    const meta = gameMetadata(game);
    if (sameMetadata(meta, this.lastMeta)) return null;
    this.lastMeta = meta;
    return meta;
  }

  /**
   * Publishes the game's summary line when it changed, and its removal to those
   * of `listedFor` (who listed it before the change) who no longer list it (left a
   * Private game).
   */
  publish(game: Game, listedFor: string[] | null): void {
    const summary = summarizeGame(game);
    const last = this.lastSummary;
    // most actions change none of it (P1: its fields are compared, no JSON per action)
    if (!last || !(Object.keys(summary) as (keyof GameSummary)[]).every((k) => summary[k] === last[k])) {
      this.lastSummary = summary;
      this.publisher.publishGlobalLater(this.id, { event: 'game_summary', data: summary, audience: listAudience(game) });
    }
    if (!listedFor) return;
    const now = listAudience(game);
    const gone = now ? listedFor.filter((id) => !now.includes(id)) : [];
    if (gone.length) void this.publisher.publishGlobal({ event: 'remove_game', data: this.id, audience: gone });
  }
}

/** Who lists `game` (docs/rules.md#create): everybody (null) for Public, the members for Private, the creator for Local. */
export function listAudience(game: Game): string[] | null {
  if (game.mode === 'Public') return null;
  if (game.mode === 'Private') return members(game);
  return game.players.filter((p) => p.creator && !p.virtual).map((p) => p.id);
}

function members(game: Game): string[] {
  return game.players.filter((p) => !p.virtual).map((p) => p.id);
}

function gameMetadata(game: Game): GameMetadata {
  return {
    mode: game.mode,
    players: game.players.length,
    members: members(game),
    creator: game.players.find((p) => p.creator)?.id ?? '',
  };
}

/** Whether two metadata say the same (the lobby's matchmaking filter needs no update). */
function sameMetadata(a: GameMetadata, b: GameMetadata): boolean {
  return a.mode === b.mode && a.players === b.players && a.creator === b.creator && a.members.length === b.members.length && a.members.every((id, i) => id === b.members[i]);
}
