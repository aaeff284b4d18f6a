import { Button, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../a11y/notify.ts';
import { renameMe } from '../net/users.ts';
import { useSession } from '../stores/session.ts';
import { useUi } from '../stores/ui.ts';
import { AppDialog } from './AppDialog.tsx';
import { GuestNameField, guestNameProblem, renameErrorText } from './GuestNameField.tsx';

/**
 * A guest changes his name (the user menu, issue 26 §3): `PATCH /api/users/me`.
 * The seats he holds take it at once (the server renames them, and everybody
 * at those games hears it); the user menu follows from the new cookie.
 */
export function RenameDialog() {
  const { t } = useTranslation();
  const open = useUi((s) => s.dialog === 'rename');
  const close = useUi((s) => s.closeDialog);
  const current = useSession((s) => s.user?.name ?? '');
  const [name, setName] = useState(current);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    setName(useSession.getState().user?.name ?? '');
    setTouched(false);
    setServerError(null);
  }, [open]);

  const problem = serverError ?? (touched ? guestNameProblem(name) : null);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    setTouched(true);
    if (guestNameProblem(name)) {
      inputRef.current?.focus();
      return;
    }
    const wanted = name.trim();
    if (wanted === current) {
      close();
      return;
    }
    setBusy(true);
    try {
      await renameMe(wanted);
    } catch (err) {
      setServerError(renameErrorText(err));
      inputRef.current?.focus();
      return;
    } finally {
      setBusy(false);
    }
    close();
    notify.notification(t('people:rename.done', { name: wanted }), { toast: 'success' });
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
      <form id="rename-form" onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="4">
          <Text>{t('people:rename.intro')}</Text>
          <GuestNameField
            value={name}
            inputRef={inputRef}
            problem={problem}
            onChange={(value) => {
              setName(value);
              setTouched(true);
              setServerError(null);
            }}
          />
        </Stack>
      </form>
    </AppDialog>
  );
}
