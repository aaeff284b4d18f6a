import { useMemo } from 'react';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { perspectiveOf, type Perspective } from './game-logic.ts';

const NOBODY: Perspective = { actor: null, me: null, local: false, seat: false };

/** Whom this device is and acts for, from the few fields that decide it. */
export function usePerspective(): Perspective {
  const players = useGame((s) => s.game?.players);
  const state = useGame((s) => s.game?.state);
  const mode = useGame((s) => s.game?.mode);
  const userId = useSession((s) => s.user?.id);
  return useMemo(() => (players && state && mode ? perspectiveOf({ players, state, mode }, userId) : NOBODY), [players, state, mode, userId]);
}
