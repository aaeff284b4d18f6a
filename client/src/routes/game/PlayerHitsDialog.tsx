import './recipes.ts';
import { Button, HStack, Link, List, Stack, Text } from '@chakra-ui/react';
import { listSlotRecipe } from '@chakra-ui/react/theme';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useGame } from '../../stores/game.ts';
import { registerRecipes } from '../../theme.ts';
import { hitPath, stop, toggle, useHitAudio } from './hit-audio.ts';

registerRecipes({ slotRecipes: { list: listSlotRecipe } });

/**
 * One player's hits (docs/product.md#screens), sorted by year: each with a play button (the
 * revealed hit in full) and a link to the hit's page in a new tab.
 */
export function PlayerHitsDialog({ playerId, onClose }: { playerId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const player = useGame((s) => s.game?.players.find((p) => p.id === playerId) ?? null);
  const gameId = useGame((s) => s.game?.id ?? '');
  const audio = useGame((s) => s.game?.state !== 'Open' && s.game?.clue_mode === 'audio');
  const playing = useHitAudio((s) => s.playing);
  // between games the timelines are empty: the list shows the one the player ended the last game with
  const last = useGame((s) => (s.game?.state === 'Open' ? (s.game.standings?.find((p) => p.id === playerId) ?? null) : null));
  const fromLast = !!player && player.hits.length === 0 && !!last && last.hits.length > 0;
  const timeline = fromLast ? last.hits : (player?.hits ?? []);
  const hits = player ? [...timeline].sort((a, b) => a.year - b.year || a.title.localeCompare(b.title)) : [];
  const close = (): void => {
    // closing the list stops its hit: nothing left on the screen could stop it
    if (hits.some((h) => playing === `hit:${h.id}`)) stop();
    onClose();
  };

  return (
    <AppDialog open={!!player} onClose={close} title={t('game.hits_dialog.title', { name: player?.name ?? '' })} footer={<Button onClick={close}>{t('common.close')}</Button>}>
      {fromLast && (
        <Text color="fg.muted" mb="3">
          {t('game.hits_dialog.last_game')}
        </Text>
      )}
      {hits.length === 0 ? (
        <Text color="fg.muted">{t('game.hits_dialog.empty')}</Text>
      ) : (
        <List.Root as="ol" variant="plain" gap="2">
          {hits.map((hit) => {
            const key = `hit:${hit.id}`;
            const isPlaying = playing === key;
            return (
              <List.Item key={hit.id} borderBottomWidth="1px" pb="2">
                <HStack justify="space-between" align="center" gap="3" w="full">
                  <Stack gap="0" minW="0">
                    <Text fontWeight="bold" fontVariantNumeric="tabular-nums">
                      {hit.year}
                    </Text>
                    <Text wordBreak="break-word">
                      <Link href={`/hits/${encodeURIComponent(hit.id)}`} target="_blank" rel="noopener" color="accent.fg" aria-label={t('game.hits_dialog.open', { title: hit.title })}>
                        {hit.title}
                      </Link>{' '}
                      <Text as="span" color="fg.muted">
                        {t('game.hits_dialog.by', { artist: hit.artist })}
                      </Text>
                    </Text>
                    {hit.belongs_to && (
                      <Text fontSize="sm" color="fg.muted">
                        {t('game.hit.belongs_to', { name: hit.belongs_to })}
                      </Text>
                    )}
                  </Stack>
                  {audio && (
                    <Button
                      size="sm"
                      variant={isPlaying ? 'solid' : 'outline'}
                      colorPalette="accent"
                      flexShrink={0}
                      aria-label={t(isPlaying ? 'game.hits_dialog.stop' : 'game.hits_dialog.play', { title: hit.title })}
                      onClick={() => toggle({ key, path: hitPath(gameId, hit.id), limitSeconds: null })}
                    >
                      {isPlaying ? '■' : '▶'}
                    </Button>
                  )}
                </HStack>
              </List.Item>
            );
          })}
        </List.Root>
      )}
    </AppDialog>
  );
}
