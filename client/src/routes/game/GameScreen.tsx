import './recipes.ts';
import { Alert, Box, Button, Grid, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useShortcuts } from '../../a11y/shortcuts.ts';
import { notify } from '../../a11y/notify.ts';
import { unlockAudio } from '../../audio/sfx.ts';
import { LoadingScreen } from '../../components/LoadingScreen.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { errorText } from '../../i18n.ts';
import { useGame } from '../../stores/game.ts';
import { AddPlayerDialog } from './AddPlayerDialog.tsx';
import { ConfirmDialog, type Confirmation } from './ConfirmDialog.tsx';
import { GameActions } from './GameActions.tsx';
import { GameEndedDialog } from './GameEndedDialog.tsx';
import { GameGone } from './GameGone.tsx';
import { GameSettingsDialog, useGameSettings } from './GameSettingsDialog.tsx';
import { GuessPanel, listNames } from './GuessPanel.tsx';
import { HitSection } from './HitSection.tsx';
import { PlayerTable } from './PlayerTable.tsx';
import * as actions from './game-actions.ts';
import { isGone, useGameRoom } from './use-game-room.ts';
import { release } from './hit-audio.ts';

/**
 * The game screen (spec §2, /game/{gameId}); loaded lazily with the Colyseus SDK
 * and Howler (budget P9). The room connection fills the game store; the parts
 * read it through narrow selectors. Phones stack hit, guess panel and players;
 * from 992 px the players sit beside them.
 */
export default function GameScreen() {
  const { t } = useTranslation();
  const { gameId = '' } = useParams();
  const { retry } = useGameRoom(gameId);
  const navigate = useNavigate();
  const hasGame = useGame((s) => s.game !== null);
  const id = useGame((s) => s.game?.id);
  const state = useGame((s) => s.game?.state);
  const status = useGame((s) => s.status);
  const loadError = useGame((s) => s.loadError);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const [addOpen, setAddOpen] = useState(false);

  // phones allow audio only after a gesture: the first tap or key on the screen unlocks it
  useEffect(() => {
    const stopListening = (): void => {
      window.removeEventListener('pointerdown', unlock, true);
      window.removeEventListener('keydown', unlock, true);
    };
    const unlock = (): void => {
      void unlockAudio();
      stopListening();
    };
    window.addEventListener('pointerdown', unlock, true);
    window.addEventListener('keydown', unlock, true);
    return () => {
      stopListening();
      release();
    };
  }, []);

  // the connection's state, said once per change (the banner shows it too)
  const lastStatus = useRef(status);
  useEffect(() => {
    const was = lastStatus.current;
    lastStatus.current = status;
    if (status === 'reconnecting') notify.notification(t('game.reconnecting'), { toast: false, interrupt: true });
    if (status === 'connected' && (was === 'reconnecting' || was === 'lost')) notify.notification(t('game.reconnected'), { toast: false });
    if (status === 'lost') notify.notification(t('game.lost'), { toast: false, interrupt: true });
    // spec §4: when no real player is left the game is deleted; back to the lobby
    // (not for the player whose own leaving deleted it: "You left the game." says it all)
    if (status === 'gone') {
      if (!useGame.getState().closedByOwnLeave) notify.notification(t('game.gone'), { toast: 'warning', interrupt: true });
      void navigate('/');
    }
  }, [status, t, navigate]);

  useShortcuts(
    {
      game_settings: () => setSettingsOpen(true),
      join_game: actions.join,
      leave_game: () => actions.requestLeave(() => setConfirming('leave')),
      play_hit: actions.togglePlay,
      start_stop: () => actions.startStop(() => setConfirming('stop')),
      skip_hit: actions.skip,
      confirm_yes: () => actions.confirm(true),
      confirm_no: () => actions.confirm(false),
      submit_guess: actions.submitGuess,
      next_slot: () => actions.stepSlot(1),
      previous_slot: () => actions.stepSlot(-1),
      no_slot: actions.clearSlot,
      player_info: ({ index }) => actions.speakPlayer(index),
    },
    hasGame,
  );

  if (!hasGame) {
    if (loadError && isGone(loadError)) return <GameGone />;
    if (loadError) {
      return (
        <Alert.Root status="error" role="alert" mt="8">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{errorText(loadError)}</Alert.Title>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={retry}>
            {t('common.retry')}
          </Button>
        </Alert.Root>
      );
    }
    return <LoadingScreen label={t('game.loading')} />;
  }

  return (
    <GamePage
      id={id ?? gameId}
      heading={t('game.title', { id, state: t(`game.state.${state ?? 'Open'}`) })}
      actions={<GameActions onSettings={() => setSettingsOpen(true)} onLeave={() => setConfirming('leave')} onStop={() => setConfirming('stop')} />}
    >
      <SettingsSummary />
      <ConnectionBanner status={status} onRetry={retry} />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }} gap={{ base: '6', lg: '8' }} alignItems="start">
        <Stack gap="6" minW="0">
          <HitSection />
          <GuessPanel />
        </Stack>
        <Box minW="0">
          <PlayerTable onAddPlayer={() => setAddOpen(true)} />
        </Box>
      </Grid>
      <GameSettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <ConfirmDialog ask={confirming} onClose={() => setConfirming(null)} />
      <AddPlayerDialog open={addOpen} onClose={() => setAddOpen(false)} />
      <GameEndedDialog />
    </GamePage>
  );
}

/**
 * The screen's frame, as components/Page lays it out, but with a document
 * title that names the game without its state: a page title is announced
 * whenever it changes, and the state changes every few seconds (the events
 * announce what happened instead).
 */
function GamePage({ id, heading, actions, children }: { id: string; heading: string; actions: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  usePageTitle(t('game.page_title', { id }));
  return (
    <Stack gap="6" py={{ base: '4', md: '8' }}>
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'center' }} gap="3">
        <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
          {heading}
        </Heading>
        {actions}
      </Stack>
      {children}
    </Stack>
  );
}

/** The rules of this game in one line, under the heading. */
export function SettingsSummary() {
  const { t } = useTranslation();
  const settings = useGameSettings();
  const mode = useGame((s) => s.game?.mode);
  const open = useGame((s) => s.game?.state === 'Open');
  if (!settings || !mode) return null;
  // an automatic game's mode is the start's to decide (while it runs, the decided one)
  const clue =
    open && settings.clue_mode_auto
      ? t('game.summary_auto', { count: settings.hit_duration })
      : settings.clue_mode === 'card'
        ? t('game.summary_card')
        : t('game.summary_audio', { count: settings.hit_duration });
  // the time limits matter to everybody at the table (0: no limit, left out)
  const limits = (['guess', 'intercept', 'confirm'] as const)
    .filter((k) => settings[`${k}_timeout`] > 0)
    .map((k) => t(`game.summary_limit_${k}`, { count: settings[`${k}_timeout`] }));
  const summary = t('game.summary', { goal: t('count.hits', { count: settings.goal }), tokens: settings.start_tokens, clue, mode: t(`game.mode.${mode}`) });
  return (
    <Text color="fg.muted" mt="-3">
      {limits.length ? t('game.summary_with_limits', { summary, limits: listNames(limits) }) : summary}
    </Text>
  );
}

/** The connection's trouble, if any: reconnecting (the seat is kept meanwhile) or lost. */
function ConnectionBanner({ status, onRetry }: { status: string; onRetry: () => void }) {
  const { t } = useTranslation();
  if (status !== 'reconnecting' && status !== 'lost') return null;
  const reconnecting = status === 'reconnecting';
  return (
    // no live region: the change is announced once, assertively, by the screen (a status role would read it twice)
    <Alert.Root status={reconnecting ? 'warning' : 'error'} alignItems="center">
      {reconnecting ? <Spinner size="sm" aria-hidden="true" /> : <Alert.Indicator />}
      <Alert.Content>
        <Alert.Title>{t(reconnecting ? 'game.reconnecting' : 'game.lost')}</Alert.Title>
      </Alert.Content>
      {!reconnecting && (
        <Button size="sm" variant="outline" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </Alert.Root>
  );
}
