import { Button, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notify } from '../a11y/notify.ts';
import { showError } from '../errors.ts';
import { deleteAccount } from '../net/users.ts';
import { useSession } from '../stores/session.ts';
import { useUi } from '../stores/ui.ts';
import { AppDialog } from './AppDialog.tsx';

/** Asks before deleting the account (`DELETE /api/users/me`); afterwards the browser is a guest again, in the lobby. */
export function DeleteAccountDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const open = useUi((s) => s.dialog === 'delete_account');
  const close = useUi((s) => s.closeDialog);
  const [busy, setBusy] = useState(false);

  const confirm = async (): Promise<void> => {
    setBusy(true);
    try {
      await deleteAccount();
      close();
      await useSession.getState().refresh();
      notify.notification(t('user.account_deleted'));
      void navigate('/');
    } catch (err) {
      close();
      showError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      open={open}
      onClose={close}
      role="alertdialog"
      size="sm"
      title={t('delete_account.title')}
      footer={
        <>
          <Button variant="outline" onClick={close}>
            {t('common.no')}
          </Button>
          <Button colorPalette="red" loading={busy} onClick={() => void confirm()}>
            {t('delete_account.confirm')}
          </Button>
        </>
      }
    >
      <Text>{t('delete_account.text')}</Text>
    </AppDialog>
  );
}
