import { Badge, Link, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { LobbyGame } from '../../stores/lobby.ts';

/** The lobby's table (spec §2): id (a link to the game) with its creator, players, mode, and open or running. */
export function GamesTable({ games }: { games: readonly LobbyGame[] }) {
  const { t } = useTranslation();
  if (games.length === 0) return <Text color="fg.muted">{t('lobby.empty')}</Text>;
  return (
    <Table.Root size="md" variant="line" interactive>
      <Table.Caption captionSide="top" textAlign="start" color="fg.muted" mb="2">
        {t('lobby.caption', { count: games.length })}
      </Table.Caption>
      <Table.Header>
        <Table.Row>
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
            <Table.Row key={game.id}>
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
  );
}
