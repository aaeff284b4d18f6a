import { useTranslation } from 'react-i18next';
import { HowToPlay } from '../../components/HowToPlay.tsx';
import { Page } from '../../components/Page.tsx';

/** How to play as a page of its own (the same content as in the welcome dialog). */
export function HowToPlayScreen() {
  const { t } = useTranslation();
  return (
    <Page title={t('how_to_play.title')}>
      <HowToPlay headingLevel={2} />
    </Page>
  );
}
