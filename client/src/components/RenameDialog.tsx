import { Button, Stack, Text } from '@chakra-ui/react';
import { useEffect, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../a11y/notify.ts';
import { useSession } from '../stores/session.ts';
import { useUi } from '../stores/ui.ts';
import { AppDialog } from './AppDialog.tsx';
import { useGuestRename } from './GuestNameField.tsx';

/**
 * A guest changes his name (the user menu): `PATCH /api/users/me`.
 * The seats he holds take it at once (the server renames them, and everybody
 * at those games hears it); the user menu follows from the new cookie.
 */
export function RenameDialog() {
  const { t } = useTranslation();
  const open = useUi((s) => s.dialog === 'rename');
  const close = useUi((s) => s.closeDialog);
  const current = useSession((s) => s.user?.name ?? '');
  const { name, busy, reset, commit, field, inputRef } = useGuestRename(true);

  useEffect(() => {
    if (!open) return;
    reset(useSession.getState().user?.name ?? '');
  }, [open]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (busy) return;
    const wanted = name.trim();
    commit(current, () => {
      close();
      if (wanted !== current) notify.notification(t('people:rename.done', { name: wanted }), { toast: 'success' });
    });
  };

  return (
    <AppDialog
      open={open}
      onClose={close}
      size="sm"
      title={t('people:rename.title')}
      initialFocusEl={() => inputRef.current}
      footer={
        <>
          <Button variant="outline" onClick={close}>
            {t('people:rename.cancel')}
          </Button>
          <Button type="submit" form="rename-form" colorPalette="accent" loading={busy}>
            {t('people:rename.submit')}
          </Button>
        </>
      }
    >
      <form id="rename-form" onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text>{t('people:rename.intro')}</Text>
          {field}
        </Stack>
      </form>
    </AppDialog>
  );
}
