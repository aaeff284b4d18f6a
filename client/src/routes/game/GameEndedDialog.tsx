import './recipes.ts';
import { Badge, Button, Stack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { hitText } from '../../format.ts';
import { endResult } from './game-logic.ts';

/**
 * The game-ended dialog (spec §2, rules A11): you win / no one wins / X wins,
 * and the final score table (player, tokens, hit count) from the standings the
 * game-ended event carried.
 */
export function GameEndedDialog() {
  const { t } = useTranslation();
  const ended = useGame((s) => s.ended);
  const mode = useGame((s) => s.game?.mode);
  const userId = useSession((s) => s.user?.id);
  const close = (): void => useGame.getState().showEnded(null);
  const result = ended ? endResult(ended.standings, ended.winner, userId, mode === 'Local') : null;

  const headline = !result ? '' : result.outcome === 'you' ? t('game.ended.you') : result.outcome === 'nobody' ? t('game.ended.nobody') : t('game.ended.other', { name: result.winnerName });

  return (
    <AppDialog open={!!result} onClose={close} title={t('game.ended.title')} footer={<Button onClick={close}>{t('common.close')}</Button>}>
      {result && (
        <Stack gap="4">
          <Text fontSize={{ base: 'xl', sm: '2xl' }} lineHeight="short" overflowWrap="anywhere" fontWeight="bold" color={result.outcome === 'you' ? 'accent.fg' : undefined} data-testid="end-outcome">
            {headline}
          </Text>
          {/* the card that ended it is shown nowhere else (the game goes Open at once); only as the game ends, not under "Show results" later */}
          {ended?.hit && <Text>{t('game.ended.last_card', { hit: hitText(ended.hit) })}</Text>}
          {result.rows.length > 0 && (
            <Table.Root size="sm" variant="line">
              <Table.Caption captionSide="top" textAlign="start" mb="2" color="fg.muted">
                {t('game.ended.caption')}
              </Table.Caption>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader scope="col">{t('game.ended.player')}</Table.ColumnHeader>
                  <Table.ColumnHeader scope="col" textAlign="end">
                    {t('game.ended.tokens')}
                  </Table.ColumnHeader>
                  <Table.ColumnHeader scope="col" textAlign="end">
                    {t('game.ended.hits')}
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {result.rows.map((row) => (
                  <Table.Row key={row.id}>
                    {/* a 32-character name of one word breaks, so the score columns stay on a phone's screen */}
                    <Table.Cell fontWeight={row.winner ? 'bold' : undefined} whiteSpace="normal" overflowWrap="anywhere">
                      {row.name}
                      {row.winner && ' '}
                      {row.winner && (
                        <Badge ms="2" size="sm" colorPalette="accent">
                          {t('game.ended.winner')}
                        </Badge>
                      )}
                    </Table.Cell>
                    <Table.Cell textAlign="end">{row.tokens}</Table.Cell>
                    <Table.Cell textAlign="end">{row.hits}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </Stack>
      )}
    </AppDialog>
  );
}
