import './recipes.ts';
import './moments.css';
import { Badge, Box, Button, Heading, Portal, Stack, Table, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MIN_PLAYERS } from '../../../../shared/rules/constants.ts';
import type { HitPayload } from '../../../../shared/protocol/game.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { WinIllustration } from '../../components/illustrations/WinIllustration.tsx';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { hitText } from '../../format.ts';
import * as actions from './game-actions.ts';
import { endResult } from './game-logic.ts';
import { usePerspective } from './use-perspective.ts';
import { HitCard } from './table/HitCard.tsx';
import { PlayerAvatar } from './table/PlayerAvatar.tsx';
import { TokenChip } from './table/TokenChip.tsx';
import { useTvStage } from './table/stage.ts';

/** Whether the system asks for less motion (no confetti then). */
const reducedMotion = (): boolean => typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * The end of a game as a celebration (docs/product.md#screens, docs/rules.md#a11): the
 * winner's name large, the timeline that won laid out in year order, the final
 * standings, confetti as the game has just ended (not with reduced motion, nor
 * when the results are looked at again), and the two next steps: "Play again"
 * (the creator starts the same table again: same players, same settings; the
 * others see whom they wait for) and "Back to the lobby" (a player leaves the
 * game, so his empty seat does not hold up the next round). The win or lose
 * sound came with the winning card (the end event). A dialog: the winner is
 * its first words, focused as it opens.
 */
export function GameEndedDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ended = useGame((s) => s.ended);
  const mode = useGame((s) => s.game?.mode);
  const open = useGame((s) => s.game?.state === 'Open');
  // the winning card's year is being disputed: the round may not be over (docs/rules.md#disputes)
  const voting = useGame((s) => s.game?.dispute?.outcome === null);
  const playerCount = useGame((s) => s.game?.players.length ?? 0);
  const creator = useGame((s) => s.game?.players.find((p) => p.creator) ?? null);
  const userId = useSession((s) => s.user?.id);
  const perspective = usePerspective();
  const { me } = perspective;
  const tv = useTvStage();
  const headlineRef = useRef<HTMLParagraphElement>(null);
  const close = (): void => useGame.getState().showEnded(null);
  // a phone playing a Local seat is that seat; the TV names the winner, whoever looks at it
  const local = mode === 'Local' && !perspective.seat;
  const viewer = tv ? undefined : perspective.seat ? me?.id : userId;
  const result = ended ? endResult(ended.standings, ended.winner, viewer, local) : null;

  const headline = !result ? '' : result.outcome === 'you' ? t('table:ended.you') : result.outcome === 'nobody' ? t('table:ended.nobody') : t('table:ended.other', { name: result.winnerName });
  const winner = ended?.winner ?? null;
  const timeline = winner ? [...winner.hits].sort((a, b) => a.year - b.year || a.title.localeCompare(b.title)) : [];
  const tooFew = playerCount < MIN_PLAYERS;

  const playAgain = (): void => actions.startStop(() => undefined);
  const backToLobby = (): void => {
    // a seat left empty would hold up the next round (its turns wait for the absent player)
    if (me) actions.leave();
    close();
    void navigate('/');
  };

  return (
    <AppDialog
      open={!!result && !voting}
      onClose={close}
      size="lg"
      title={t('table:ended.title')}
      initialFocusEl={() => headlineRef.current}
      footer={
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" w="full" align="stretch">
          {me?.creator ? (
            <Button colorPalette="accent" size="lg" flex="1" disabled={!open || tooFew} onClick={playAgain} aria-describedby="play-again-hint">
              {tooFew ? t('game.not_enough_players') : t('table:ended.play_again')}
            </Button>
          ) : (
            creator && (
              <Text flex="1" alignSelf="center" color="fg.muted" textAlign={{ base: 'center', sm: 'start' }} data-testid="waiting-for-creator">
                {t('table:ended.waiting_for', { name: creator.name })}
              </Text>
            )
          )}
          <Button size="lg" variant="outline" flex="1" onClick={backToLobby} aria-describedby={me ? 'back-to-lobby-hint' : undefined}>
            {t('table:ended.back_to_lobby')}
          </Button>
          {me?.creator && (
            <Text id="play-again-hint" srOnly>
              {t('table:ended.play_again_hint')}
            </Text>
          )}
          {me && (
            <Text id="back-to-lobby-hint" srOnly>
              {t('table:ended.back_to_lobby_hint')}
            </Text>
          )}
        </Stack>
      }
    >
      {result && (
        <Stack gap="6">
          <Stack gap="1" align="center" textAlign="center" pt="2">
            {winner ? (
              // the gold record with the winner's face on its label: the table sees at once who it is
              <Box position="relative" className="hl-pop" w="208px" h="160px">
                <WinIllustration width="208" height="160" />
                <PlayerAvatar name={winner.name} colorIndex={winner.color} avatar={winner.avatar} size="md" position="absolute" left="50%" top="76.8px" transform="translate(-50%, -50%)" borderWidth="2px" borderColor="white" />
              </Box>
            ) : (
              <Trophy tone="gray" />
            )}
            <Text
              ref={headlineRef}
              tabIndex={-1}
              className="hl-pop"
              fontSize={{ base: '3xl', sm: '4xl' }}
              lineHeight="short"
              overflowWrap="anywhere"
              fontWeight="black"
              color={result.outcome === 'nobody' ? undefined : 'accent.fg'}
              outline="none"
              data-testid="end-outcome"
            >
              {headline}
            </Text>
            {/* the card that ended it is shown nowhere else (the game goes Open at once); only as the game ends, not under "Show results" later */}
            {ended?.hit && <Text color="fg.muted">{t('table:ended.last_card', { hit: hitText(ended.hit) })}</Text>}
          </Stack>

          {winner && timeline.length > 0 && (
            <Box as="section" aria-labelledby="winner-timeline">
              <Heading as="h3" id="winner-timeline" size="sm" mb="2" overflowWrap="anywhere">
                {result.outcome === 'you' ? t('table:ended.timeline_you') : t('table:ended.timeline', { name: winner.name })}
              </Heading>
              <Box as="ol" display="flex" flexWrap="wrap" gap="2" data-testid="winner-timeline">
                {timeline.map((hit) => (
                  <TimelineCard key={hit.id} hit={hit} last={hit.id === ended?.hit?.id} />
                ))}
              </Box>
            </Box>
          )}

          {result.rows.length > 0 && (
            <Table.Root size="sm" variant="line">
              <Table.Caption captionSide="top" textAlign="start" mb="2" color="fg.muted">
                {t('table:ended.caption')}
              </Table.Caption>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader scope="col">{t('table:ended.player')}</Table.ColumnHeader>
                  <Table.ColumnHeader scope="col" textAlign="end">
                    {t('table:ended.tokens')}
                  </Table.ColumnHeader>
                  <Table.ColumnHeader scope="col" textAlign="end">
                    {t('table:ended.hits')}
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {result.rows.map((row) => (
                  <Table.Row key={row.id}>
                    {/* a 32-character name of one word breaks, so the score columns stay on a phone's screen */}
                    <Table.Cell fontWeight={row.winner ? 'bold' : undefined} whiteSpace="normal" overflowWrap="anywhere">
                      <PlayerAvatar name={row.name} colorIndex={row.color} avatar={row.avatar} size="sm" me="2" verticalAlign="middle" />
                      {row.name}
                      {row.winner && ' '}
                      {row.winner && (
                        <Badge ms="2" size="sm" colorPalette="accent">
                          {t('table:ended.winner')}
                        </Badge>
                      )}
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <TokenChip count={row.tokens} size="sm" label={String(row.tokens)} />
                    </Table.Cell>
                    <Table.Cell textAlign="end">{row.hits}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </Stack>
      )}
      {result && ended?.celebrate && result.outcome !== 'nobody' && !reducedMotion() && <Confetti />}
    </AppDialog>
  );
}

/** One card of the winning timeline, as on the table (decade colour, the year large); the card that won the game marked. */
function TimelineCard({ hit, last }: { hit: HitPayload; last: boolean }) {
  return (
    <Box as="li" data-last={last || undefined} borderRadius="card" outline={last ? '3px solid' : undefined} outlineColor="accent.solid" outlineOffset="2px">
      <HitCard year={hit.year} artist={hit.artist} title={hit.title} size="sm" />
    </Box>
  );
}

/** A cup, drawn for the end screen (decorative). */
function Trophy({ tone }: { tone: 'gray' }) {
  return (
    <Box color={`${tone}.fg`} className="hl-pop" aria-hidden="true">
      <svg width="56" height="56" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" focusable="false">
        <path d="M8 21h8M12 17v4M7 4h10v5a5 5 0 01-10 0zM7 6H4a3 3 0 003 4M17 6h3a3 3 0 01-3 4" />
      </svg>
    </Box>
  );
}

/** Confetti over everything while the celebration opens; the code loads only now. */
function Confetti() {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let stop: (() => void) | null = null;
    let gone = false;
    void import('./confetti.ts').then(({ launchConfetti }) => {
      if (!gone && ref.current) stop = launchConfetti(ref.current);
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, []);
  return (
    <Portal>
      <canvas
        ref={ref}
        aria-hidden="true"
        data-testid="confetti"
        // over the dialog (Chakra's dialogs sit at the popover layer, 1500), under toasts (1700)
        style={{ position: 'fixed', inset: 0, width: '100vw', height: '100dvh', pointerEvents: 'none', zIndex: 1650 }}
      />
    </Portal>
  );
}
