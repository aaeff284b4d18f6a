import { Button } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useUi } from '../stores/ui.ts';
import { AppDialog } from './AppDialog.tsx';
import { ShortcutsTable } from './ShortcutsTable.tsx';

/** The keyboard shortcuts dialog, opened from the main menu. */
export function ShortcutsDialog() {
  const { t } = useTranslation();
  const open = useUi((s) => s.dialog === 'shortcuts');
  const close = useUi((s) => s.closeDialog);
  return (
    <AppDialog open={open} onClose={close} title={t('shortcuts.title')} size="lg" footer={<Button onClick={close}>{t('common.close')}</Button>}>
      <ShortcutsTable />
    </AppDialog>
  );
}
