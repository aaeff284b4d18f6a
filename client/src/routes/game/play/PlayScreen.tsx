import '../recipes.ts';
import { Alert, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { notify } from '../../../a11y/notify.ts';
import { silenceSfx, unlockAudio } from '../../../audio/sfx.ts';
import { usePageTitle } from '../../../components/page-title.ts';
import { useGuestRename } from '../../../components/GuestNameField.tsx';
import { useGame } from '../../../stores/game.ts';
import { useSession } from '../../../stores/session.ts';
import { useSettings } from '../../../stores/settings.ts';
import { EmojiChoice } from '../EmojiChoice.tsx';
import { GameNotThere } from '../GameGone.tsx';
import * as actions from '../game-actions.ts';
import { release } from '../hit-audio.ts';
import { TableMotion } from '../table/motion.tsx';
import { useGameRoom } from '../use-game-room.ts';
import { usePerspective } from '../use-perspective.ts';
import { Controller } from './Controller.tsx';
import { controllerView } from './controller-logic.ts';
import { LocalSeats } from './LocalSeats.tsx';
import { useListen } from './listen.ts';

/**
 * The phone controller (docs/product.md#screens, /game/{gameId}/play): the address the
 * TV's QR code opens. A visitor who is not seated gets the name prompt while
 * the game is Open, or is told that it runs (watch it, or wait here for the
 * next one); a seated player gets the controller. The room connection is the
 * game screen's (use-game-room.ts), so a reload or a server restart comes back
 * to the same state, and its live region says every event. The phone is silent
 * unless its player listens on it (listen.ts). A one-device game's phone comes
 * with the game's seat key and picks its seat first (LocalSeats).
 */
export default function PlayScreen() {
  const { t } = useTranslation();
  const { gameId = '' } = useParams();
  // a one-device game's join link carries its seat key (docs/rules.md#local)
  const [search] = useSearchParams();
  const seatKey = search.get('key') ?? '';
  const { retry } = useGameRoom(gameId, seatKey ? { key: seatKey } : {});
  const navigate = useNavigate();
  const hasGame = useGame((s) => s.game !== null);
  const status = useGame((s) => s.status);
  const loadError = useGame((s) => s.loadError);
  const players = useGame((s) => s.game?.players);
  const state = useGame((s) => s.game?.state);
  const mode = useGame((s) => s.game?.mode);
  const perspective = usePerspective();
  const view = useMemo(() => (players && state && mode ? controllerView({ players, state, mode }, perspective) : null), [players, state, mode, perspective]);
  const listen = useListen((s) => s.listen);
  usePageTitle(t('controller.page_title'), { announce: 'once' });

  // a phone that scanned the code came to play: the app's welcome tour would stand in front of the name prompt
  useEffect(() => {
    if (!useSettings.getState().welcome) useSettings.getState().setWelcome(true);
  }, []);

  // silent by default: the TV plays the hit and the cues
  useEffect(() => {
    silenceSfx(!listen);
    if (!listen) release();
  }, [listen]);
  useEffect(
    () => () => {
      silenceSfx(false);
      release();
    },
    [],
  );

  // a listening phone allows audio only after a gesture: the first tap or key unlocks it
  useEffect(() => {
    if (!listen) return;
    const unlock = (): void => void unlockAudio();
    window.addEventListener('pointerdown', unlock, { capture: true, once: true });
    window.addEventListener('keydown', unlock, { capture: true, once: true });
    return () => {
      window.removeEventListener('pointerdown', unlock, true);
      window.removeEventListener('keydown', unlock, true);
    };
  }, [listen]);

  // a deleted game sends the phone to the lobby, as the game screen does
  useEffect(() => {
    if (status === 'reconnecting') notify.notification(t('game.reconnecting'), { toast: false, interrupt: true });
    if (status === 'lost') notify.notification(t('game.lost'), { toast: false, interrupt: true });
    if (status === 'gone') {
      if (!useGame.getState().closedByOwnLeave) notify.notification(t('game.gone'), { toast: 'warning', interrupt: true });
      void navigate('/');
    }
  }, [status, t, navigate]);

  if (!hasGame || !view) return <GameNotThere loadError={loadError} retry={retry} />;

  return (
    <TableMotion>
      <Stack maxW="40rem" mx="auto" pt="3" gap="4">
        {(status === 'reconnecting' || status === 'lost') && (
          <Alert.Root status={status === 'lost' ? 'error' : 'warning'}>
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t(status === 'lost' ? 'game.lost' : 'game.reconnecting')}</Alert.Title>
            </Alert.Content>
            {status === 'lost' && (
              <Button size="sm" variant="outline" onClick={retry}>
                {t('common.retry')}
              </Button>
            )}
          </Alert.Root>
        )}
        {view.kind === 'join' && <JoinForm />}
        {view.kind === 'closed' && <Closed gameId={gameId} reason={view.reason} />}
        {view.kind === 'seats' && <LocalSeats seatKey={seatKey} canAdd={view.canAdd} />}
        {view.kind !== 'join' && view.kind !== 'closed' && view.kind !== 'seats' && <Controller view={view} gameId={gameId} />}
      </Stack>
    </TableMotion>
  );
}

/**
 * The name prompt, as the join dialog asks it but on the page (a phone that
 * scanned the code has nothing else to do): a guest types his name (his random
 * one prefilled) and picks an emoji; an account picks an emoji only.
 */
function JoinForm() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const guest = !!user?.virtual;
  const [avatar, setAvatar] = useState('');
  const { name, busy, reset, commit, field } = useGuestRename(guest);
  useEffect(() => {
    reset(user?.name ?? '');
    // (the name the user has when the prompt appears)
  }, [user?.name]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (busy) return;
    commit(user?.name, () => void actions.join(avatar));
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="play-join-heading">
    <Stack gap="5">
      <Stack gap="2">
        <Heading as="h1" id="play-join-heading" size="2xl" fontFamily="heading">
          {guest ? t('people:join.title_guest') : t('people:join.title_account', { name: user?.name ?? '' })}
        </Heading>
        <Text color="fg.muted">{t('controller.join_intro')}</Text>
      </Stack>
      {guest ? field : <Text>{t('people:join.account_name', { name: user?.name ?? '' })}</Text>}
      <EmojiChoice value={avatar} onChange={setAvatar} name={guest ? name : (user?.name ?? '')} legend={t('people:avatar.legend')} />
      <Button type="submit" colorPalette="accent" size="xl" minH="14" loading={busy}>
        {t('people:join.submit')}
      </Button>
    </Stack>
    </form>
  );
}

/** Not seated and no seat to take now: say why, offer to watch; the page turns into the prompt when the game is Open again. */
function Closed({ gameId, reason }: { gameId: string; reason: 'running' | 'full' }) {
  const { t } = useTranslation();
  return (
    <Stack gap="4" data-testid="play-closed">
      <Heading as="h1" size="2xl" fontFamily="heading">
        {t(reason === 'running' ? 'controller.started_title' : 'controller.full_title')}
      </Heading>
      <Text>{t(reason === 'running' ? 'controller.started_text' : 'controller.full_text')}</Text>
      <Button asChild colorPalette="accent" size="xl" minH="14">
        <RouterLink to={`/game/${encodeURIComponent(gameId)}`}>{t('controller.watch')}</RouterLink>
      </Button>
    </Stack>
  );
}
