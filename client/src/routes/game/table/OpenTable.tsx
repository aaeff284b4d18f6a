import '../recipes.ts';
import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { MIN_PLAYERS } from '../../../../../shared/rules/constants.ts';
import { useGame } from '../../../stores/game.ts';
import { usePerspective } from '../use-perspective.ts';
import { openTable } from './table-logic.ts';

/**
 * The table before a game: what happens next and who is waited on ("Waiting
 * for Ana to start — 2 players here, 8 more can join"), and for too few
 * players, how to get more.
 */
export function OpenTable() {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players);
  const mode = useGame((s) => s.game?.mode);
  const { me } = usePerspective();
  const table = openTable(players ?? []);
  const here = t('table:waiting.players', { count: table.count });
  const free = t('table:waiting.free', { count: table.free });
  const creator = !!me?.creator;
  let text: string;
  if (creator) text = table.free > 0 ? t('table:waiting.open_creator', { players: here, free }) : t('table:waiting.open_creator_full', { players: here });
  else text = table.free > 0 ? t('table:waiting.open', { name: table.creator ?? '', players: here, free }) : t('table:waiting.open_full', { name: table.creator ?? '', players: here });
  return (
    <Flex gap="4" align="center" data-testid="open-table">
      {/* an empty card's outline, where the first mystery card will lie */}
      <Box aria-hidden="true" flexShrink={0} w="56px" h="72px" borderRadius="l2" borderWidth="2px" borderStyle="dashed" borderColor="accent.muted" display="flex" alignItems="center" justifyContent="center">
        <Text fontSize="2xl" fontWeight="bold" color="accent.fg">
          ?
        </Text>
      </Box>
      <Stack gap="1" minW="0">
        <Text fontWeight="semibold">{text}</Text>
        {!table.enough && <Text color="fg.muted">{t(mode === 'Local' ? 'table:waiting.too_few_local' : 'table:waiting.too_few', { count: MIN_PLAYERS })}</Text>}
      </Stack>
    </Flex>
  );
}
