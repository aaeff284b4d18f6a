import { Box, Link } from '@chakra-ui/react';
import { lazy, Suspense, useDeferredValue, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes, useLocation } from 'react-router';
import { installFocusKeeper, pageChanged } from './a11y/focus-keeper.ts';
import { LiveRegion } from './a11y/LiveRegion.tsx';
import { installShortcuts } from './a11y/shortcuts.ts';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { ErrorPage } from './components/ErrorPage.tsx';
import { Header } from './components/Header.tsx';
import { LoadingScreen } from './components/LoadingScreen.tsx';
import { Splash } from './components/Splash.tsx';
import { NotificationArea } from './components/NotificationArea.tsx';
import { ShellDialogs } from './components/ShellDialogs.tsx';
import { applyLanguage, loadNamespace } from './i18n.ts';
import { reopenGlobalEvents } from './net/events.ts';
import { LobbyScreen } from './routes/lobby/LobbyScreen.tsx';
import { connectCatalogueToEvents } from './stores/catalogue.ts';
import { connectLobbyToEvents } from './stores/lobby.ts';
import { useSession } from './stores/session.ts';
import { syncSettingsAcrossTabs, useSettings } from './stores/settings.ts';
import { useColorSchemeEffect } from './theme.ts';

// Budget P9: only the lobby is in the initial bundle. The game screen (Colyseus
// SDK, howler) and the catalogue screens are big; the others are small but rare.
// (with the messages of its `table` and `people` namespaces: a game screen without them would show keys; a failed load falls back to English ones later)
const withTable = <M,>(screen: Promise<M>): Promise<M> => Promise.all([screen, loadNamespace('table').catch(() => undefined), loadNamespace('people').catch(() => undefined)]).then(([m]) => m);
const GameScreen = lazy(() => withTable(import('./routes/game/GameScreen.tsx')));
// the TV view: the game screen's parts on a stage of their own (its own chunk, the same namespaces)
const TvScreen = lazy(() => withTable(import('./routes/game/tv/TvScreen.tsx')));
// the phone controller (the address a TV's QR code opens): its own chunk, with the game screen's namespaces
const PlayScreen = lazy(() => withTable(import('./routes/game/play/PlayScreen.tsx')));
const HitsScreen = lazy(() => import('./routes/hits/HitsScreen.tsx'));
const LoginScreen = lazy(() => import('./routes/login/LoginScreen.tsx').then((m) => ({ default: m.LoginScreen })));
const RegisterScreen = lazy(() => import('./routes/register/RegisterScreen.tsx').then((m) => ({ default: m.RegisterScreen })));
const ChangelogScreen = lazy(() => import('./routes/changelog/ChangelogScreen.tsx').then((m) => ({ default: m.ChangelogScreen })));
const ShortcutsScreen = lazy(() => import('./routes/shortcuts/ShortcutsScreen.tsx').then((m) => ({ default: m.ShortcutsScreen })));
const HowToPlayScreen = lazy(() => import('./routes/how-to-play/HowToPlayScreen.tsx').then((m) => ({ default: m.HowToPlayScreen })));

/** The routed screens; an error in one shows the error page and clears on navigation. */
function Screens() {
  const location = useLocation();
  // after a navigation nothing may have the focus (a shortcut pressed on the page's body): the new page's heading takes it
  const shownPath = useRef(location.pathname);
  // a layout effect: before the new page's own effects (its title is announced only when its heading lacks the focus)
  useLayoutEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    pageChanged();
  }, [location.pathname]);
  return (
    <ErrorBoundary key={location.pathname}>
      <Suspense fallback={<LoadingScreen />}>
        <Routes>
          <Route path="/" element={<LobbyScreen />} />
          <Route path="/game/:gameId" element={<GameScreen />} />
          <Route path="/game/:gameId/play" element={<PlayScreen />} />
          <Route path="/game/:gameId/tv" element={<TvScreen />} />
          <Route path="/hits/*" element={<HitsScreen />} />
          <Route path="/login" element={<LoginScreen />} />
          <Route path="/register" element={<RegisterScreen />} />
          <Route path="/changelog" element={<ChangelogScreen />} />
          <Route path="/shortcuts" element={<ShortcutsScreen />} />
          <Route path="/how-to-play" element={<HowToPlayScreen />} />
          <Route path="*" element={<ErrorPage status={404} />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}

/**
 * The global shell (docs/product.md#screens): a spinner until the user is known, then the
 * header (navigation and notifications), the routed screen and the shell's
 * dialogs. It also applies colour scheme and language to the document and runs
 * the tab's one global event stream.
 */
export function App() {
  const { t } = useTranslation();
  const sessionReady = useSession((s) => s.ready);
  // The whole shell renders once the user is known: a big tree, so React builds
  // it in the background (a transition, in slices that keep the page responsive,
  // budget P10) while the splash stays on screen. (main.tsx renders the app only
  // once the user is known, so there the static shell is the splash.)
  const ready = useDeferredValue(sessionReady);
  const userId = useSession((s) => s.user?.id);
  const language = useSettings((s) => s.language);
  // the TV view is a stage: no header, the whole width (docs/product.md#screens "TV")
  const tv = /^\/game\/[^/]+\/tv\/?$/.test(useLocation().pathname);
  useColorSchemeEffect();

  useEffect(() => {
    void applyLanguage(language);
  }, [language]);

  useEffect(() => {
    void useSession.getState().start();
    const offs = [connectLobbyToEvents(), connectCatalogueToEvents(), syncSettingsAcrossTabs(), installShortcuts(), installFocusKeeper()];
    return () => offs.forEach((off) => off());
  }, []);

  // The stream starts once the user is known (the server picks the private and
  // local games to list by the viewer at connect time), and restarts when he changes.
  useEffect(() => {
    if (!sessionReady) return;
    void reopenGlobalEvents();
  }, [sessionReady, userId]);

  return (
    <>
      <LiveRegion />
      {!ready ? (
        <Splash />
      ) : (
        <>
          <Link
            href="#main"
            position="fixed"
            insetStart="2"
            top="-20"
            zIndex="skipNav"
            bg="bg"
            px="4"
            minH="44px"
            display="inline-flex"
            alignItems="center"
            borderWidth="1px"
            _focus={{ top: '2' }}
          >
            {t('app.skip_to_content')}
          </Link>
          {!tv && <Header />}
          <NotificationArea />
          <Box as="main" id="main" tabIndex={-1} maxW={tv ? 'none' : '7xl'} mx="auto" px={tv ? '0' : { base: '3', md: '6' }} pb={tv ? '0' : '12'} outline="none">
            <Screens />
          </Box>
          <ShellDialogs />
        </>
      )}
    </>
  );
}
