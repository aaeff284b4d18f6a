import '../recipes.ts';
import { Box, Button, Grid, Heading, HStack, Link, Spinner, Stack, Switch, Text } from '@chakra-ui/react';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { usePageTitle } from '../../../components/page-title.ts';
import { useGame } from '../../../stores/game.ts';
import { useSettings } from '../../../stores/settings.ts';
import { applyColorScheme, applyStoredColorScheme } from '../../../theme.ts';
import { ConfirmDialog, type Confirmation } from '../ConfirmDialog.tsx';
import { DisputeDialog } from '../DisputeDialog.tsx';
import { EventFeed } from '../EventFeed.tsx';
import { GameEndedDialog } from '../GameEndedDialog.tsx';
import { GameNotThere } from '../GameGone.tsx';
import { GuessPanel } from '../GuessPanel.tsx';
import { gameHeadline, gameTitle } from '../headline.ts';
import { release } from '../hit-audio.ts';
import { HitSection } from '../HitSection.tsx';
import { TurnRow } from '../table/Rows.tsx';
import { TableDnd } from '../table/TableDnd.tsx';
import { TableMotion } from '../table/motion.tsx';
import { TvStage } from '../table/stage.ts';
import { useGameShortcuts } from '../use-game-shortcuts.ts';
import { useGameRoom } from '../use-game-room.ts';
import { tvFontSize } from './tv-logic.ts';
import { TvJoin } from './TvJoin.tsx';
import { TvScoreboard } from './TvScoreboard.tsx';
import { useTvAudio, type TvAudio } from './use-tv-audio.ts';
import { speechAvailable, useTvSpeech } from './use-tv-speech.ts';

/**
 * The TV view of a game (docs/product.md#screens "TV", /game/{gameId}/tv): the shared screen of
 * a party, made for 1920×1080 seen from 3 m. A viewer, not a seat: it shows the
 * turn player's row, the mystery card with its countdown, the feed, the
 * scoreboard and the QR code to join; it plays the hits (after one tap or key
 * press), says everything it shows through its own live region (and aloud when
 * asked), and the creator's shortcuts work here, as do a seated user's.
 */
export default function TvScreen() {
  const { gameId = '' } = useParams();
  // a shared screen: its words name every player (nobody at the table is "you")
  const { retry } = useGameRoom(gameId, { named: true });
  const hasGame = useGame((s) => s.game !== null);
  const loadError = useGame((s) => s.loadError);
  const status = useGame((s) => s.status);
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  useGameShortcuts(hasGame, { askStop: () => setConfirming('stop') });
  useStage();
  const audio = useTvAudio();
  useEffect(() => () => release(), []);

  if (!hasGame) return <GameNotThere loadError={loadError} gone={status === 'gone'} retry={retry} />;
  return (
    <TableMotion>
      <TvStage.Provider value>
        <TvLayout gameId={gameId} audio={audio} />
      </TvStage.Provider>
      <ConfirmDialog ask={confirming} onClose={() => setConfirming(null)} />
      <DisputeDialog />
      <GameEndedDialog />
    </TableMotion>
  );
}

/**
 * The page as a stage: the type scaled to the screen (every part of the table is
 * sized in rem), and the dark scheme unless the user chose light or dark himself.
 */
function useStage(): void {
  const preference = useSettings((s) => s.colorScheme);
  useLayoutEffect(() => {
    const root = document.documentElement;
    const size = (): void => {
      root.style.fontSize = `${tvFontSize(window.innerWidth, window.innerHeight)}px`;
    };
    size();
    window.addEventListener('resize', size);
    return () => {
      window.removeEventListener('resize', size);
      root.style.fontSize = '';
    };
  }, []);
  useLayoutEffect(() => {
    if (preference !== 'auto') return;
    const dark = (): void => applyColorScheme('dark');
    dark();
    // the shell applies `auto` in its own effect, which runs after this one when the setting changes back to it
    const later = setTimeout(dark, 0);
    // and it follows the system's scheme under `auto`: the stage stays dark (this listener runs after the shell's)
    const query = window.matchMedia?.('(prefers-color-scheme: dark)');
    query?.addEventListener('change', dark);
    return () => {
      clearTimeout(later);
      query?.removeEventListener('change', dark);
      applyStoredColorScheme();
    };
  }, [preference]);
}

function TvLayout({ gameId, audio }: { gameId: string; audio: TvAudio }) {
  const { t } = useTranslation();
  const heading = useGame((s) => (s.game ? gameHeadline(s.game, undefined) : ''));
  const title = useGame((s) => (s.game ? gameTitle(s.game, undefined) : ''));
  const open = useGame((s) => s.game?.state === 'Open');
  const status = useGame((s) => s.status);
  usePageTitle(t('tv.page_title', { title: title || gameId }), { announce: 'once' });

  return (
    <Grid
      data-testid="tv-screen"
      minH="100dvh"
      // a TV does not scroll: from a laptop's width the page is the screen, and the side column fits it (below)
      h={{ lg: '100dvh' }}
      p={{ base: '3', md: '5' }}
      // room below for a phone's bottom action bar (the guess panel sets its height)
      pb="calc(var(--action-bar-h, 0px) + 1.25rem)"
      gap={{ base: '4', md: '5' }}
      templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(18rem, 24rem)' }}
      templateRows={{ lg: 'auto minmax(0, 1fr)' }}
    >
      <HStack gridColumn={{ lg: '1 / -1' }} justify="space-between" align="center" gap="4" wrap="wrap">
        <Heading as="h1" fontFamily="heading" fontWeight="800" fontSize={{ base: '2xl', md: '4xl' }} lineHeight="short" minW="0">
          {heading}
        </Heading>
        <HStack gap="3" wrap="wrap">
          {(status === 'reconnecting' || status === 'lost') && (
            <HStack gap="2" color="fg.warning">
              {status === 'reconnecting' && <Spinner size="sm" aria-hidden="true" />}
              <Text fontWeight="semibold">{t(status === 'reconnecting' ? 'game.reconnecting' : 'game.lost')}</Text>
            </HStack>
          )}
          <SpeechSwitch />
          <Link asChild variant="underline" minH="44px" display="inline-flex" alignItems="center">
            <RouterLink to={`/game/${encodeURIComponent(gameId)}`}>{t('tv.back_to_game')}</RouterLink>
          </Link>
        </HStack>
      </HStack>

      <Stack as="section" aria-label={t('tv.stage_label')} gap="4" minW="0" justify={open ? 'center' : 'start'}>
        <SoundPrompt audio={audio} />
        {open ? (
          // side by side from a laptop's width: the way in and what the table waits for, on one screen
          <Stack gap="6" align="center" justify="center" direction={{ base: 'column', lg: 'row' }}>
            <TvJoin big />
            <Box flex="1" minW="0" maxW="36rem">
              <GuessPanel />
            </Box>
          </Stack>
        ) : (
          <>
            <TableDnd>
              <HitSection />
              <GuessPanel />
              <TurnRow size="tv" />
            </TableDnd>
          </>
        )}
      </Stack>

      <Stack as="aside" aria-label={t('tv.side_label')} gap="4" minW="0" minH="0">
        <Box flexShrink="0">
          <TvScoreboard />
        </Box>
        {/* many players: the feed gives up its oldest entries (at its bottom) so the QR corner stays on the screen */}
        <Box flex={{ lg: '1' }} minH="0" overflow={{ lg: 'hidden' }} maskImage={{ lg: 'linear-gradient(to bottom, black calc(100% - 1.5rem), transparent)' }}>
          <EventFeed at="side" />
        </Box>
        <EventFeed at="top" />
        {!open && (
          <Box flexShrink="0">
            <TvJoin big={false} />
          </Box>
        )}
      </Stack>
    </Grid>
  );
}

/** Until the page may play sound, a big request for one tap or key press; then why no hit plays, if none does. */
function SoundPrompt({ audio }: { audio: TvAudio }) {
  const { t } = useTranslation();
  if (!audio.unlocked) {
    return (
      <Stack
        data-testid="tv-sound-prompt"
        direction={{ base: 'column', md: 'row' }}
        align="center"
        justify="center"
        gap="4"
        p={{ base: '4', md: '6' }}
        borderRadius="panel"
        borderWidth="2px"
        borderColor="accent.solid"
        bg="accent.subtle"
        textAlign="center"
      >
        <Text fontFamily="heading" fontWeight="800" fontSize={{ base: 'xl', md: '3xl' }} lineHeight="short">
          {t('tv.sound_prompt')}
        </Text>
        <Button colorPalette="accent" size="lg" onClick={audio.unlock}>
          {t('tv.sound_button')}
        </Button>
      </Stack>
    );
  }
  if (!audio.silent) return null;
  return (
    <Text color="fg.muted" fontSize="lg" textAlign="center" data-testid="tv-silent">
      {t(`tv.silent_${audio.silent}`)}
    </Text>
  );
}

/** Spoken announcements, off by default, remembered on this device. */
function SpeechSwitch() {
  const { t } = useTranslation();
  const [on, setOn] = useTvSpeech();
  if (!speechAvailable()) return null;
  return (
    <Switch.Root checked={on} onCheckedChange={(e) => setOn(e.checked)} colorPalette="accent" minH="44px" data-testid="tv-speech">
      <Switch.HiddenInput />
      {/* an edge that shows the switch while off (the bare track is too faint on the light page, WCAG 1.4.11) */}
      <Switch.Control borderWidth="2px" borderColor={on ? 'transparent' : 'fg.muted'}>
        <Switch.Thumb />
      </Switch.Control>
      <Switch.Label>{t('tv.speech')}</Switch.Label>
    </Switch.Root>
  );
}
