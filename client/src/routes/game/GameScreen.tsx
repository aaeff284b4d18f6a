import { Alert, DataList, Stack } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { GamePayload } from '../../../../shared/protocol/game.ts';
import { ErrorPage } from '../../components/ErrorPage.tsx';
import { LoadingScreen } from '../../components/LoadingScreen.tsx';
import { Page } from '../../components/Page.tsx';
import { errorText } from '../../i18n.ts';
import { ApiError } from '../../net/api.ts';
import { getGame } from '../../net/games.ts';
import { dataListSlotRecipe } from '@chakra-ui/react/theme';
import { registerRecipes } from '../../theme.ts';

registerRecipes({ slotRecipes: { dataList: dataListSlotRecipe } });

/**
 * PLACEHOLDER for the game screen (issue 7, part "Game screen"): loaded lazily
 * (it will carry the Colyseus SDK and howler), it shows the game's id and state
 * from `GET /api/games/{id}`. The game-screen work replaces this module; keep
 * the file name and the default export, which App.tsx lazy-loads.
 */
export default function GameScreen() {
  const { t } = useTranslation();
  const { gameId = '' } = useParams();
  const [game, setGame] = useState<GamePayload | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    setGame(null);
    setError(null);
    getGame(gameId, controller.signal).then(setGame, (err: unknown) => {
      if (!controller.signal.aborted) setError(err);
    });
    return () => controller.abort();
  }, [gameId]);

  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <ErrorPage status={404} message={errorText(error)} />;
  if (error) {
    return (
      <Alert.Root status="error" role="alert" mt="8">
        <Alert.Indicator />
        <Alert.Title>{errorText(error)}</Alert.Title>
      </Alert.Root>
    );
  }
  if (!game) return <LoadingScreen label={t('game.loading')} />;
  const state = t(`game.state.${game.state}`);
  return (
    <Page title={t('game.title', { id: game.id, state })}>
      <Stack gap="4">
        <DataList.Root orientation="horizontal">
          <DataList.Item>
            <DataList.ItemLabel>{t('game.id')}</DataList.ItemLabel>
            <DataList.ItemValue fontFamily="mono">{game.id}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('game.state_label')}</DataList.ItemLabel>
            <DataList.ItemValue>{state}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('game.mode_label')}</DataList.ItemLabel>
            <DataList.ItemValue>{t(`game.mode.${game.mode}`)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('game.players_label')}</DataList.ItemLabel>
            <DataList.ItemValue>{game.players.map((p) => p.name).join(', ') || '—'}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      </Stack>
    </Page>
  );
}
