import './recipes.ts';
import { Button, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { AppDialog } from '../../components/AppDialog.tsx';
import { GuestNameField, guestNameProblem, renameErrorText } from '../../components/GuestNameField.tsx';
import { renameMe } from '../../net/users.ts';
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
 * "Who is playing?" (issue 26 §3): a Local game just created asks its host
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
  const [name, setName] = useState('');
  const [avatar, setAvatar] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    setName(user?.name ?? '');
    setAvatar(me?.avatar ?? '');
    setTouched(false);
    setServerError(null);
    // (the name and emoji as they are when it opens, not as they change meanwhile)
  }, [open]);

  const problem = guest ? (serverError ?? (touched ? guestNameProblem(name) : null)) : null;

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    setTouched(true);
    if (guest && guestNameProblem(name)) {
      inputRef.current?.focus();
      return;
    }
    const wanted = name.trim();
    if (guest && wanted !== user?.name) {
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
    }
    if (avatar !== (me?.avatar ?? '') && !actions.setAvatar(avatar)) return;
    onClose();
    onNext();
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
      <form id="who-form" onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="5">
          <Text>{t('people:who.intro')}</Text>
          {guest ? (
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
