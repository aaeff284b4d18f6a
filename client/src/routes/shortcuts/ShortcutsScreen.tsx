import { useTranslation } from 'react-i18next';
import { Page } from '../../components/Page.tsx';
import { ShortcutsTable } from '../../components/ShortcutsTable.tsx';

/** The keyboard shortcuts as a page of its own (the same table as the dialog). */
export function ShortcutsScreen() {
  const { t } = useTranslation();
  return (
    <Page title={t('shortcuts.title')}>
      <ShortcutsTable />
    </Page>
  );
}
