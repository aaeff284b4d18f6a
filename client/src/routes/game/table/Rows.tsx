import '../recipes.ts';
import { Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerPayload } from '../../../../../shared/protocol/game.ts';
import { ChevronDownIcon } from '../../../components/icons.tsx';
import { useGame } from '../../../stores/game.ts';
import { guessModel, turnPlayerOf } from '../game-logic.ts';
import { usePerspective } from '../use-perspective.ts';
import { PlayerAvatar } from './PlayerAvatar.tsx';
import { TimelineRow } from './TimelineRow.tsx';
import { TokenChip } from './TokenChip.tsx';

const NO_PLAYERS: PlayerPayload[] = [];

/** "3 hits" and a chip with the tokens on it (named "2 tokens"). */
function Counts({ player }: { player: PlayerPayload }) {
  const { t } = useTranslation();
  return (
    <HStack as="span" gap="1.5" fontSize="sm" color="fg.muted">
      <span>{t('count.hits', { count: player.hits.length })}</span>
      <TokenChip count={player.tokens} size="sm" />
    </HStack>
  );
}

/** A row's heading: the player's face and his name (or "Your timeline"). */
function RowName({ player, text }: { player: PlayerPayload; text: string }) {
  return (
    <HStack as="span" gap="2" minW="0">
      <PlayerAvatar name={player.name} colorIndex={player.color} avatar={player.avatar} size="sm" as="span" />
      <Text as="span" truncate>
        {text}
      </Text>
    </HStack>
  );
}

/**
 * The turn player's timeline, the big row in the middle of the table, with
 * its gaps: where this device places or intercepts the mystery card.
 */
export function TurnRow({ size = 'large' }: { size?: 'large' | 'tv' }) {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players ?? NO_PLAYERS);
  const state = useGame((s) => s.game?.state ?? 'Open');
  const perspective = usePerspective();
  const model = useMemo(() => guessModel({ state, players }, perspective), [state, players, perspective]);
  const turn = turnPlayerOf({ players });
  if (state === 'Open' || !turn) return null;
  // the TV names every row: nobody at the table is "you" there
  const mine = size !== 'tv' && !perspective.local && turn.id === perspective.me?.id;
  return (
    <Box as="section" id="turn-row" aria-labelledby="turn-row-heading" minW="0">
      <HStack justify="space-between" align="baseline" gap="3" mb="1" wrap="wrap">
        <Heading as="h2" id="turn-row-heading" size={size === 'tv' ? { base: 'md', md: '2xl' } : { base: 'sm', md: 'md' }} minW="0">
          <RowName player={turn} text={mine ? t('table:row.heading_you') : t('table:row.heading', { name: turn.name })} />
        </Heading>
        <Counts player={turn} />
      </HStack>
      <TimelineRow player={turn} size={size} model={model} labelId="turn-row-heading" />
    </Box>
  );
}

/** One's own timeline, always on one's own screen (compact) while it is someone else's turn. */
export function MyRow() {
  const { t } = useTranslation();
  const state = useGame((s) => s.game?.state ?? 'Open');
  const { me, local } = usePerspective();
  if (state === 'Open' || !me || local || me.turn_player) return null;
  return (
    <Box as="section" aria-labelledby="my-row-heading" minW="0" data-testid="my-row">
      <HStack justify="space-between" align="baseline" gap="3" mb="1" wrap="wrap">
        <Heading as="h2" id="my-row-heading" size="sm" minW="0">
          <RowName player={me} text={t('table:row.heading_you')} />
        </Heading>
        <Counts player={me} />
      </HStack>
      <TimelineRow player={me} size="compact" labelId="my-row-heading" />
    </Box>
  );
}

/**
 * Everybody else's timeline, compact: on a phone each one opens on a tap (a
 * disclosure button), on a wide screen they start open.
 */
export function OtherRows() {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players ?? NO_PLAYERS);
  const state = useGame((s) => s.game?.state ?? 'Open');
  const { me, local } = usePerspective();
  const others = players.filter((p) => !p.turn_player && (local || p.id !== me?.id));
  if (state === 'Open' || others.length === 0) return null;
  return (
    <Box as="section" aria-labelledby="other-rows-heading" minW="0">
      <Heading as="h2" id="other-rows-heading" size="sm" mb="1">
        {t('table:row.others')}
      </Heading>
      <Stack gap="1">
        {others.map((p) => (
          <OtherRow key={p.id} player={p} />
        ))}
      </Stack>
    </Box>
  );
}

const wide = (): boolean => typeof matchMedia !== 'undefined' && matchMedia('(min-width: 62em)').matches;

function OtherRow({ player }: { player: PlayerPayload }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(wide);
  const id = useId();
  return (
    <Box>
      <Heading as="h3" size="sm" fontWeight="medium">
        <Button
          variant="ghost"
          w="full"
          justifyContent="space-between"
          px="2"
          aria-expanded={open}
          aria-controls={`${id}-row`}
          onClick={() => setOpen((o) => !o)}
        >
          <Box as="span" id={`${id}-name`} minW="0">
            <RowName player={player} text={player.name} />
          </Box>
          <HStack as="span" gap="2" color="fg.muted" fontSize="sm">
            <Counts player={player} />
            <ChevronDownIcon transform={open ? 'rotate(180deg)' : undefined} transition="transform 0.15s" />
          </HStack>
        </Button>
      </Heading>
      <Box id={`${id}-row`} hidden={!open} px="2" pb="2">
        {open && <TimelineRow player={player} size="compact" labelId={`${id}-name`} />}
      </Box>
    </Box>
  );
}
