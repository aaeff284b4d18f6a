import { Button, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/Page.tsx';

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
