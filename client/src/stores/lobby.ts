import { create } from 'zustand';
import type { GamePayload, GameSummary } from '../../../shared/protocol/game.ts';
import { summarizeGame } from '../../../shared/rules/views.ts';
import { listGames } from '../net/games.ts';
import { onGlobalEvent, onGlobalStreamDown, onGlobalStreamOpen } from '../net/events.ts';
import { notify } from '../a11y/notify.ts';
import { useSession } from './session.ts';

/**
 * The lobby's list of games: loaded with `GET /api/games/`, then kept current by
 * the one global stream (`create_game`, `game_summary`, `remove_game`), never by
 * one stream per game (docs/api.md#b11).
 */

export type LobbyGame = GameSummary;

export interface LobbyState {
  games: LobbyGame[];
  /** The first load finished. */
  loaded: boolean;
  /** The last load failed with this error. */
  error: unknown;
  /** The lobby is on screen: games created and closed by others are announced (docs/product.md#states). */
  announce: boolean;
  /** The server's event stream has been down for a while: the list may be out of date. */
  offline: boolean;
  setAnnounce(on: boolean): void;
  load(): Promise<void>;
  /** Adds a game or replaces its line (keeps the row's place). */
  upsert(game: LobbyGame): void;
  remove(id: string): void;
  reset(): void;
}

let loading: AbortController | null = null;

export const useLobby = create<LobbyState>()((set) => ({
  games: [],
  loaded: false,
  error: null,
  announce: false,
  offline: false,

  setAnnounce(announce) {
    set({ announce });
  },

  async load() {
    loading?.abort();
    const controller = new AbortController();
    loading = controller;
    try {
      const { games } = await listGames(controller.signal);
      if (controller.signal.aborted) return;
      set({ games: games.map((g: GamePayload) => summarizeGame(g)), loaded: true, error: null });
    } catch (error) {
      if (controller.signal.aborted) return;
      set({ loaded: true, error });
    } finally {
      if (loading === controller) loading = null;
    }
  },

  upsert(game) {
    set((s) => {
      const at = s.games.findIndex((g) => g.id === game.id);
      if (at < 0) return { games: [...s.games, game] };
      const games = s.games.slice();
      games[at] = game;
      return { games };
    });
  },

  remove(id) {
    set((s) => (s.games.some((g) => g.id === id) ? { games: s.games.filter((g) => g.id !== id) } : s));
  },

  reset() {
    loading?.abort();
    set({ games: [], loaded: false, error: null });
  },
}));

/** How long the stream must stay down before the lobby says so, ms. */
export const OFFLINE_AFTER_MS = 4000;
let offlineTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Wires the store to the global stream; returns the unsubscribe function. A
 * (re)connect reloads the list, since removals sent while the stream was down
 * are lost (the stream only replays the games that still exist).
 */
export function connectLobbyToEvents(): () => void {
  const { upsert, remove, load } = useLobby.getState();
  const offs = [
    onGlobalEvent('create_game', (game) => {
      const summary = summarizeGame(game);
      const known = useLobby.getState().games.some((g) => g.id === summary.id);
      upsert(summary);
      // one's own new game opens at once; nobody needs to hear of it
      const me = useSession.getState().user?.id;
      if (useLobby.getState().announce && !known && !game.players.some((p) => p.id === me)) notify.gameCreated(summary.creator);
    }),
    onGlobalEvent('game_summary', (summary) => upsert(summary)),
    onGlobalEvent('remove_game', (id) => {
      const gone = useLobby.getState().games.find((g) => g.id === id);
      remove(id);
      // only a Public game's end is news: a Private game also leaves the list when one leaves it
      if (gone && gone.mode === 'Public' && useLobby.getState().announce) notify.gameRemoved(gone.creator);
    }),
    onGlobalStreamOpen((reconnected) => {
      clearTimeout(offlineTimer);
      offlineTimer = undefined;
      if (!reconnected) return;
      // "up to date" only once the list is reloaded; a failed reload shows its own error
      void load().finally(() => {
        if (useLobby.getState().offline) useLobby.setState({ offline: false });
      });
    }),
    // a blip the browser mends within seconds is not worth a word; a longer outage is
    onGlobalStreamDown(() => {
      offlineTimer ??= setTimeout(() => useLobby.setState({ offline: true }), OFFLINE_AFTER_MS);
    }),
  ];
  return () => {
    offs.forEach((off) => off());
    clearTimeout(offlineTimer);
    offlineTimer = undefined;
  };
}
