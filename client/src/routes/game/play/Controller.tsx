import '../recipes.ts';
import { Box, Button, Heading, HStack, Menu, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PlayerPayload } from '../../../../../shared/protocol/game.ts';
import { notify } from '../../../a11y/notify.ts';
import { useGameShortcuts } from '../use-game-shortcuts.ts';
import { MenuIcon } from '../../../components/icons.tsx';
import { useGame } from '../../../stores/game.ts';
import { useSession } from '../../../stores/session.ts';
import { ConfirmDialog, type Confirmation } from '../ConfirmDialog.tsx';
import { DisputeDialog } from '../DisputeDialog.tsx';
import { DisputeButton, DisputePanel, useDisputePhase } from '../DisputePanel.tsx';
import { Countdown } from '../Countdown.tsx';
import { GameEndedDialog } from '../GameEndedDialog.tsx';
import * as actions from '../game-actions.ts';
import { canClaim, canSkip, perspectiveOf } from '../game-logic.ts';
import { GuessPanel, listNames } from '../GuessPanel.tsx';
import { currentSource, prepare, useHitAudio } from '../hit-audio.ts';
import { usePerspective } from '../use-perspective.ts';
import { ClaimDialog } from '../table/ClaimDialog.tsx';
import { HitCard } from '../table/HitCard.tsx';
import { OpenTable } from '../table/OpenTable.tsx';
import { PlayerAvatar } from '../table/PlayerAvatar.tsx';
import { TurnRow } from '../table/Rows.tsx';
import { DraggableCard, TableDnd } from '../table/TableDnd.tsx';
import { TimelineRow } from '../table/TimelineRow.tsx';
import { TokenChip } from '../table/TokenChip.tsx';
import { outcomeKey, outcomeLine, type ControllerView, type OutcomeLine } from './controller-logic.ts';
import { useListen } from './listen.ts';

type SeatedView = Exclude<ControllerView, { kind: 'join' } | { kind: 'closed' } | { kind: 'seats' }>;

/**
 * The controller of a seated player: who he is and his tokens, the last
 * reveal in one line, whom the game waits for (with their face), the mystery
 * card with skip and claim on his turn, his timeline (the turn player's while
 * he places into it), and his move in big buttons at the bottom (the game
 * screen's guess panel, whose radio buttons are the keyboard and screen-reader
 * control of the gaps). A small menu: listen on this phone, the full game
 * screen, leave.
 */
export function Controller({ view, gameId }: { view: SeatedView; gameId: string }) {
  const { t } = useTranslation();
  const { me, seat } = usePerspective();
  const state = useGame((s) => s.game?.state ?? 'Open');
  const hit = useGame((s) => s.game?.hit ?? null);
  const draws = useGame((s) => s.game?.draws ?? 0);
  const reveal = useGame((s) => s.reveal);
  const listen = useListen((s) => s.listen);
  // a year dispute holds the card's place (the game is paused while the table votes)
  const disputePhase = useDisputePhase();
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const [claimFor, setClaimFor] = useState<string | null>(null);

  // the last reveal's line stays until the next one
  const [outcome, setOutcome] = useState<OutcomeLine | null>(null);
  useEffect(() => {
    if (reveal) setOutcome(outcomeLine(reveal, me?.id));
  }, [reveal, me?.id]);
  useEffect(() => {
    if (state === 'Open') setOutcome(null);
  }, [state]);

  // a buzz when it becomes this phone's move (where the phone can)
  const acting = view.kind === 'act';
  const wasActing = useRef(acting);
  useEffect(() => {
    if (acting && !wasActing.current) navigator.vibrate?.(200);
    wasActing.current = acting;
  }, [acting]);

  useGameShortcuts(true, {
    askStop: () => setConfirming('stop'),
    leave: () => leaveOrRelease(() => setConfirming('leave')),
    // a silent phone says how to listen instead of playing
    playHit: () => (useListen.getState().listen ? actions.togglePlay() : notify.notification(t('controller.listen_needed'), { interrupt: true, toast: 'info' })),
  });

  if (!me) return null;
  // a phone playing a one-device game's seat gives it back instead of leaving (the seat stays in the game)
  const seatOnPhone = seat;
  const running = state !== 'Open';
  const placing = view.kind === 'act' && view.phase !== 'confirming';
  const myTurn = view.kind === 'act' && view.phase === 'guessing' && me.turn_player;
  const revealed = reveal?.hit ?? (state === 'Confirming' ? hit : null);

  return (
    // room below for the bottom action bar (its height, set by the guess panel)
    <Stack gap="4" pb="calc(var(--action-bar-h, 0px) + 1.5rem)" data-testid="controller" data-view={view.kind === 'act' ? view.phase : view.kind}>
      <HStack justify="space-between" gap="3">
        <Heading as="h1" size="lg" minW="0">
          <HStack as="span" gap="2" minW="0">
            <PlayerAvatar name={me.name} colorIndex={me.color} avatar={me.avatar} size="md" as="span" />
            <Text as="span" truncate>
              {me.name}
            </Text>
          </HStack>
        </Heading>
        <HStack gap="2" flexShrink={0}>
          <TokenChip count={me.tokens} size="md" data-testid="my-tokens" />
          <ControllerMenu gameId={gameId} seatOnPhone={seatOnPhone} onLeave={() => leaveOrRelease(() => setConfirming('leave'))} />
        </HStack>
      </HStack>

      {outcome && (
        <Text fontFamily="heading" fontSize="xl" fontWeight="bold" color={outcome.result === 'nobody' ? 'red.fg' : 'green.fg'} data-testid="outcome">
          {t(outcomeKey(outcome), { year: outcome.year, name: outcome.name })}
        </Text>
      )}

      {view.kind === 'lobby' && (
        <Stack gap="3">
          <OpenTable />
          <Text color="fg.muted">{t('controller.lobby_hint')}</Text>
          {me.creator && (
            <Button colorPalette="accent" size="xl" minH="14" aria-keyshortcuts="Alt+Shift+S" onClick={() => actions.startStop(() => setConfirming('stop'))}>
              {t('game.start')}
            </Button>
          )}
        </Stack>
      )}
      {view.kind === 'waiting' && disputePhase !== 'vote' && <WaitingFor on={view.on} />}

      {disputePhase && <DisputePanel phase={disputePhase} />}
      {running && !disputePhase && (
        <TableDnd>
          <HStack gap="4" align="center">
            <DraggableCard enabled={placing}>
              <HitCard
                key={`${draws}-${revealed?.id ?? ''}`}
                data-testid="hit-card"
                mystery
                size="sm"
                revealed={!!revealed}
                year={revealed?.year ?? null}
                artist={revealed?.artist ?? null}
                title={revealed?.title ?? null}
                outcome={reveal ? (reveal.winner ? 'correct' : 'wrong') : null}
                boxShadow={placing ? 'overlay' : 'raised'}
                borderRadius="card"
              />
            </DraggableCard>
            <Stack gap="2" flex="1" minW="0">
              {listen && <ListenButton />}
              {revealed && <DisputeButton />}
              {myTurn && (
                <Button variant="outline" minH="11" whiteSpace="normal" aria-keyshortcuts="Alt+Shift+I" disabled={!canSkip(me)} onClick={actions.skip}>
                  {t('game.hit.skip')}
                </Button>
              )}
              {myTurn && (
                <Button variant="outline" minH="11" whiteSpace="normal" disabled={!canClaim(me)} onClick={() => (canClaim(me) ? setClaimFor('') : actions.claim())}>
                  {t('game.hit.claim')}
                </Button>
              )}
            </Stack>
          </HStack>
          {placing ? <TurnRow /> : <MyTimeline />}
        </TableDnd>
      )}

      {/* while the table votes the game is paused: the move waits */}
      {view.kind === 'act' && disputePhase !== 'vote' && <GuessPanel />}
      <ClaimDialog playerId={claimFor} onClose={() => setClaimFor(null)} />
      <ConfirmDialog ask={confirming} onClose={() => setConfirming(null)} />
      <DisputeDialog />
      <GameEndedDialog />
    </Stack>
  );
}

/** Leave the game (asked first while it runs), or on a one-device game's phone give the seat back to the host's device. */
function leaveOrRelease(confirmLeave: () => void): void {
  const game = useGame.getState().game;
  const p = game ? perspectiveOf(game, useSession.getState().user?.id) : null;
  if (p?.seat && p.me) actions.release(p.me.id);
  else actions.requestLeave(confirmLeave);
}

/** "Waiting for Ana", with her face and what she does; the time she has left. */
function WaitingFor({ on }: { on: readonly PlayerPayload[] }) {
  const { t } = useTranslation();
  const state = useGame((s) => s.game?.state ?? 'Open');
  const deadline = useGame((s) => s.game?.deadline ?? null);
  const first = on[0];
  const doing =
    state === 'Guessing' ? t('controller.waiting_place', { name: first?.name ?? '' }) : state === 'Intercepting' ? t('controller.waiting_intercept') : t('controller.waiting_confirm', { name: first?.name ?? '' });
  return (
    <HStack gap="4" p="4" borderRadius="panel" bg="bg.subtle" borderWidth="1px" data-testid="waiting-for">
      {first && <PlayerAvatar name={first.name} colorIndex={first.color} avatar={first.avatar} size="xl" flexShrink={0} />}
      <Stack gap="1" minW="0" flex="1">
        <Heading as="h2" size="lg" overflowWrap="anywhere">
          {on.length > 1 ? t('controller.waiting_for_many', { names: listNames(on.map((p) => p.name)) }) : t('controller.waiting_for', { name: first?.name ?? '' })}
        </Heading>
        <Text color="fg.muted">{doing}</Text>
        {deadline !== null && (
          <Box alignSelf="start">
            <Countdown deadline={deadline} speak={false} />
          </Box>
        )}
      </Stack>
    </HStack>
  );
}

/** One's own timeline, while not placing into the turn player's. */
function MyTimeline() {
  const { t } = useTranslation();
  const { me } = usePerspective();
  if (!me) return null;
  return (
    <Box as="section" aria-labelledby="play-my-row" minW="0">
      <Heading as="h2" id="play-my-row" size="sm" mb="1">
        {t('table:row.heading_you')}
      </Heading>
      <TimelineRow player={me} size="compact" labelId="play-my-row" />
    </Box>
  );
}

/** Play/stop the hit on this phone (only while listening on it: otherwise nothing loads the clip). */
function ListenButton() {
  const { t } = useTranslation();
  const game = useGame((s) => s.game);
  const playing = useHitAudio((s) => s.playing);
  const source = game ? currentSource(game, true) : null;
  const key = source?.key ?? null;
  useEffect(() => {
    prepare(source);
    // the key names the source (the object is rebuilt on every render)
  }, [key]);
  if (!source) return null;
  return (
    <Button colorPalette="accent" minH="11" aria-keyshortcuts="Alt+Shift+H" onClick={actions.togglePlay}>
      {playing === source.key ? t('game.hit.stop') : t('game.hit.play')}
    </Button>
  );
}

/** Listen on this phone, the full game screen, leave. */
function ControllerMenu({ gameId, seatOnPhone, onLeave }: { gameId: string; seatOnPhone: boolean; onLeave: () => void }) {
  const { t } = useTranslation();
  const listen = useListen((s) => s.listen);
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} onSelect={({ value }) => value === 'leave' && onLeave()}>
      <Menu.Trigger asChild>
        <Button variant="outline" minW="11" minH="11" px="2" aria-label={t('controller.menu')}>
          <MenuIcon />
        </Button>
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content minW="16rem">
          <Menu.CheckboxItem
            value="listen"
            minH="11"
            checked={listen}
            onCheckedChange={(on) => {
              useListen.getState().setListen(on);
              notify.notification(t(on ? 'controller.listen_on' : 'controller.listen_off'), { toast: false });
            }}
          >
            {t('controller.listen')}
            <Menu.ItemIndicator />
          </Menu.CheckboxItem>
          {/* a one-device game's screen is the host's: a phone sees only its own seat */}
          {!seatOnPhone && (
            <Menu.Item value="game" minH="11" asChild>
              <RouterLink to={`/game/${encodeURIComponent(gameId)}`}>{t('controller.full_screen')}</RouterLink>
            </Menu.Item>
          )}
          <Menu.Item value="leave" minH="11" aria-keyshortcuts="Alt+Shift+Q">
            {t(seatOnPhone ? 'controller.release' : 'game.leave')}
          </Menu.Item>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  );
}
