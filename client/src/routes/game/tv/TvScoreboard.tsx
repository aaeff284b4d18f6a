import { Badge, Box, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { PlayerPayload } from '../../../../../shared/protocol/game.ts';
import { useGame } from '../../../stores/game.ts';
import { playerColor } from '../table/palette.ts';
import { PlayerAvatar } from '../table/PlayerAvatar.tsx';
import { TokenChip } from '../table/TokenChip.tsx';

const NO_PLAYERS: readonly PlayerPayload[] = [];

/**
 * The scoreboard of the TV (docs/product.md#screens "TV"): every player in seat order with his
 * colour, face, name, cards and tokens; the turn player's line stands out in
 * his colour. Each line reads as one sentence to a screen reader.
 */
export function TvScoreboard() {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players ?? NO_PLAYERS);
  const goal = useGame((s) => s.game?.goal ?? 10);
  return (
    <Box as="section" aria-labelledby="tv-score-heading" data-testid="tv-scoreboard">
      <Text as="h2" id="tv-score-heading" fontFamily="heading" fontWeight="800" fontSize="xl" mb="2">
        {t('tv.players_heading', { goal })}
      </Text>
      {players.length === 0 ? (
        <Text color="fg.muted">{t('tv.no_players')}</Text>
      ) : (
        <Stack as="ol" gap="2">
          {players.map((p) => (
            // a full table keeps to the screen (with the feed and the QR corner beside a running game): smaller lines from five players on
            <ScoreLine key={p.id} player={p} compact={players.length > 4} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

function ScoreLine({ player, compact }: { player: PlayerPayload; compact: boolean }) {
  const { t } = useTranslation();
  const colour = playerColor(player.color);
  const cards = t('count.hits', { count: player.hits.length });
  const tokens = t('count.tokens', { count: player.tokens });
  return (
    <HStack
      as="li"
      gap="3"
      px="3"
      py={compact ? '1' : '2'}
      borderRadius="l3"
      borderWidth="3px"
      borderColor={player.turn_player ? { base: colour.light.bg, _dark: colour.dark.bg } : 'transparent'}
      bg={player.turn_player ? 'bg.panel' : 'bg.subtle'}
      boxShadow={player.turn_player ? 'raised' : undefined}
      data-turn={player.turn_player || undefined}
      aria-label={t(player.turn_player ? 'tv.score_line_turn' : 'tv.score_line', { name: player.name, cards, tokens }) + (player.connected ? '' : `, ${t('tv.offline')}`)}
    >
      <PlayerAvatar name={player.name} colorIndex={player.color} avatar={player.avatar} size={compact ? 'md' : 'lg'} />
      <Stack gap="0" minW="0" flex="1" aria-hidden="true">
        <Text fontWeight="bold" fontSize="lg" lineHeight="short" lineClamp={compact ? 1 : 2} overflowWrap="anywhere">
          {player.name}
        </Text>
        <HStack gap="2">
          {player.turn_player && (
            <Badge colorPalette="accent" variant="solid" size="sm">
              {t('tv.turn_badge')}
            </Badge>
          )}
          {!player.connected && (
            <Badge variant="outline" size="sm">
              {t('tv.offline')}
            </Badge>
          )}
        </HStack>
      </Stack>
      <Stack gap="0" align="center" aria-hidden="true">
        <Text fontFamily="heading" fontWeight="800" fontSize={compact ? '2xl' : '3xl'} lineHeight="1" fontVariantNumeric="tabular-nums">
          {player.hits.length}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          {t('tv.cards')}
        </Text>
      </Stack>
      <TokenChip count={player.tokens} size="md" decorative />
    </HStack>
  );
}
