import './recipes.ts';
import { Alert, Button, Grid, Heading, Spinner, Stack, Text, useMediaQuery } from '@chakra-ui/react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { notify } from '../../a11y/notify.ts';
import { unlockAudio } from '../../audio/sfx.ts';
import { usePageTitle } from '../../components/page-title.ts';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { AddPlayerDialog } from './AddPlayerDialog.tsx';
import { ConfirmDialog, type Confirmation } from './ConfirmDialog.tsx';
import { DisputeDialog } from './DisputeDialog.tsx';
import { GameActions } from './GameActions.tsx';
import { EventFeed } from './EventFeed.tsx';
import { GameEndedDialog } from './GameEndedDialog.tsx';
import { GameNotThere } from './GameGone.tsx';
import { GameSettingsDialog, useGameSettings } from './GameSettingsDialog.tsx';
import { GuessPanel, listNames } from './GuessPanel.tsx';
import { gameHeadline, gameTitle } from './headline.ts';
import { HitSection } from './HitSection.tsx';
import { JoinDialog, useAskGuestToJoin } from './JoinDialog.tsx';
import { PlayerTable } from './PlayerTable.tsx';
import { MyRow, OtherRows, TurnRow } from './table/Rows.tsx';
import { TableDnd } from './table/TableDnd.tsx';
import { TableMotion } from './table/motion.tsx';
import { useGameShortcuts } from './use-game-shortcuts.ts';
import { useGameRoom } from './use-game-room.ts';
import { release } from './hit-audio.ts';
import { releaseDj } from './dj-player.ts';
import { useAskWhoIsPlaying, WhoIsPlayingDialog } from './WhoIsPlayingDialog.tsx';

/**
 * The game screen (docs/product.md#screens, /game/{gameId}); loaded lazily with the Colyseus SDK
 * and Howler (budget P9). The room connection fills the game store; the parts
 * read it through narrow selectors. The table: the mystery card, the turn
 * player's row of cards below it, the guess panel (on a phone the bottom
 * action bar), one's own row and the others'; from 992 px the players sit
 * beside it. During a game a phone shows the table first, the game's buttons
 * and rules after it.
 */
export default function GameScreen() {
  const { t } = useTranslation();
  const { gameId = '' } = useParams();
  const { retry } = useGameRoom(gameId);
  const navigate = useNavigate();
  const hasGame = useGame((s) => s.game !== null);
  const id = useGame((s) => s.game?.id);
  const userId = useSession((s) => s.user?.id);
  const state = useGame((s) => s.game?.state);
  // the state in words (strings: a new one only when the words change)
  const heading = useGame((s) => (s.game ? gameHeadline(s.game, userId) : ''));
  const title = useGame((s) => (s.game ? gameTitle(s.game, userId) : ''));
  const status = useGame((s) => s.status);
  const loadError = useGame((s) => s.loadError);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const [addOpen, setAddOpen] = useState(false);
  const [wide = false] = useMediaQuery(['(min-width: 62em)'], { ssr: false });
  const [joinOpen, setJoinOpen] = useState(false);
  const [whoOpen, setWhoOpen] = useState(false);
  const askJoin = useCallback(() => setJoinOpen(true), []);
  const askWho = useCallback(() => setWhoOpen(true), []);
  useAskGuestToJoin(askJoin);
  useAskWhoIsPlaying(askWho);

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
      releaseDj();
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
    // docs/product.md#states: when no real player is left the game is deleted; back to the lobby
    // (not for the player whose own leaving deleted it: "You left the game." says it all)
    if (status === 'gone') {
      if (!useGame.getState().closedByOwnLeave) notify.notification(t('game.gone'), { toast: 'warning', interrupt: true });
      void navigate('/');
    }
  }, [status, t, navigate]);

  useGameShortcuts(hasGame, { askStop: () => setConfirming('stop'), askJoin, askLeave: () => setConfirming('leave'), openSettings: () => setSettingsOpen(true) });

  if (!hasGame) return <GameNotThere loadError={loadError} retry={retry} />;

  const running = state !== undefined && state !== 'Open';
  const actionsBar = <GameActions onJoin={askJoin} onSettings={() => setSettingsOpen(true)} onLeave={() => setConfirming('leave')} onStop={() => setConfirming('stop')} />;
  // during a game a phone's first screen is the table: the game's buttons and rules come after it
  const tableFirst = running && !wide;

  return (
    // the table's motion follows the OS's reduce-motion setting (motion is in this lazy chunk only, budget P9)
    <TableMotion>
    <GamePage title={title || t('game.page_title', { id: id ?? gameId })} heading={heading} actions={tableFirst ? null : actionsBar}>
      {!tableFirst && <SettingsSummary />}
      <ConnectionBanner status={status} onRetry={retry} />
      <EventFeed />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(18rem, 24rem)' }} gap={{ base: '5', lg: '8' }} alignItems="start">
        <Stack gap={{ base: '4', md: '5' }} minW="0">
          <TableDnd>
            <HitSection />
            <TurnRow />
          </TableDnd>
          <GuessPanel />
          <MyRow />
          <OtherRows />
        </Stack>
        <Stack gap="5" minW="0">
          {tableFirst && (
            <Stack gap="3">
              {actionsBar}
              <SettingsSummary />
            </Stack>
          )}
          <EventFeed at="side" />
          <PlayerTable onAddPlayer={() => setAddOpen(true)} />
        </Stack>
      </Grid>
      <GameSettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <ConfirmDialog ask={confirming} onClose={() => setConfirming(null)} />
      <AddPlayerDialog open={addOpen} onClose={() => setAddOpen(false)} />
      <JoinDialog open={joinOpen} onClose={() => setJoinOpen(false)} />
      <WhoIsPlayingDialog open={whoOpen} onClose={() => setWhoOpen(false)} onNext={() => setAddOpen(true)} />
      <DisputeDialog />
      <GameEndedDialog />
    </GamePage>
    </TableMotion>
  );
}

/**
 * The screen's frame, as components/Page lays it out. The heading says the
 * game's state in words and who is waited on; the document title only whose
 * turn it is (headline.ts), so it changes once a turn, not every phase, and
 * it is announced only on entering the page: the turns are announced by the
 * game's events (a title read again each turn would say it twice).
 */
function GamePage({ title, heading, actions, children }: { title: string; heading: string; actions: ReactNode | null; children: ReactNode }) {
  usePageTitle(title, { announce: 'once' });
  return (
    // room below the content for a phone's bottom action bar (its height, set by the guess panel)
    <Stack gap={{ base: '4', md: '6' }} pt={{ base: '4', md: '8' }} pb="calc(var(--action-bar-h, 0px) + 2rem)">
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
        : settings.clue_mode === 'dj'
          ? t('table:dj.summary', { count: settings.hit_duration })
          : t('game.summary_audio', { count: settings.hit_duration });
  // the time limits matter to everybody at the table (0: no limit, left out)
  const limits = (['guess', 'intercept', 'confirm'] as const)
    .filter((k) => settings[`${k}_timeout`] > 0)
    .map((k) => t(`game.summary_limit_${k}`, { count: settings[`${k}_timeout`] }));
  // and how long each reveal holds the table (0: no pause, left out)
  if (settings.reveal_time > 0) limits.push(t('game.summary_reveal', { count: settings.reveal_time }));
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
