import { Badge, Box, Link, Stack, Table, Text } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { LobbyGame } from '../../stores/lobby.ts';

// a picture for the empty lobby only: loaded when shown, not with the first page (budget P9)
const EmptyLobbyIllustration = lazy(() => import('../../components/illustrations/EmptyLobbyIllustration.tsx').then((m) => ({ default: m.EmptyLobbyIllustration })));

/** The lobby's table (docs/product.md#screens): id (a link to the game) with its creator, players, mode, and open or running. */
export function GamesTable({ games }: { games: readonly LobbyGame[] }) {
  const { t } = useTranslation();
  if (games.length === 0) {
    return (
      <Stack align="center" gap="4" py={{ base: '8', md: '12' }} px="4" borderRadius="panel" borderWidth="2px" borderStyle="dashed" borderColor="border" textAlign="center">
        {/* the picture's room is kept while it loads, so nothing moves when it arrives */}
        <Box width="220px" maxW="full" aspectRatio="240 / 150" color="fg.muted">
          <Suspense fallback={null}>
            <EmptyLobbyIllustration width="100%" height="100%" />
          </Suspense>
        </Box>
        <Text fontFamily="heading" fontWeight="bold" fontSize={{ base: 'lg', md: 'xl' }}>
          {t('lobby.empty')}
        </Text>
      </Stack>
    );
  }
  return (
    // on a panel of its own; its rows let the panel show through (the recipe paints them in the page's colour)
    <Box borderRadius="panel" borderWidth="1px" borderColor="border" bg="bg.panel" boxShadow="raised" px={{ base: '1', md: '3' }} py="2">
      <Table.Root size="md" variant="line" interactive css={{ '& tbody tr:last-of-type td': { borderBottomWidth: '0' } }}>
        <Table.Caption captionSide="top" textAlign="start" color="fg.muted" mb="2" px="3">
          {t('lobby.caption', { count: games.length })}
        </Table.Caption>
        <Table.Header>
          <Table.Row bg="transparent">
            <Table.ColumnHeader scope="col">{t('lobby.column_id')}</Table.ColumnHeader>
            <Table.ColumnHeader scope="col" textAlign="end">
              {t('lobby.column_players')}
            </Table.ColumnHeader>
            <Table.ColumnHeader scope="col">{t('lobby.column_mode')}</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">{t('lobby.column_state')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {games.map((game) => {
            const running = game.state !== 'Open';
            return (
              <Table.Row key={game.id} bg="transparent" _hover={{ bg: 'bg.muted' }}>
                <Table.Cell>
                  <Link asChild fontFamily="mono" fontWeight="semibold" color="accent.fg" minH="44px" display="inline-flex" alignItems="center">
                    <RouterLink to={`/game/${encodeURIComponent(game.id)}`} aria-label={t('lobby.game_link', { id: game.id, creator: game.creator })}>
                      {game.id}
                    </RouterLink>
                  </Link>
                  {/* who made it, for sighted players too (the link says it to screen readers) */}
                  {game.creator && (
                    <Text aria-hidden="true" textStyle="sm" color="fg.muted" overflowWrap="anywhere">
                      {t('lobby.created_by', { name: game.creator })}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell textAlign="end">{game.players}</Table.Cell>
                <Table.Cell>{t(`game.mode.${game.mode}`)}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={running ? 'orange' : 'green'} variant="subtle" size="md">
                    {running ? t('lobby.state_running') : t('lobby.state_open')}
                  </Badge>
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
