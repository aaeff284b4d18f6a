import './recipes.ts';
import { Button, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useGuestRename } from '../../components/GuestNameField.tsx';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import { EmojiChoice } from './EmojiChoice.tsx';
import * as actions from './game-actions.ts';
import { usePerspective } from './use-perspective.ts';

/**
 * Taking a seat: a guest is asked what to call him (his random
 * name prefilled: one tap on Join accepts it) and picks an emoji; an account
 * plays under its name and picks an emoji only. A changed name renames the
 * guest (PATCH /api/users/me) before he joins, so the seat, the user menu and
 * his other seats all say it.
 */
export function JoinDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const guest = !!user?.virtual;
  const [avatar, setAvatar] = useState('');
  const { name, busy, reset, commit, field } = useGuestRename(guest);

  // each opening starts from the name the user has now
  useEffect(() => {
    if (!open) return;
    reset(user?.name ?? '');
    setAvatar('');
    // (reset is a new function each render; the opening and the name decide)
  }, [open, user?.name]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (busy) return;
    commit(user?.name, () => {
      // not sent (no connection): the dialog stays open, to be sent again
      if (actions.join(avatar)) onClose();
    });
  };

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      size="sm"
      keyboardOnOpen={false}
      title={guest ? t('people:join.title_guest') : t('people:join.title_account', { name: user?.name ?? '' })}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('people:join.watch')}
          </Button>
          <Button type="submit" form="join-form" colorPalette="accent" loading={busy}>
            {t('people:join.submit')}
          </Button>
        </>
      }
    >
      <form id="join-form" onSubmit={submit} noValidate>
        <Stack gap="5">
          {guest ? (
            field
          ) : (
            <Text>{t('people:join.account_name', { name: user?.name ?? '' })}</Text>
          )}
          <EmojiChoice value={avatar} onChange={setAvatar} name={guest ? name : (user?.name ?? '')} legend={t('people:avatar.legend')} />
        </Stack>
      </form>
    </AppDialog>
  );
}

/**
 * Opens the join dialog once by itself for a guest who came by an invitation
 * (he is not seated, and the game is open to him), after the welcome dialog of
 * a first visit: one question at a time.
 */
export function useAskGuestToJoin(ask: () => void): void {
  const asked = useRef(false);
  const guest = useSession((s) => !!s.user?.virtual);
  const welcomed = useSettings((s) => s.welcome);
  const connected = useGame((s) => s.status === 'connected');
  const joinable = useGame((s) => !!s.game && actions.canJoin(s.game, null, true));
  const { me } = usePerspective();
  useEffect(() => {
    if (asked.current || !guest || !welcomed || !connected || me || !joinable) return;
    asked.current = true;
    ask();
  }, [guest, welcomed, connected, me, joinable, ask]);
}
