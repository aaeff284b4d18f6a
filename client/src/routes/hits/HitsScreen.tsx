import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/Page.tsx';

/**
 * PLACEHOLDER for the catalogue screens (browse, create, edit hits: another
 * issue). Lazy-loaded like the game screen; the hit editor must stay lazy too
 * (budget P9).
 */
export default function HitsScreen() {
  const { t } = useTranslation();
  return (
    <Page title={t('hits.title')}>
      <Text>{t('hits.coming_soon')}</Text>
    </Page>
  );
}
