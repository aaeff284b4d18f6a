import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { GameMode } from '../../../../shared/protocol/game.ts';
import { announce } from '../../a11y/announcer.ts';
import { showError } from '../../errors.ts';
import { createGame } from '../../net/games.ts';

/** Creates a game and goes to it (docs/product.md#screens); failures go to the error dialog. One creation at a time. */
export function useCreateGame(): { create: (mode: GameMode) => Promise<void>; creating: boolean } {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  const create = async (mode: GameMode): Promise<void> => {
    if (creating) return;
    setCreating(true);
    announce(t('lobby.creating', { mode: t(`game.mode.${mode}`) }));
    try {
      const game = await createGame(mode);
      // a Local game asks its host who plays (WhoIsPlayingDialog's CreatedState)
      void navigate(`/game/${encodeURIComponent(game.id)}`, { state: { created: true } });
    } catch (err) {
      showError(err);
    } finally {
      setCreating(false);
    }
  };
  return { create, creating };
}
