import type { GamePayload } from '../../../../shared/protocol/game.ts';
import { isYou } from '../../stores/game-events.ts';
import { i18next } from '../../i18n.ts';

/**
 * The game's state in words: the heading says what happens now
 * and who is waited on; the document title says only whose turn it is (or
 * that the game waits to start, or is over), so it changes once per turn.
 * Screen readers do not read a changed title by themselves; the app's own
 * page-title announcement is for entering the page only (usePageTitle's
 * `announce: 'once'`): the turn is announced by the game's events already.
 */

type Game = Pick<GamePayload, 'state' | 'mode' | 'players' | 'winner' | 'standings'> & Partial<Pick<GamePayload, 'dispute'>>;
const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});

const list = (names: readonly string[]): string => new Intl.ListFormat(i18next.language, { style: 'long', type: 'conjunction' }).format(names);

/** While Open: who starts the game (the creator, "you" at his own screen), or how the last round ended. */
function openHeadline(game: Game, userId: string | undefined): string {
  if (game.standings) {
    if (!game.winner) return t('people:headline.over_nobody');
    return isYou(game.winner.id, userId, game.mode) ? t('people:headline.over_you') : t('people:headline.over', { name: game.winner.name });
  }
  const creator = game.players.find((p) => p.creator);
  // the creator's own screen, Local games too: the one device is his
  if (creator && creator.id === userId) return t('people:headline.start_you');
  return t('people:headline.waiting', { name: creator?.name ?? '' });
}

function turnHeadline(game: Game, userId: string | undefined): string {
  const turn = game.players.find((p) => p.turn_player);
  if (!turn) return '';
  return isYou(turn.id, userId, game.mode) ? t('people:headline.turn_you') : t('people:headline.turn', { name: turn.name });
}

/** The heading: the phase in words, naming who is waited on. */
export function gameHeadline(game: Game, userId: string | undefined): string {
  if (game.state === 'Open') return openHeadline(game, userId);
  // a year dispute pauses the game: the table is waited on (docs/rules.md#disputes)
  if (game.dispute && game.dispute.outcome === null) return t('table:dispute.heading');
  const turn = game.players.find((p) => p.turn_player);
  const you = (id: string) => isYou(id, userId, game.mode);
  if (game.state === 'Intercepting') {
    const asked = game.players.filter((p) => p.state === 'Intercepting');
    if (asked.some((p) => you(p.id))) return t('people:headline.intercepting_you', { turn: turn?.name ?? '' });
    if (asked.length > 0) return t('people:headline.intercepting', { names: list(asked.map((p) => p.name)), count: asked.length });
  }
  if (game.state === 'Confirming' && turn) {
    const confirmer = game.players.find((p) => p.state === 'Confirming');
    // a Local game's creator checks every answer at the one screen: the answer is what matters
    if (!confirmer || game.mode === 'Local') return t('people:headline.confirming_local', { turn: turn.name });
    if (you(confirmer.id)) return t('people:headline.confirming_you', { turn: turn.name });
    if (you(turn.id)) return t('people:headline.confirming_yours', { name: confirmer.name });
    return t('people:headline.confirming', { name: confirmer.name, turn: turn.name });
  }
  return turnHeadline(game, userId);
}

/** The document title: the heading while Open, else whose turn it is. */
export function gameTitle(game: Game, userId: string | undefined): string {
  return game.state === 'Open' ? openHeadline(game, userId) : turnHeadline(game, userId);
}
