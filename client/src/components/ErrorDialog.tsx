import { Button, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useNotifications } from '../stores/notifications.ts';
import { AppDialog } from './AppDialog.tsx';

/** docs/product.md#errors: an error dialog titled "Error" with the message and a close button. */
export function ErrorDialog() {
  const { t } = useTranslation();
  const message = useNotifications((s) => s.errorMessage);
  const close = useNotifications((s) => s.closeError);
  return (
    <AppDialog
      open={message !== null}
      onClose={close}
      title={t('error_dialog.title')}
      role="alertdialog"
      size="sm"
      footer={<Button onClick={close}>{t('common.close')}</Button>}
    >
      <Text>{message}</Text>
    </AppDialog>
  );
}
