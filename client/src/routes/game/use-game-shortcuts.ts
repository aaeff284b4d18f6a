import { useShortcuts } from '../../a11y/shortcuts.ts';
import * as actions from './game-actions.ts';

/** What a screen does for the shortcuts that open its own dialogs (a screen without one leaves it out). */
export interface ShortcutScreen {
  /** "Stop the game?" (start_stop while running). */
  askStop: () => void;
  /** The join dialog (name and emoji). */
  askJoin?: () => void;
  /** "Leave the game?" */
  askLeave?: () => void;
  /** The game settings dialog. */
  openSettings?: () => void;
  /** Leaving, when the screen has its own way (a phone playing a Local seat gives it back); else askLeave. */
  leave?: () => void;
  /** Play or stop the hit, when the screen has its own rule (a silent phone says how to listen). */
  playHit?: () => void;
}

/**
 * The game's Alt+Shift shortcuts (docs/product.md#screens), one map for every screen that shows
 * a game (the game screen, the TV, the phone): a shortcut calls the same action as its
 * button, so it obeys the same rules and says why when it cannot.
 */
export function useGameShortcuts(enabled: boolean, screen: ShortcutScreen): void {
  const { askStop, askJoin, askLeave, openSettings, leave, playHit = actions.togglePlay } = screen;
  useShortcuts(
    {
      ...(openSettings ? { game_settings: openSettings } : {}),
      ...(askJoin ? { join_game: () => actions.requestJoin(askJoin) } : {}),
      ...(leave ? { leave_game: leave } : askLeave ? { leave_game: () => actions.requestLeave(askLeave) } : {}),
      play_hit: playHit,
      start_stop: () => actions.startStop(askStop),
      skip_hit: actions.skip,
      dispute_year: () => actions.requestDispute(),
      confirm_yes: () => actions.confirm(true),
      confirm_no: () => actions.confirm(false),
      submit_guess: actions.submitGuess,
      next_slot: () => actions.stepSlot(1),
      previous_slot: () => actions.stepSlot(-1),
      no_slot: actions.clearSlot,
      player_info: ({ index }) => actions.speakPlayer(index),
    },
    enabled,
  );
}
