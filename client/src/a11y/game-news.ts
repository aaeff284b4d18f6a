import type { ErrorBody } from '../../../shared/protocol/common.ts';
import type { RoomMessageName } from '../../../shared/protocol/room.ts';
import { showError } from '../errors.ts';
import { errorValues, i18next } from '../i18n.ts';
import { useGame } from '../stores/game.ts';
import { useSession } from '../stores/session.ts';
import { announce } from './game-meaning.ts';
import { notify } from './notify.ts';

/**
 * What the game screen tells the person beyond what it shows: each event the
 * game store applies, in words (game-meaning.ts's `announce`), said with its
 * sound cue and toast (notify.ts) and added to the store's event feed; and the
 * room's refusals of his actions, routed to the error dialog, a toast or the
 * log (docs/product.md#errors). The game route follows the store while its screen is up.
 */

/**
 * Says and feeds the meaning of every event the game store applies from now on; returns the stop function.
 * `named`: a shared screen (the TV) names every player, its own user too: "Your turn" on a TV
 * would speak to whoever looks at it.
 */
export function followGameNews({ named = false }: { named?: boolean } = {}): () => void {
  /** Local games: the seat last asked to intercept (game-meaning.ts). */
  let asked: string | null = null;
  return useGame.subscribe((state, old) => {
    const news = state.news;
    if (news === old.news) return;
    // a reset: a new game screen
    if (!news) {
      asked = null;
      return;
    }
    const said = announce({ ...news.previous, asked }, news.event, news.game, named ? undefined : useSession.getState().user?.id);
    asked = said.asked;
    for (const m of said.meanings) notify.meaning(m);
    if (said.meanings.length > 0) useGame.getState().addToFeed(said.meanings);
  });
}

/** Shown in the error dialog: start, settings save, and the seat changes (whose failure is otherwise invisible). */
const DIALOG_ACTIONS = new Set<RoomMessageName>(['start', 'stop', 'update', 'join', 'join_local', 'leave', 'avatar', 'control', 'release']);
/** Said and shown as a toast: a blocked skip, claim, dispute or vote names its reason (a dispute raced by another seat's, a vote cast twice). */
const TOAST_ACTIONS = new Set<RoomMessageName>(['skip', 'claim', 'dispute', 'vote']);

const errorText = (error: ErrorBody): string => i18next.t(`errors.${error.code}`, errorValues(error.message));

/** The room refused the last action sent (the store's `lastAction`: room errors carry no action name). */
export function sayRefusal(error: ErrorBody): void {
  const action = useGame.getState().lastAction;
  // an interception whose slot someone took while it was on its way: he may choose again
  if (action === 'guess' && error.code === 'slot_taken') {
    // a Local game's shared screen says itself whose answer it was (it sends several at once)
    const game = useGame.getState().game;
    const userId = useSession.getState().user?.id;
    if (game?.mode === 'Local' && game.players.some((p) => p.id === userId && !p.virtual)) return;
    notify.notification(i18next.t('game.guess.slot_taken_retry'), { interrupt: true, toast: 'warning' });
    return;
  }
  if (action && DIALOG_ACTIONS.has(action)) {
    showError(error);
  } else if (action && TOAST_ACTIONS.has(action)) {
    notify.notification(errorText(error), { interrupt: true, toast: 'error' });
  } else {
    // guess and confirm errors are only logged (docs/product.md#errors): the screen already prevents them
    console.warn(`game action ${action ?? '?'} refused: ${error.code}: ${error.message}`);
  }
}
