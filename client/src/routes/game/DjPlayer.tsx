import './recipes.ts';
import { Box, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { attach, detach, follow, useDj } from './dj-player.ts';

/** YouTube's smallest allowed player: 200×200 px (its terms and the IFrame API's requirements). */
export const DJ_PLAYER_MIN_PX = 200;

/**
 * Who the DJ of a running `dj` round is, and whether that is this device's user
 * (a Local game has no DJ; a TV showing the table is not the DJ either).
 */
export function useDjSeat(): { id: string; name: string; plays: boolean; mine: boolean; connected: boolean } | null {
  const dj = useGame((s) => s.game?.dj_seat ?? null);
  const name = useGame((s) => s.game?.players.find((p) => p.id === s.game?.dj_seat?.id)?.name ?? '');
  const connected = useGame((s) => s.game?.players.find((p) => p.id === s.game?.dj_seat?.id)?.connected ?? false);
  const running = useGame((s) => !!s.game && s.game.state !== 'Open' && s.game.clue_mode === 'dj');
  const userId = useSession((s) => s.user?.id);
  if (!dj || !running) return null;
  return { id: dj.id, name, plays: dj.plays, mine: dj.id === userId, connected };
}

/**
 * The DJ's part of the hit section in the `dj` clue mode. On the DJ's device:
 * YouTube's player, visible and at least 200×200 px as YouTube requires, with
 * what the DJ must know (keep the screen turned away: the player shows the
 * title); the play button beside the card plays it (Alt+Shift+H). On every
 * other device: who the DJ is and that the hit plays there.
 */
export function DjPanel() {
  const { t } = useTranslation();
  const seat = useDjSeat();
  const id = useGame((s) => s.game?.id ?? null);
  const draws = useGame((s) => s.game?.draws ?? 0);
  const revealed = useGame((s) => s.game?.state === 'Confirming');
  const seconds = useGame((s) => s.game?.hit_duration ?? 20);
  const mine = !!seat?.mine;

  // the DJ asks for each new draw's video (and the revealed hit's): nobody else ever does
  useEffect(() => {
    void follow(mine ? id : null, draws, revealed);
  }, [mine, id, draws, revealed]);

  if (!seat) return null;
  if (!mine) {
    return (
      <Text textAlign="center" color="fg.muted" mt="2" data-testid="dj-other">
        {/* a DJ without connection plays nothing: the table should know why it hears no hit */}
        {t(!seat.connected ? 'table:dj.other_offline' : seat.plays ? 'table:dj.other' : 'table:dj.other_out', { name: seat.name })}
      </Text>
    );
  }
  return (
    <Box as="section" aria-labelledby="dj-heading" mt="3" data-testid="dj-panel">
      <Stack gap="2" align="center" maxW="30rem" mx="auto">
        <Heading as="h3" id="dj-heading" size="md" textAlign="center">
          {t(seat.plays ? 'table:dj.you_are' : 'table:dj.you_are_out')}
        </Heading>
        <Text textAlign="center" fontSize="sm">
          {t('table:dj.turn_away', { count: seconds })}
        </Text>
        <DjScreen />
        <Text textAlign="center" fontSize="sm" color="fg.muted">
          {t('table:dj.tap_hint')}
        </Text>
      </Stack>
    </Box>
  );
}

/** The place of YouTube's player (16:9, never smaller than 200×200 px), and what it is doing in words. */
function DjScreen() {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const status = useDj((s) => s.status);
  const problem = useDj((s) => s.problem);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    attach(element);
    return () => detach(element);
  }, []);

  return (
    <Stack gap="1" w="full" align="center">
      <Box
        w="full"
        maxW="30rem"
        minW={`${DJ_PLAYER_MIN_PX}px`}
        aspectRatio={16 / 9}
        minH={`${DJ_PLAYER_MIN_PX}px`}
        bg="black"
        borderRadius="l2"
        overflow="hidden"
        // YouTube's frame fills it; nothing may cover it
        css={{ '& iframe': { width: '100%', height: '100%', border: 0, display: 'block' } }}
      >
        <Box ref={ref} w="full" h="full" data-testid="dj-player" />
      </Box>
      <Box role="status" minH="1.5em" fontSize="sm" textAlign="center">
        {status === 'loading' && (
          <Text display="inline-flex" alignItems="center" gap="2">
            <Spinner size="xs" aria-hidden="true" />
            {t('table:dj.loading')}
          </Text>
        )}
        {status === 'failed' && problem && <Text color="fg.error">{t(`table:${problem}`)}</Text>}
      </Box>
    </Stack>
  );
}
