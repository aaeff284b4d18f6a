import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcuts } from '../../a11y/shortcuts.ts';
import { notify } from '../../a11y/notify.ts';
import { LoadingScreen } from '../../components/LoadingScreen.tsx';
import { Page } from '../../components/Page.tsx';
import { errorText } from '../../i18n.ts';
import { useLobby } from '../../stores/lobby.ts';
import { useSession } from '../../stores/session.ts';
import { CreateGameMenu } from './CreateGameMenu.tsx';
import { GamesTable } from './GamesTable.tsx';
import { useCreateGame } from './use-create-game.ts';

/**
 * The lobby (docs/product.md#screens): the games this visitor may see, live from the global
 * stream, and the create-new-game dropdown (Alt+Shift+U, R, L).
 */
export function LobbyScreen() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const { games, loaded, error, load, offline } = useLobby();
  const { create, creating } = useCreateGame();
  // "anonymous": before the session is known, or when the server could not give one
  const anonymous = !user;

  useEffect(() => {
    void load();
  }, [load, user?.id]);

  // the server out of reach (its stream down for a while): said once, and once more when it is back
  const wasOffline = useRef(offline);
  useEffect(() => {
    if (offline === wasOffline.current) return;
    wasOffline.current = offline;
    notify.notification(t(offline ? 'lobby.offline' : 'lobby.online'), { toast: false });
  }, [offline, t]);

  // while the lobby is on screen, others' new and closed games are announced
  useEffect(() => {
    useLobby.getState().setAnnounce(true);
    return () => useLobby.getState().setAnnounce(false);
  }, []);

  useShortcuts(
    {
      create_public: () => void create('Public'),
      create_private: () => void create('Private'),
      create_local: () => void create('Local'),
    },
    !anonymous,
  );

  return (
    <Page title={t('lobby.title')} actions={<CreateGameMenu disabled={anonymous} creating={creating} onCreate={(mode) => void create(mode)} />}>
      {anonymous && <Text color="fg.muted">{t('lobby.login_to_create')}</Text>}
      {offline && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>{t('lobby.offline')}</Alert.Title>
        </Alert.Root>
      )}
      {!loaded ? (
        <LoadingScreen label={t('lobby.loading')} />
      ) : error && games.length === 0 ? (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('lobby.load_failed')}</Alert.Title>
            <Alert.Description>{errorText(error)}</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => void load()}>
            {t('common.retry')}
          </Button>
        </Alert.Root>
      ) : (
        <Stack gap="2">
          <GamesTable games={games} />
        </Stack>
      )}
    </Page>
  );
}
