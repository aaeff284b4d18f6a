import { autoClueMode, type Action, type Game } from '../../shared/rules/index.ts';
import type { CatalogueService } from '../services/catalogue.ts';

/**
 * Fills in what an action takes from the catalogue as it is now, before the
 * engine sees it: a start gets the hits it deals from, an update the pack ids
 * there are. What the catalogue said travels in the action (and its log entry),
 * so a replay needs no catalogue.
 *
 * A game with `clue_mode_auto` gets its clue mode decided at the start, from the
 * chosen packs: audio when enough of their hits have audio for this table
 * (autoClueMode), else cards (a DJ only when the creator chose one).
 */
export async function fromCatalogue(action: Action, game: Game, catalogue: Pick<CatalogueService, 'packIds' | 'playableHits'>): Promise<void> {
  if (action.type === 'update') {
    action.pack_ids = await catalogue.packIds();
    return;
  }
  if (action.type !== 'start') return;
  const { packs, clue_mode, clue_mode_auto, goal } = game.settings;
  delete action.clue_mode;
  if (!clue_mode_auto) {
    action.hits = await catalogue.playableHits(packs, clue_mode);
    return;
  }
  const withAudio = await catalogue.playableHits(packs, 'audio');
  const mode = autoClueMode(withAudio.length, game.players.length, goal);
  action.clue_mode = mode;
  action.hits = mode === 'audio' ? withAudio : await catalogue.playableHits(packs, 'card');
}
