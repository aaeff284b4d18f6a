import './recipes.ts';
import './moments.css';
import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DisputePayload } from '../../../../shared/protocol/game.ts';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { Countdown } from './Countdown.tsx';
import * as actions from './game-actions.ts';
import { cardHolder, disputers, disputesLeft, seatsHere, tally, votersHere } from './dispute-logic.ts';
import { DisputeEvidence, useEvidence } from './DisputeEvidence.tsx';
import { seatFrame } from './LocalInterceptPanel.tsx';
import { HitCard } from './table/HitCard.tsx';
import { PlayerAvatar } from './table/PlayerAvatar.tsx';
import { useTvStage } from './table/stage.ts';
import { usePerspective } from './use-perspective.ts';

/** How long the table's decision holds the card's place before play resumes on screen (ms). */
export const DECISION_MS = 5000;

/**
 * The dispute on the table (docs/product.md#disputes): while the table votes,
 * the card, "Ana says 1975 is wrong: 1969?", the evidence (folded away), a
 * "Keep 1975" and a "Take 1969" button for each seat this device votes for
 * (a Local game's shared screen: every seat without a phone, each in its own
 * row), who has voted and how, the time left and how many votes are missing.
 * Once decided, a moment: the card turns over to the table's year and goes
 * where it belongs now. Null when there is nothing to show.
 */
export function DisputePanel({ phase }: { phase: DisputePhase }) {
  const dispute = useGame((s) => s.game?.dispute ?? null);
  if (!dispute || !phase) return null;
  if (phase === 'vote' && dispute.outcome === null) return <VotePanel dispute={dispute} />;
  if (phase.startsWith('decided')) return <Decision key={phase} dispute={dispute} />;
  return null;
}

/** What of a dispute holds the card's place now: its vote, its decision's moment (keyed by when), or nothing. */
export type DisputePhase = 'vote' | `decided:${number}` | null;

/**
 * The dispute's phase on this screen. The decision is a moment for whoever
 * saw the vote (DECISION_MS long); a screen opened later shows the table as it is.
 */
export function useDisputePhase(): DisputePhase {
  const dispute = useGame((s) => s.game?.dispute ?? null);
  const open = dispute !== null && dispute.outcome === null;
  const decided = dispute !== null && dispute.outcome !== null;
  // derived while rendering (no frame of the plain table between the vote and its decision)
  const [seen, setSeen] = useState<{ open: boolean; decidedAt: number | null }>({ open, decidedAt: null });
  if (seen.open !== open) setSeen({ open, decidedAt: !open && decided && seen.open ? Date.now() : null });
  const decidedAt = seen.decidedAt;
  useEffect(() => {
    if (decidedAt === null) return;
    const timer = setTimeout(() => setSeen((v) => ({ ...v, decidedAt: null })), DECISION_MS);
    return () => clearTimeout(timer);
  }, [decidedAt]);
  if (open) return 'vote';
  return decidedAt !== null ? `decided:${decidedAt}` : null;
}

function VotePanel({ dispute }: { dispute: DisputePayload }) {
  const { t } = useTranslation();
  const game = useGame((s) => s.game);
  const userId = useSession((s) => s.user?.id);
  const perspective = usePerspective();
  const tv = useTvStage();
  const [showEvidence, setShowEvidence] = useState(false);
  const evidence = useEvidence(game?.id ?? '', dispute.hit.id, showEvidence);
  if (!game) return null;
  const by = game.players.find((p) => p.id === dispute.by);
  const card = dispute.hit.year;
  // nobody is "you" on a TV or a Local game's shared screen
  const youBy = !tv && !perspective.local && dispute.by === (perspective.me?.id ?? userId);
  const says = t(youBy ? 'table:dispute.says_you' : 'table:dispute.says', { name: by?.name ?? '', year: card, proposed: dispute.year });
  const mine = seatsHere(game, perspective);
  const pending = votersHere(game, perspective);
  const count = tally(dispute);
  const rowPerSeat = perspective.local && mine.length > 1;
  const big = tv ? '2xl' : 'lg';

  return (
    <Stack as="section" aria-labelledby="dispute-heading" gap="4" w="full" maxW={tv ? '6xl' : '3xl'} mx="auto" data-testid="dispute-panel" borderWidth="2px" borderColor="accent.solid" borderRadius="xl" p={{ base: '3', md: '5' }} bg="bg.panel">
      <HStack justify="space-between" align="start" gap="3" wrap="wrap">
        <Text as="h3" id="dispute-heading" fontSize={tv ? '3xl' : 'xl'} fontFamily="heading" fontWeight="bold">
          {t('table:dispute.heading')}
        </Text>
        {dispute.until !== null && <Countdown deadline={dispute.until} speak={pending.length > 0} />}
      </HStack>
      <Stack direction="row" gap={{ base: '3', md: '5' }} align="center">
        <HitCard mystery revealed size={tv ? 'xl' : 'md'} year={card} artist={dispute.hit.artist} title={dispute.hit.title} boxShadow="glow" borderRadius="card" flexShrink={0} />
        <Stack gap="2" minW="0">
          <Text fontSize={big} fontWeight="bold" data-testid="dispute-says">
            {says}
          </Text>
          <Text color="fg.muted" fontSize={tv ? 'xl' : 'sm'}>
            {t('table:dispute.paused')}
          </Text>
        </Stack>
      </Stack>

      {/* the seats this device votes for: one row each on a Local game's shared screen */}
      {pending.map((seat) => (
        <Stack key={seat.id} gap="2" data-testid="vote-row" data-seat={seat.name} {...(rowPerSeat ? seatFrame(seat) : {})}>
          {rowPerSeat && (
            <HStack gap="2">
              <PlayerAvatar as="span" name={seat.name} colorIndex={seat.color} avatar={seat.avatar} size="sm" />
              <Text fontWeight="semibold">{t('table:dispute.vote_for', { name: seat.name })}</Text>
            </HStack>
          )}
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3" role="group" aria-label={t('table:dispute.vote_for', { name: seat.name })}>
            {/* the two answers look alike: the screen does not lean either way */}
            <Button size="xl" flex="1" variant="outline" colorPalette="accent" fontSize={tv ? '2xl' : undefined} minH={tv ? '20' : undefined} onClick={() => actions.vote(false, seat.id)}>
              {t('table:dispute.keep', { year: card })}
            </Button>
            <Button size="xl" flex="1" variant="outline" colorPalette="accent" fontSize={tv ? '2xl' : undefined} minH={tv ? '20' : undefined} onClick={() => actions.vote(true, seat.id)}>
              {t('table:dispute.take', { year: dispute.year })}
            </Button>
          </Stack>
        </Stack>
      ))}
      {mine.length > 0 && pending.length === 0 && <Text fontWeight="medium">{t('table:dispute.you_voted')}</Text>}

      <Stack gap="2">
        <Text fontSize={tv ? '4xl' : 'md'} fontFamily={tv ? 'heading' : undefined} fontWeight="semibold" data-testid="dispute-tally">
          {t('table:dispute.tally', count)}
          {count.waiting > 0 && ` · ${t('table:dispute.waiting', { count: count.waiting })}`}
        </Text>
        {/* who voted how: a table votes in the open, as it would around a real one */}
        <HStack as="ul" gap="2" wrap="wrap" listStyleType="none" m="0" p="0">
          {dispute.votes.map((v) => {
            const p = game.players.find((q) => q.id === v.player);
            if (!p) return null;
            return (
              <HStack as="li" key={v.player} gap="1" px="2" py="1" borderRadius="full" borderWidth="1px" borderColor={v.take ? 'accent.solid' : 'border'} fontSize={tv ? 'xl' : 'sm'}>
                <PlayerAvatar as="span" name={p.name} colorIndex={p.color} avatar={p.avatar} size="xs" />
                <Text as="span">{t(v.take ? 'table:dispute.voted_as_take' : 'table:dispute.voted_as_keep', { name: p.name, year: v.take ? dispute.year : card })}</Text>
              </HStack>
            );
          })}
        </HStack>
      </Stack>

      <Box>
        <Button variant="ghost" size="sm" aria-expanded={showEvidence} aria-controls="dispute-evidence-box" onClick={() => setShowEvidence((s) => !s)}>
          {t(showEvidence ? 'table:dispute.hide_evidence' : 'table:dispute.show_evidence')}
        </Button>
        <Box id="dispute-evidence-box" hidden={!showEvidence} mt="2">
          {showEvidence && <DisputeEvidence state={evidence} cardYear={card} big={tv} level="h4" />}
        </Box>
      </Box>
    </Stack>
  );
}

/** The table's decision as a moment: the card turns over to the year that counts now and goes where it belongs. */
function Decision({ dispute }: { dispute: DisputePayload }) {
  const { t } = useTranslation();
  const game = useGame((s) => s.game);
  const userId = useSession((s) => s.user?.id);
  const perspective = usePerspective();
  const tv = useTvStage();
  const [turned, setTurned] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setTurned(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  if (!game) return null;
  const changed = dispute.outcome === 'changed';
  const year = changed ? dispute.year : dispute.hit.year;
  const holder = changed ? cardHolder(game.players, dispute) : null;
  const you = !!holder && !tv && !perspective.local && holder.id === (perspective.me?.id ?? userId);
  const text = !changed
    ? t('table:dispute.decided_kept', { year })
    : !holder
      ? t('table:dispute.decided_changed_discard', { year })
      : t(you ? 'table:dispute.decided_changed_you' : 'table:dispute.decided_changed', { year, name: holder.name });
  const tone = changed ? (holder ? 'green' : 'red') : 'gray';
  return (
    <Stack direction="row" gap={{ base: '3', md: '6' }} align="center" justify="center" data-testid="dispute-decision" data-outcome={dispute.outcome ?? ''}>
      <Box className={changed ? (holder ? 'hl-card-won' : 'hl-card-discarded') : undefined} flexShrink={0}>
        {/* a changed year turns the card over to its new face; a kept one stays as it was */}
        <HitCard mystery revealed={changed ? turned : true} size="lg" year={year} artist={dispute.hit.artist} title={dispute.hit.title} boxShadow="glow" borderRadius="card" />
      </Box>
      <Text className="hl-slide-down" fontSize={tv ? { base: 'xl', md: '4xl' } : { base: 'md', md: 'xl' }} fontFamily={tv ? 'heading' : undefined} fontWeight="bold" color={`${tone}.fg`} data-testid="dispute-result">
        {text}
      </Text>
    </Stack>
  );
}

/**
 * "Wrong year?" under the revealed card: for whoever at this device may
 * dispute it now, with the disputes left (a Local game's shared screen opens
 * the dialog for the turn player first; the dialog can pick another seat).
 */
export function DisputeButton() {
  const { t } = useTranslation();
  const game = useGame((s) => s.game);
  const perspective = usePerspective();
  if (!game) return null;
  const seats = disputers(game, perspective);
  const first = seats[0];
  if (!first) return null;
  return (
    <Stack gap="0" align="center" data-testid="dispute-button-box">
      <Button variant="outline" size="sm" minH="44px" aria-keyshortcuts="Alt+Shift+D" onClick={() => actions.requestDispute(first.id)} data-testid="dispute-button">
        {t('table:dispute.button')}
      </Button>
      <Text fontSize="xs" color="fg.muted">
        {t('table:dispute.left', { left: disputesLeft(game, first.id), count: game.disputes })}
      </Text>
    </Stack>
  );
}
