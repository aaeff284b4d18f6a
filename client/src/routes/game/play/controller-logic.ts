import type { GamePayload, PlayerPayload } from '../../../../../shared/protocol/game.ts';
import { MAX_PLAYERS } from '../../../../../shared/rules/constants.ts';
import type { Reveal } from '../../../stores/game-events.ts';
import { guessModel, turnPlayerOf, type Perspective } from '../game-logic.ts';

/**
 * The phone controller's rules (docs/product.md#screens), as pure functions:
 * what the phone shows for each phase of the game, whether it makes any sound,
 * and the one line a reveal leaves on it. The screen only renders what these
 * return (tests/client/controller-logic.test.ts).
 */

export type ControllerView =
  /** Not seated, the game is Open and has room: the name prompt. */
  | { kind: 'join' }
  /** A Local game's phone (with its seat key) that plays no seat yet: "Which one are you?", and a new seat while Open with room. */
  | { kind: 'seats'; canAdd: boolean }
  /** Not seated and cannot join now (running, or full): watch, or wait for the next game. */
  | { kind: 'closed'; reason: 'running' | 'full' }
  /** Seated, the game has not started: who starts it. */
  | { kind: 'lobby' }
  /** Seated and it is this phone's move. */
  | { kind: 'act'; phase: 'guessing' | 'intercepting' | 'confirming' }
  /** Seated and someone else moves: whom the game waits for (the turn player first). */
  | { kind: 'waiting'; on: PlayerPayload[] };

export function controllerView(game: Pick<GamePayload, 'state' | 'players' | 'mode'>, perspective: Perspective): ControllerView {
  const { me } = perspective;
  if (!me && game.mode === 'Local') return { kind: 'seats', canAdd: game.state === 'Open' && game.players.length < MAX_PLAYERS };
  if (!me) {
    if (game.state !== 'Open') return { kind: 'closed', reason: 'running' };
    return game.players.length >= MAX_PLAYERS ? { kind: 'closed', reason: 'full' } : { kind: 'join' };
  }
  if (game.state === 'Open') return { kind: 'lobby' };
  // the controller acts for its own seat only, also in a Local game whose seat it controls
  const model = guessModel(game, { ...perspective, actor: me, local: false });
  if (model.phase === 'guessing' || model.phase === 'intercepting' || model.phase === 'confirming') return { kind: 'act', phase: model.phase };
  const turn = turnPlayerOf(game);
  const on = model.waitingOn.filter((p) => p.id !== me.id).sort((a, b) => Number(b.id === turn?.id) - Number(a.id === turn?.id));
  return { kind: 'waiting', on };
}

/** A Local game's seats a phone may take (the name-only ones), each with whether another phone plays it now. */
export function seatChoices(game: Pick<GamePayload, 'players'>, userId: string | undefined): { player: PlayerPayload; elsewhere: boolean }[] {
  return game.players.filter((p) => p.virtual).map((player) => ({ player, elsewhere: !!player.controller && player.controller !== userId }));
}

/** Whose row the controller shows: the turn player's while this phone places into it, else its own. */
export function rowOf(game: Pick<GamePayload, 'players'>, view: ControllerView, me: PlayerPayload | null): PlayerPayload | null {
  if (view.kind === 'act' && view.phase !== 'confirming') return turnPlayerOf(game) ?? me;
  return me;
}

// ---------------------------------------------------------------------------
// sound

/** The device's own setting (localStorage key): a remote player hears the hit on his phone. */
export const LISTEN_KEY = 'listenOnPhone';

/**
 * A controller is silent (the TV plays the hit and the cues) unless its player
 * turned on "listen on this phone"; the setting is remembered on the device,
 * and anything but the stored "true" means off.
 */
export const listensOn = (stored: string | null): boolean => stored === 'true';

/** What the controller may do with sound: load and play the hit, play cues. */
export const phoneAudio = (listen: boolean): { hit: boolean; cues: boolean } => ({ hit: listen, cues: listen });

// ---------------------------------------------------------------------------
// the reveal's line

/** "1987 — correct!": the year and what it meant for this phone's player. */
export interface OutcomeLine {
  year: number;
  /** `right`: placed right by the turn player; `intercepted`: won by another; `nobody`: discarded. */
  result: 'right' | 'intercepted' | 'nobody';
  /** The winner's name (for `intercepted` and `right` when not this phone's player). */
  name: string;
  /** The winner is this phone's player. */
  you: boolean;
}

export function outcomeLine(reveal: Pick<Reveal, 'hit' | 'winner' | 'turn'>, meId: string | undefined): OutcomeLine {
  const { winner, turn } = reveal;
  const you = !!winner && winner.id === meId;
  if (!winner) return { year: reveal.hit.year, result: 'nobody', name: '', you: false };
  return { year: reveal.hit.year, result: winner.id === turn?.id ? 'right' : 'intercepted', name: winner.name, you };
}

/** The translation key of an outcome line (table namespace). */
export const outcomeKey = (line: OutcomeLine): string => `controller.outcome.${line.result}${line.you ? '_you' : ''}`;
