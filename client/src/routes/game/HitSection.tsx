import './recipes.ts';
import { Box, Button, Heading, Menu, Stack, Text, Wrap } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import * as actions from './game-actions.ts';
import { canClaim, canSkip, claimCandidates } from './game-logic.ts';
import { currentSource, prepare, useHitAudio } from './hit-audio.ts';
import { RevealMoment } from './RevealMoment.tsx';
import { usePerspective } from './use-perspective.ts';

/**
 * The hit section (spec §2): 'no game running', the hidden hit ('unknown', or
 * in `card` clue mode the card's title and artist to read aloud), or the
 * revealed hit with who won it (its moment: RevealMoment); play/stop, skip and
 * claim below. Shaped like the game's cards: artist on top, the year large in
 * the middle, title below.
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
  const playing = useHitAudio((s) => s.playing);
  // a revealed card has its moment (RevealMoment); when the game already went on underneath
  // (the round ended with it, or nobody was there to confirm), nothing of the next turn shows meanwhile
  const moment = useGame((s) => !!s.reveal);
  const beyond = useGame((s) => !!s.reveal && (s.game?.state !== 'Confirming' || s.game.hit?.id !== s.reveal.hit.id));

  const source = mode ? currentSource({ id, mode, state, clue_mode: clueMode, draws, hit_duration: hitDuration, hit }, !!perspective.me) : null;
  const sourceKey = source?.key ?? null;
  // spec §4: a new draw loads its clip, Confirming the revealed hit, Open clears the audio
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
    else if (!local && scorer.id === userId) scoredText = t('game.hit.scored_you');
    else scoredText = t('game.hit.scored', { name: scorer.name });
  }

  const candidates = local && players ? claimCandidates({ players }) : [];

  return (
    <Box as="section" aria-labelledby="hit-heading" borderWidth="1px" borderRadius="l3" p={{ base: '4', md: '5' }} bg="bg.subtle">
      <Heading as="h2" id="hit-heading" size="lg" mb="3">
        {t('game.hit.heading')}
      </Heading>
      {moment ? (
        <RevealMoment />
      ) : !running ? (
        <Text color="fg.muted">{t('game.hit.none')}</Text>
      ) : (
        <Box
          borderWidth="2px"
          borderColor={revealed ? 'purple.solid' : 'border'}
          borderRadius="l3"
          bg="bg"
          p="4"
          textAlign="center"
          maxW="sm"
          mx="auto"
          data-testid="hit-card"
        >
          {revealed ? (
            <Stack gap="1">
              <Text fontWeight="semibold">
                <Text as="span" srOnly>
                  {t('game.hit.artist')}:{' '}
                </Text>
                {hit.artist}
              </Text>
              <Text fontSize="5xl" fontWeight="bold" lineHeight="1.1" color="purple.fg">
                <Text as="span" srOnly>
                  {t('game.hit.year')}:{' '}
                </Text>
                {hit.year}
              </Text>
              <Text fontStyle="italic">
                <Text as="span" srOnly>
                  {t('game.hit.title')}:{' '}
                </Text>
                {hit.title}
              </Text>
              {hit.belongs_to && (
                <Text color="fg.muted" fontSize="sm">
                  {t('game.hit.belongs_to', { name: hit.belongs_to })}
                </Text>
              )}
            </Stack>
          ) : clue ? (
            <Stack gap="1">
              <Text color="fg.muted" fontSize="sm">
                {t('game.hit.clue')}
              </Text>
              <Text fontWeight="semibold">
                <Text as="span" srOnly>
                  {t('game.hit.artist')}:{' '}
                </Text>
                {clue.artist}
              </Text>
              <Text fontSize="5xl" fontWeight="bold" lineHeight="1.1" aria-hidden="true">
                ?
              </Text>
              <Text fontStyle="italic">
                <Text as="span" srOnly>
                  {t('game.hit.title')}:{' '}
                </Text>
                {clue.title}
              </Text>
              {clue.belongs_to && (
                <Text color="fg.muted" fontSize="sm">
                  {t('game.hit.belongs_to', { name: clue.belongs_to })}
                </Text>
              )}
            </Stack>
          ) : (
            <Stack gap="1" align="center">
              <Text fontSize="5xl" fontWeight="bold" lineHeight="1.1" aria-hidden="true">
                ?
              </Text>
              <Text>{t('game.hit.unknown')}</Text>
            </Stack>
          )}
        </Box>
      )}
      {scoredText && !moment && (
        <Text mt="3" textAlign="center" fontWeight="semibold">
          {scoredText}
        </Text>
      )}
      {running && !beyond && (
        <Wrap mt="4" gap="2" justify="center">
          {source && (
            <Button colorPalette="purple" aria-keyshortcuts="Alt+Shift+H" onClick={actions.togglePlay}>
              {playing === source.key ? t('game.hit.stop') : t('game.hit.play')}
            </Button>
          )}
          {/* skip and claim exist only before the placement (rules B8, A3) */}
          {seated && state === 'Guessing' && (
            <Button variant="outline" aria-keyshortcuts="Alt+Shift+I" disabled={!canSkip(perspective.actor)} onClick={actions.skip}>
              {t('game.hit.skip')}
            </Button>
          )}
          {seated && state === 'Guessing' && !local && (
            <Button variant="outline" disabled={!canClaim(perspective.actor)} onClick={() => actions.claim()}>
              {t('game.hit.claim')}
            </Button>
          )}
          {seated && state === 'Guessing' && local && mode === 'Local' && (
            <Menu.Root positioning={{ placement: 'bottom' }} onSelect={({ value }) => actions.claim(value)}>
              <Menu.Trigger asChild>
                <Button variant="outline" disabled={candidates.length === 0}>
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
                      {/* a disabled seat says why: only the turn player may claim (rules A3) */}
                      {t(enabled ? 'game.hit.claim_item' : 'game.hit.claim_item_not_turn', { name: player.name, tokens: t('count.tokens', { count: player.tokens }) })}
                    </Menu.Item>
                  ))}
                </Menu.Content>
              </Menu.Positioner>
            </Menu.Root>
          )}
        </Wrap>
      )}
    </Box>
  );
}
