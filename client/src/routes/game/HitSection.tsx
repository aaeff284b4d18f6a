import './recipes.ts';
import { Box, Button, Flex, Heading, Menu, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import * as actions from './game-actions.ts';
import { canClaim, canSkip, claimCandidates } from './game-logic.ts';
import { currentSource, prepare, useHitAudio } from './hit-audio.ts';
import { useDj } from './dj-player.ts';
import { DjPanel, useDjSeat } from './DjPlayer.tsx';
import { RevealMoment } from './RevealMoment.tsx';
import { DisputeButton, DisputePanel, useDisputePhase } from './DisputePanel.tsx';
import { usePerspective } from './use-perspective.ts';
import { ClaimDialog } from './table/ClaimDialog.tsx';
import { HitCard } from './table/HitCard.tsx';
import { DraggableCard } from './table/TableDnd.tsx';
import { useTvStage } from './table/stage.ts';

/**
 * The hit section (docs/product.md#screens): 'no game running', the hidden hit ('unknown', or
 * in `card` clue mode the card's title and artist to read aloud), or the
 * revealed hit with who won it (its moment: RevealMoment); play/stop, and skip
 * and claim with their cost, beside it (claim asks first). Shaped like the game's cards: artist on top,
 * the year large in the middle, title below. While this device places it, the
 * card can be dragged into a gap of the turn player's row.
 */
export function HitSection() {
  const { t } = useTranslation();
  const id = useGame((s) => s.game?.id ?? '');
  const state = useGame((s) => s.game?.state ?? 'Open');
  const clueMode = useGame((s) => s.game?.clue_mode ?? 'audio');
  const draws = useGame((s) => s.game?.draws ?? 0);
  const hitDuration = useGame((s) => s.game?.hit_duration ?? 20);
  const hit = useGame((s) => s.game?.hit ?? null);
  const clue = useGame((s) => s.game?.clue ?? null);
  const scorer = useGame((s) => s.game?.last_scored ?? null);
  const mode = useGame((s) => s.game?.mode);
  const players = useGame((s) => s.game?.players);
  const userId = useSession((s) => s.user?.id);
  const perspective = usePerspective();
  const tv = useTvStage();
  const playing = useHitAudio((s) => s.playing);
  // the dj clue mode: the DJ's device plays the hit from YouTube (DjPanel), the others only hear it
  const djSeat = useDjSeat();
  const djPlaying = useDj((s) => s.playing !== null);
  // the seat asked "claim for 3 tokens?" ('' for one's own), null when not asking
  const [claimFor, setClaimFor] = useState<string | null>(null);
  // a revealed card has its moment (RevealMoment); when the game already went on underneath
  // (the round ended with it, or nobody was there to confirm), nothing of the next turn shows meanwhile
  const moment = useGame((s) => !!s.reveal);
  const beyond = useGame((s) => !!s.reveal && (s.game?.state !== 'Confirming' || s.game.hit?.id !== s.reveal.hit.id));

  const source = mode ? currentSource({ id, mode, state, clue_mode: clueMode, draws, hit_duration: hitDuration, hit }, !!perspective.me) : null;
  const sourceKey = source?.key ?? null;
  // docs/product.md#states: a new draw loads its clip, Confirming the revealed hit, Open clears the audio
  useEffect(() => {
    prepare(source);
    // the key names the source (the object is rebuilt on every render)
  }, [sourceKey]);

  const running = state !== 'Open';
  const revealed = state === 'Confirming' && hit;
  const seated = !!perspective.me;
  const local = perspective.local;

  let scoredText: string | null = null;
  if (revealed) {
    if (!scorer) scoredText = t('game.hit.scored_nobody');
    // the TV names everybody: nobody at the table is "you" there
    else if (!local && !tv && scorer.id === userId) scoredText = t('game.hit.scored_you');
    else scoredText = t('game.hit.scored', { name: scorer.name });
  }

  const candidates = local && players ? claimCandidates({ players }) : [];
  // skip and claim belong to the turn, before the placement (docs/rules.md#skip, #a3): shown to the one who may use them
  // (a Local screen acts for whoever's turn it is), not as disabled clutter on everybody else's phone
  const myTurn = seated && state === 'Guessing' && (local || !!perspective.me?.turn_player);

  // this device places the card now: it can be dragged into a gap
  const picking = !!perspective.actor && (perspective.actor.state === 'Guessing' || perspective.actor.state === 'Intercepting') && state !== 'Confirming';
  const askClaim = (playerId: string): void => {
    const target = players?.find((p) => p.id === (playerId || perspective.actor?.id));
    // not possible now: the action says why; possible: ask first, it costs 3 tokens
    if (!canClaim(target ?? null)) actions.claim(playerId || undefined);
    else setClaimFor(playerId);
  };

  // a year dispute holds the card's place: the table votes (the game is paused), then sees its decision
  const disputePhase = useDisputePhase();
  if (disputePhase) {
    return (
      <Box as="section" id="hit-section" aria-labelledby="hit-heading" scrollMarginTop="5rem">
        <Heading as="h2" id="hit-heading" srOnly>
          {t('game.hit.heading')}
        </Heading>
        <DisputePanel phase={disputePhase} />
      </Box>
    );
  }

  // before a game there is no card: the guess panel says what the table waits for
  if (!running && !moment) return null;

  return (
    <Box as="section" id="hit-section" aria-labelledby="hit-heading" scrollMarginTop="5rem">
      <Heading as="h2" id="hit-heading" srOnly>
        {t('game.hit.heading')}
      </Heading>
      <Flex gap={{ base: '3', md: '5' }} align="center" justify="center" direction={moment ? 'column' : 'row'}>
        {moment ? (
          <RevealMoment />
        ) : (
            <Stack gap="1" align="center" flexShrink={0}>
              {/* card mode: the card's text is read aloud by the turn player */}
              {clue && !revealed && (
                <Text color="fg.muted" fontSize="xs">
                  {t('game.hit.clue')}
                </Text>
              )}
              <DraggableCard enabled={picking}>
                {/* a new draw is a new card (keyed), so a revealed card never flips back */}
                <HitCard
                  key={`${draws}-${hit?.id ?? ''}`}
                  data-testid="hit-card"
                  mystery
                  size="lg"
                  revealed={!!revealed}
                  playing={(!!source && playing === source.key && !revealed) || (!!djSeat?.mine && djPlaying && !revealed)}
                  year={revealed ? hit.year : null}
                  artist={revealed ? hit.artist : (clue?.artist ?? null)}
                  title={revealed ? hit.title : (clue?.title ?? null)}
                  boxShadow={revealed ? 'glow' : picking ? 'overlay' : 'raised'}
                  borderRadius="card"
                />
              </DraggableCard>
              {(revealed ? hit.belongs_to : clue?.belongs_to) && (
                <Text color="fg.muted" fontSize="xs" textAlign="center" maxW="10.5rem" data-testid="hit-belongs-to">
                  {t('game.hit.belongs_to', { name: revealed ? hit.belongs_to : (clue?.belongs_to ?? '') })}
                </Text>
              )}
              {revealed && <DisputeButton />}
            </Stack>
        )}
        {/* beside the card: play, and skip and claim (which exist only before the placement, docs/rules.md#skip, #a3) with their cost */}
        {running && !beyond && (
          <Stack gap="2" minW="0" flexShrink={1} align="stretch" direction={moment ? 'row' : 'column'}>
            {source && (
              <Button colorPalette="accent" aria-keyshortcuts="Alt+Shift+H" onClick={actions.togglePlay}>
                {playing === source.key ? t('game.hit.stop') : t('game.hit.play')}
              </Button>
            )}
            {djSeat?.mine && (
              <Button colorPalette="accent" aria-keyshortcuts="Alt+Shift+H" onClick={actions.togglePlay} data-testid="dj-play">
                {djPlaying ? t('game.hit.stop') : t('game.hit.play')}
              </Button>
            )}
            {myTurn && (
              <Button variant="outline" size="sm" whiteSpace="normal" aria-keyshortcuts="Alt+Shift+I" disabled={!canSkip(perspective.actor)} onClick={actions.skip}>
                {t('game.hit.skip')}
              </Button>
            )}
            {myTurn && !local && (
              <Button variant="outline" size="sm" whiteSpace="normal" disabled={!canClaim(perspective.actor)} onClick={() => askClaim('')}>
                {t('game.hit.claim')}
              </Button>
            )}
            {myTurn && local && mode === 'Local' && (
              <Menu.Root positioning={{ placement: 'bottom' }} onSelect={({ value }) => askClaim(value)}>
                <Menu.Trigger asChild>
                  <Button variant="outline" size="sm" whiteSpace="normal" disabled={candidates.length === 0}>
                    {t('game.hit.claim_for')}
                    <ChevronDownIcon />
                  </Button>
                </Menu.Trigger>
                <Menu.Positioner>
                  <Menu.Content minW="14rem" maxW="calc(100vw - 1rem)">
                    {candidates.map(({ player, enabled }) => (
                      // not disabled: the arrow keys would skip it, and nobody would hear why it cannot claim
                      // full opacity: the recipe's half-transparent disabled look would leave the reason unreadable (2.4:1)
                      <Menu.Item
                        key={player.id}
                        value={player.id}
                        aria-disabled={!enabled || undefined}
                        color={enabled ? undefined : 'fg.muted'}
                        opacity={1}
                        whiteSpace="normal"
                        overflowWrap="anywhere"
                      >
                        {/* a disabled seat says why: only the turn player may claim (docs/rules.md#a3) */}
                        {t(enabled ? 'game.hit.claim_item' : 'game.hit.claim_item_not_turn', { name: player.name, tokens: t('count.tokens', { count: player.tokens }) })}
                      </Menu.Item>
                    ))}
                  </Menu.Content>
                </Menu.Positioner>
              </Menu.Root>
            )}
          </Stack>
        )}
      </Flex>
      {running && <DjPanel />}
      {scoredText && !moment && (
        <Text mt="2" textAlign="center" fontWeight="semibold">
          {scoredText}
        </Text>
      )}
      <ClaimDialog playerId={claimFor} onClose={() => setClaimFor(null)} />
    </Box>
  );
}
