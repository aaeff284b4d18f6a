import { Alert, Button, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LoadingScreen } from '../../components/LoadingScreen.tsx';
import { Page } from '../../components/Page.tsx';
import { errorText } from '../../i18n.ts';
import { isGone } from '../../net/rejoin.ts';

/**
 * A game link that leads nowhere (an old invitation, a game everybody left, a
 * typo): no error, just what happened and the way on, to the lobby where games
 * are made and joined. A game that ends while open goes back to the lobby by
 * itself (GameScreen's 'gone' status), with the same words as a toast.
 */
export function GameGone() {
  const { t } = useTranslation();
  return (
    <Page title={t('game.gone_title')}>
      <Text maxW="prose">{t('game.gone_text')}</Text>
      <Button asChild colorPalette="accent" alignSelf="flex-start">
        <RouterLink to="/">{t('error_page.back')}</RouterLink>
      </Button>
    </Page>
  );
}

/**
 * A game screen (the game, the TV, the phone) whose game is not there yet: a
 * game that no longer exists, a join that failed (with "try again"), or loading.
 */
export function GameNotThere({ loadError, gone = false, retry }: { loadError: unknown; gone?: boolean; retry: () => void }) {
  const { t } = useTranslation();
  if (gone || (loadError && isGone(loadError))) return <GameGone />;
  if (loadError) {
    return (
      <Alert.Root status="error" role="alert" mt="8">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{errorText(loadError)}</Alert.Title>
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={retry}>
          {t('common.retry')}
        </Button>
      </Alert.Root>
    );
  }
  return <LoadingScreen label={t('game.loading')} />;
}
