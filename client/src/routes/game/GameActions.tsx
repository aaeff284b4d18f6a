import './recipes.ts';
import { Box, Button, Text, Wrap } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { MAX_PLAYERS, MIN_PLAYERS } from '../../../../shared/rules/constants.ts';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import * as actions from './game-actions.ts';
import { InviteButton } from './InviteButton.tsx';
import { usePerspective } from './use-perspective.ts';

/**
 * The actions beside the heading (docs/product.md#screens): join or leave, start or stop (the
 * creator only; "not enough players" below two), the game settings, the
 * invitation (link and QR code) of a game played from several devices, and the
 * last round's results while the game is Open again; "Show on TV" opens the
 * game's TV view in a window of its own.
 */
export function GameActions({ onJoin, onSettings, onLeave, onStop }: { onJoin: () => void; onSettings: () => void; onLeave: () => void; onStop: () => void }) {
  const { t } = useTranslation();
  const { me } = usePerspective();
  const state = useGame((s) => s.game?.state ?? 'Open');
  const mode = useGame((s) => s.game?.mode ?? 'Public');
  const gameId = useGame((s) => s.game?.id);
  const playerCount = useGame((s) => s.game?.players.length ?? 0);
  const standings = useGame((s) => (s.game?.state === 'Open' ? s.game.standings : null));
  const winner = useGame((s) => s.game?.winner ?? null);
  const signedIn = useSession((s) => !!s.user);
  const running = state !== 'Open';
  const tooFew = playerCount < MIN_PLAYERS;

  return (
    <Wrap gap="2" role="group" aria-label={t('game.actions_label')}>
      {me ? (
        <Button variant="outline" aria-keyshortcuts="Alt+Shift+Q" onClick={() => actions.requestLeave(onLeave)}>
          {t('game.leave')}
        </Button>
      ) : (
        <>
          <Button
            colorPalette="accent"
            aria-keyshortcuts="Alt+Shift+J"
            disabled={!actions.canJoin({ state, mode, players: { length: playerCount } }, me, signedIn)}
            aria-describedby={running && mode !== 'Local' ? 'join-hint' : undefined}
            onClick={() => actions.requestJoin(onJoin)}
          >
            {state === 'Open' && playerCount >= MAX_PLAYERS ? t('game.join_full') : t('game.join')}
          </Button>
          {/* a spectator of a running game is told why Join is off */}
          {running && mode !== 'Local' && (
            <Text id="join-hint" color="fg.muted" textStyle="sm" alignSelf="center">
              {t('game.cannot_join')}
            </Text>
          )}
        </>
      )}
      {me?.creator && (
        <Button
          colorPalette={running ? 'red' : 'accent'}
          variant={running ? 'outline' : 'solid'}
          aria-keyshortcuts="Alt+Shift+S"
          disabled={!running && tooFew}
          onClick={() => actions.startStop(onStop)}
        >
          {running ? t('game.stop') : tooFew ? t('game.not_enough_players') : t('game.start')}
        </Button>
      )}
      <Button variant="outline" aria-keyshortcuts="Alt+Shift+E" onClick={onSettings}>
        {t('game.settings_button')}
      </Button>
      {gameId && mode !== 'Local' && <InviteButton gameId={gameId} mode={mode} />}
      {gameId && (
        // the party's shared screen: a window of its own to put on the TV
        <Button asChild variant="outline">
          <a href={`/game/${encodeURIComponent(gameId)}/tv`} target="_blank" rel="noopener" data-testid="show-on-tv">
            {t('tv.show')}
            <Box as="span" srOnly>
              {` ${t('tv.new_window')}`}
            </Box>
          </a>
        </Button>
      )}
      {standings && (
        <Button variant="ghost" onClick={() => useGame.getState().showEnded({ winner, standings })}>
          {t('game.show_results')}
        </Button>
      )}
    </Wrap>
  );
}
