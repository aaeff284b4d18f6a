import './recipes.ts';
import { Button, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useGuestRename } from '../../components/GuestNameField.tsx';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import { EmojiChoice } from './EmojiChoice.tsx';
import * as actions from './game-actions.ts';
import { usePerspective } from './use-perspective.ts';

/** What the lobby passes to a game it just created (router state): the Local game's host is asked who plays. */
export interface CreatedState {
  created?: boolean;
}

/**
 * "Who is playing?": a Local game just created asks its host
 * first, by the name this device is known by. A guest may give his own name,
 * which renames him (the seat, the user menu and his other seats follow: one
 * person, one name); an account plays under its name. Then the seats are added
 * one by one (`onNext` opens the add-player dialog).
 */
export function WhoIsPlayingDialog({ open, onClose, onNext }: { open: boolean; onClose: () => void; onNext: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const guest = !!user?.virtual;
  const { me } = usePerspective();
  const [avatar, setAvatar] = useState('');
  const { name, busy, reset, commit, field } = useGuestRename(guest);

  useEffect(() => {
    if (!open) return;
    reset(user?.name ?? '');
    setAvatar(me?.avatar ?? '');
    // (the name and emoji as they are when it opens, not as they change meanwhile)
  }, [open]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (busy) return;
    commit(user?.name, () => {
      if (avatar !== (me?.avatar ?? '') && !actions.setAvatar(avatar)) return;
      onClose();
      onNext();
    });
  };

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      size="sm"
      keyboardOnOpen={false}
      title={t('people:who.title')}
      footer={
        <Button type="submit" form="who-form" colorPalette="accent" loading={busy}>
          {t('people:who.next')}
        </Button>
      }
    >
      <form id="who-form" onSubmit={submit} noValidate>
        <Stack gap="5">
          <Text>{t('people:who.intro')}</Text>
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

/** Opens "Who is playing?" once, for the host of a Local game the lobby just created, while he sits alone. */
export function useAskWhoIsPlaying(ask: () => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const created = (location.state as CreatedState | null)?.created === true;
  const alone = useGame((s) => s.game?.mode === 'Local' && s.game.state === 'Open' && s.game.players.length === 1);
  const { me } = usePerspective();
  useEffect(() => {
    if (!created || !alone || !me?.creator) return;
    // asked once: a reload or the way back here does not ask again
    void navigate(location.pathname, { replace: true, state: null });
    ask();
  }, [created, alone, me?.creator, ask, navigate, location.pathname]);
}
