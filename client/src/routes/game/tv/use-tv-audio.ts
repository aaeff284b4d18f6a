import { useEffect, useRef, useState } from 'react';
import { unlockAudio } from '../../../audio/sfx.ts';
import { useGame } from '../../../stores/game.ts';
import { currentSource, play, prepare, useHitAudio, type HitSource } from '../hit-audio.ts';
import { usePerspective } from '../use-perspective.ts';
import { shouldAutoplay, silentReason, type SilentReason } from './tv-logic.ts';

export interface TvAudio {
  /** The page may play sound (a tap or key press happened on it). */
  unlocked: boolean;
  /** Unlocks now (the big button). */
  unlock: () => void;
  source: HitSource | null;
  silent: SilentReason;
}

/**
 * The TV plays the hit (docs/product.md#screens "TV"): browsers allow sound only after a tap or
 * key press on the page, so until then the view asks for one; from then on each
 * new draw's hidden clip starts by itself, with the play-hit cue before it
 * (hit-audio.ts), as the play button does on the game screen.
 */
export function useTvAudio(): TvAudio {
  const [unlocked, setUnlocked] = useState(false);
  const game = useGame((s) => s.game);
  const { me } = usePerspective();
  const source = game ? currentSource(game, !!me) : null;
  const key = source?.key ?? null;
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (unlocked) return;
    const unlock = (): void => {
      void unlockAudio();
      setUnlocked(true);
    };
    window.addEventListener('pointerdown', unlock, true);
    window.addEventListener('keydown', unlock, true);
    return () => {
      window.removeEventListener('pointerdown', unlock, true);
      window.removeEventListener('keydown', unlock, true);
    };
  }, [unlocked]);

  useEffect(() => {
    prepare(source);
    if (source && shouldAutoplay(key, unlocked, started.current, useHitAudio.getState().playing)) {
      started.current = key;
      play(source);
    }
    // the key names the source (the object is rebuilt on every render)
  }, [key, unlocked]);

  return {
    unlocked,
    unlock: () => {
      void unlockAudio();
      setUnlocked(true);
    },
    source,
    silent: game ? silentReason(game, !!me) : null,
  };
}
