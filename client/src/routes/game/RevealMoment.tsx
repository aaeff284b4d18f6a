import './recipes.ts';
import './moments.css';
import { Box, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor } from '../../a11y/game-meaning.ts';
import { slotText } from '../../format.ts';
import { useGame, type RevealShown } from '../../stores/game.ts';
import { DisputeButton } from './DisputePanel.tsx';
import { HitCard } from './table/HitCard.tsx';
import { useTvStage } from './table/stage.ts';

/**
 * The reveal as a moment: the card turns over to show its year,
 * says who placed it right (or that nobody did) in green or red, and where it
 * goes: the winner's timeline or the discard pile. It stays while the game's
 * `reveal_time` holds the next turn back (a bar shows the pause running out)
 * and for the rest of the confirmation. With reduced motion the card fades in
 * instead of turning. Not a live region: the live region has said all of it.
 */
export function RevealMoment() {
  const reveal = useGame((s) => s.reveal);
  if (!reveal) return null;
  // a new reveal is a new moment: its animations start over
  return <Moment key={reveal.id} reveal={reveal} />;
}

function Moment({ reveal }: { reveal: RevealShown }) {
  const { t } = useTranslation();
  const { hit, winner, turn, guess, answered } = reveal;
  // the pause counts from the moment the card is on screen (the store moves its end by the time rendering took)
  useLayoutEffect(() => useGame.getState().revealShown(reveal.id), [reveal.id]);
  // the pause as it was when the moment began (the bar runs on its own from there)
  const [pauseMs] = useState(() => Math.max(0, reveal.until - Date.now()));
  // mounted face down, turned over on the next frame: the flip is the moment
  const [turned, setTurned] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setTurned(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  // on the TV the outcome is read from across the room, and names everybody (nobody there is "you")
  const tv = useTvStage();
  const youOr = (a: Actor, key: string, params: Record<string, unknown> = {}): string => t(a.you && !tv ? `${key}_you` : key, { name: a.name, ...params });
  const won = !!winner;
  const tone = won ? 'green' : 'red';
  const result = !winner ? t('table:reveal.nobody') : winner.id === turn?.id ? youOr(winner, 'table:reveal.right') : youOr(winner, 'table:reveal.intercepted');
  const destination = winner ? youOr(winner, 'table:reveal.to_timeline') : t('table:reveal.to_discard');

  return (
    // the card beside what it means, as the mystery card stood beside its buttons: the turn row stays on a phone's first screen
    <Stack direction="row" gap={{ base: '3', md: '6' }} align="center" justify="center" textAlign="start" data-testid="reveal-moment" data-outcome={won ? 'won' : 'discarded'}>
      <Stack gap="2" align="center" flexShrink={0}>
      <Stack gap="1" align="center" className={won ? 'hl-card-won' : 'hl-card-discarded'}>
        {/* the mystery card, turned over once on screen; green or red with its mark once it has turned */}
        <HitCard
          data-testid="hit-card"
          mystery
          revealed={turned}
          size="lg"
          year={hit.year}
          artist={hit.artist}
          title={hit.title}
          outcome={turned ? (won ? 'correct' : 'wrong') : null}
          boxShadow="glow"
          borderRadius="card"
        />
        {hit.belongs_to && (
          <Text color="fg.muted" fontSize="xs" textAlign="center" maxW="10.5rem">
            {t('game.hit.belongs_to', { name: hit.belongs_to })}
          </Text>
        )}
      </Stack>
      {/* "Wrong year?": secondary, under the card whose year it questions (not moved with it) */}
      <DisputeButton />
      </Stack>
      <Stack gap={{ base: '2', md: '3' }} align="start" minW="0" flexShrink={1}>
        <Text fontSize={tv ? { base: 'xl', md: '4xl' } : { base: 'md', md: 'lg' }} fontFamily={tv ? 'heading' : undefined} lineHeight="short" fontWeight="bold" color={`${tone}.fg`} data-testid="reveal-result">
          {result}
        </Text>
        {turn && guess && (
          <Text color="fg.muted" fontSize={tv ? 'xl' : 'sm'}>
            {youOr(turn, 'table:reveal.guess', { slot: slotText(guess) })}
          </Text>
        )}
        <HStack className="hl-slide-down" gap="2" px="3" py="1" borderRadius="full" borderWidth="1px" borderColor={`${tone}.muted`} bg={`${tone}.subtle`} data-destination={winner?.id ?? 'discard'}>
          <Text as="span" aria-hidden="true" color={`${tone}.fg`} fontWeight="bold">
            →
          </Text>
          <Text as="span" fontSize={tv ? 'xl' : 'sm'} fontWeight="medium">
            {destination}
          </Text>
        </HStack>
        {answered !== undefined && <Text fontSize={tv ? 'xl' : 'sm'}>{t(answered ? 'table:reveal.answered_yes' : 'table:reveal.answered_no')}</Text>}
        {pauseMs > 0 && (
          <Box w="full" maxW="sm" h={tv ? '2' : '1'} borderRadius="full" bg="bg.emphasized" overflow="hidden" aria-hidden="true">
            <Box className="hl-shrink" h="full" bg={`${tone}.solid`} style={{ animationDuration: `${pauseMs}ms` }} />
          </Box>
        )}
      </Stack>
    </Stack>
  );
}
