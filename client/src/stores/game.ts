import { create } from 'zustand';
import type { Meaning } from '../a11y/game-meaning.ts';
import { useSession } from './session.ts';
import type { GamePayload } from '../../../shared/protocol/game.ts';
import { roomStateToPayload, type RoomEvent, type RoomMessageInput, type RoomMessageName } from '../../../shared/protocol/room.ts';
import { gameClock, phaseMs } from './game-clock.ts';
import { screenEffects, seenOf, type EndedRound, type Reveal, type Seen } from './game-events.ts';

/**
 * The game screen's state (only lazily loaded code imports this module): the
 * game as the room synchronizes it, converted to the plain GamePayload shape and
 * validated; the last event applied ({@link GameNews}), which
 * a11y/game-news.ts turns into words, sounds and the event feed kept here; the
 * revealed card while it has its moment; the last action sent (which decides
 * where its refusal shows); the connection's state; the guess panel's choice,
 * which shortcuts change from anywhere on the screen; and the end dialog's
 * content. What an event does to the screen comes from game-events.ts.
 *
 * The room sends its state patch before the events of an action, so the state
 * here is already the new one when an event arrives. What an event must compare
 * with the time before it (a token received on the confirm) comes from
 * `before`: the game as the events so far have described it.
 *
 * A reveal holds the screen for the game's `reveal_time`: state patches and
 * events that come meanwhile (the confirmer answered at once, the next turn
 * began) wait, and are applied in order when the time is over. The room starts
 * the next turn's timers only then as well (rules engine), and accepts the next
 * turn's actions meanwhile; this screen just does not offer them yet.
 */

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'lost' | 'gone';

export type { EndedRound } from './game-events.ts';

/** Sends a room message; the room connection installs it. */
export type Sender = <K extends RoomMessageName>(type: K, payload: RoomMessageInput<K>) => void;

/** One entry of the event feed: what an event meant, as it was said. */
export interface FeedEntry extends Meaning {
  id: number;
}

/** Feed entries kept (the screen shows the newest few). */
export const FEED_KEEP = 30;

/**
 * An event as it was applied (after a reveal's pause, if it held the event
 * back): with the game as the events before it described it and the
 * synchronized game then, what its meaning is read from.
 */
export interface GameNews {
  event: RoomEvent;
  previous: Seen;
  game: GamePayload | null;
}

/** The revealed card on screen. */
export interface RevealShown extends Reveal {
  /** Counts the reveals of this screen (a new one restarts the moment's animation). */
  id: number;
  /** When its pause ends (Date.now() ms): the next turn is held back until then. */
  until: number;
  /** This device's confirmer answered during the pause: the answer, shown until the next turn. */
  answered?: boolean;
}

export interface GameStoreState {
  gameId: string | null;
  game: GamePayload | null;
  /** Sequence number of the last event handled (the room's `seq`). */
  seq: number;
  status: ConnectionStatus;
  /** The first connection failed (unknown game, server down). */
  loadError: unknown;
  ended: EndedRound | null;
  /** The guess panel's choice: slot id, 'none' (don't intercept) or null. */
  choice: number | 'none' | null;
  sender: Sender | null;
  /** The last action sent: room errors carry no action name, and which dialog shows them depends on it. */
  lastAction: RoomMessageName | null;
  /** The game was deleted by this person's own leaving (he knows it is gone: "You left the game."). */
  closedByOwnLeave: boolean;
  /** The last event applied; null after a reset. */
  news: GameNews | null;
  /** What the room's events meant, oldest first (at most FEED_KEEP): the live region said the same. */
  feed: FeedEntry[];
  /** The card just revealed, while it has its moment (its pause, then its Confirming phase). */
  reveal: RevealShown | null;

  reset(gameId: string | null): void;
  setSender(sender: Sender | null): void;
  setStatus(status: ConnectionStatus): void;
  setLoadError(error: unknown): void;
  /** A state patch arrived: `raw` is `room.state.toJSON()`. */
  applyState(raw: unknown): void;
  applyEvent(event: RoomEvent): void;
  /** What the last event applied meant, for the feed. */
  addToFeed(meanings: readonly Meaning[]): void;
  /** The reveal moment `id` is on screen now: its pause counts from here (rendering may take a moment on a busy phone). */
  revealShown(id: number): void;
  send<K extends RoomMessageName>(type: K, payload: RoomMessageInput<K>): boolean;
  setChoice(choice: number | 'none' | null): void;
  showEnded(round: EndedRound | null): void;
}

// ---------------------------------------------------------------------------
// state conversion

/**
 * The room state (`room.state.toJSON()`) as a GamePayload with its `seq`
 * (roomStateToPayload, shared with the server's tests). Returns null (and logs)
 * when it does not match the wire contract, which keeps a broken patch from
 * reaching the components.
 */
export function toGamePayload(raw: unknown): { game: GamePayload; seq: number } | null {
  const converted = roomStateToPayload(raw);
  if (converted.ok) return converted.data;
  console.warn('game state dropped:', converted.error.message);
  return null;
}

// ---------------------------------------------------------------------------
// events, and the pause after a reveal

/** Whether the game still shows revealed card `r` (the phase after it has not begun). */
const stillRevealing = (game: GamePayload | null, r: Reveal): boolean => !!game && game.state === 'Confirming' && game.hit?.id === r.hit.id;

export const useGame = create<GameStoreState>()((set, get) => {
  let before: Seen | null = null;
  /** The event just handled was this person leaving by himself. */
  let ownLeaveJustBefore = false;
  /** The last state the room sent, applied or held. */
  let lastRaw: unknown = null;
  let nextFeedId = 1;
  let nextRevealId = 1;

  /**
   * While a revealed card has its time on the table (`reveal_time`): what came
   * meanwhile, in order, applied when the time is over. The whole screen stays
   * on the reveal (the next turn's card, actions and audio wait), and what the
   * held events mean is said and shown as the next turn appears.
   */
  interface Held {
    /** What came meanwhile; an event with the moment it came (Date.now() ms). */
    queue: ({ raw: unknown } | { event: RoomEvent; at: number })[];
    timer: ReturnType<typeof setTimeout>;
    /** The end dialog the reveal leads to, opened when the pause is over. */
    ended?: EndedRound | null;
    /** The game on screen was changed ahead of the room (an answer sent during the pause). */
    ahead: boolean;
    /** The reveal it holds for (its id), when it was handled (Date.now() ms) and when the pause ends. */
    reveal: number;
    since: number;
    until: number;
  }
  let held: Held | null = null;

  const stopHolding = (): void => {
    if (held) clearTimeout(held.timer);
    held = null;
  };

  /** An event that came at `at`: handled now or, during a pause, when the pause is over. */
  const receive = (event: RoomEvent, at: number, live: boolean): void => {
    // a year dispute pauses the table (docs/rules.md#disputes): the reveal's pause gives way to the vote at once
    if (held && event.event === 'dispute') release();
    if (held) held.queue.push({ event, at });
    else handleEvent(event, at, live);
  };

  /**
   * The pause is over: the end dialog it kept back opens, and what came
   * meanwhile is applied in order (a reveal among it starts a new pause, which
   * holds the rest back in turn).
   */
  const release = (): void => {
    const h = held;
    if (!h) return;
    held = null;
    if (h.ended !== undefined) set({ ended: h.ended });
    for (const item of h.queue) {
      if ('raw' in item) get().applyState(item.raw);
      else receive(item.event, item.at, false);
    }
    if (held) return;
    // an answer shown ahead of the room, and nothing came after it: back to what the room says
    if (h.ahead && !h.queue.some((i) => 'raw' in i) && lastRaw !== null) get().applyState(lastRaw);
    const r = get().reveal;
    if (r && !stillRevealing(get().game, r)) set({ reveal: null });
  };

  /**
   * Handles one event that came at `at`; `live`: it is handled as it came (not
   * after a pause), so its deadline tells the server's clock.
   */
  const handleEvent = (event: RoomEvent, at: number, live: boolean): void => {
    const { seq, game } = get();
    if (event.seq <= seq) return;
    const data = event.data;
    // a live event's deadline was armed just now (game-clock.ts); one that came during a reveal's
    // pause was armed for the pause's end, which says nothing about the server's time now
    if (live && data.deadline !== undefined && game) gameClock.armed(data.deadline, phaseMs(game, data.state ?? game.state));
    const previous = before ?? seenOf(game);
    const outcome = screenEffects(previous, event, game, useSession.getState().user?.id, ownLeaveJustBefore);
    before = outcome.seen;
    ownLeaveJustBefore = outcome.ownLeave;
    // its meaning is said and added to the feed now (a11y/game-news.ts), before the screen changes
    set({ seq: event.seq, news: { event, previous, game } });
    if (outcome.closed) set({ closedByOwnLeave: outcome.closed.byOwnLeave });
    if (outcome.clearChoice) set({ choice: null });
    // the revealed card's moment shows the table's year and its new owner (the vote's decision came first)
    const rejudged = outcome.rejudged;
    if (rejudged) set((s) => (s.reveal?.hit.id === rejudged.hit ? { reveal: { ...s.reveal, hit: { ...s.reveal.hit, year: rejudged.year }, winner: rejudged.winner } } : {}));
    // a win the new year undid: the round goes on, and its end dialog with it
    if (rejudged && game && game.state !== 'Open') set({ ended: null });
    let ended = outcome.ended;
    if (outcome.reveal) {
      // counted from when the reveal came: one that waited behind another pause has had part of its time
      const pause = Math.max(0, at + (game?.reveal_time ?? 0) * 1000 - Date.now());
      const id = nextRevealId++;
      const now = Date.now();
      if (pause > 0) {
        stopHolding();
        held = { queue: [], timer: setTimeout(release, pause), ahead: false, reveal: id, since: now, until: now + pause };
        // the end dialog waits until the winning card has had its moment
        if (ended !== undefined) held.ended = ended;
        ended = undefined;
      }
      // without a pause a reveal is shown while its phase lasts (not at all when it ended the game)
      if (pause > 0 || !outcome.reveal.final) set({ reveal: { ...outcome.reveal, id, until: now + pause } });
    }
    if (ended !== undefined) set({ ended });
  };

  return {
    gameId: null,
    game: null,
    seq: 0,
    status: 'connecting',
    loadError: null,
    ended: null,
    choice: null,
    sender: null,
    lastAction: null,
    closedByOwnLeave: false,
    news: null,
    feed: [],
    reveal: null,

    reset(gameId) {
      before = null;
      ownLeaveJustBefore = false;
      lastRaw = null;
      stopHolding();
      gameClock.reset();
      set({ gameId, game: null, seq: 0, status: 'connecting', loadError: null, ended: null, choice: null, sender: null, lastAction: null, closedByOwnLeave: false, news: null, feed: [], reveal: null });
    },

    setSender(sender) {
      set({ sender });
    },

    setStatus(status) {
      // after a gap, the events in between are lost: compare with the state as it is now
      if (status === 'connected') before = null;
      set({ status });
    },

    setLoadError(loadError) {
      set({ loadError });
    },

    applyState(raw) {
      lastRaw = raw;
      if (held) {
        held.queue.push({ raw });
        return;
      }
      const converted = toGamePayload(raw);
      if (!converted) return;
      const { game, seq } = converted;
      before ??= { state: game.state, players: game.players, settings: game };
      // a deadline in the state was armed at some moment before now: a bound for the server's clock
      if (game.deadline !== null) gameClock.seen(game.deadline, phaseMs(game, game.state));
      // the first snapshot sets the sequence; events up to it are history
      set((s) => ({ game, seq: s.game ? s.seq : seq }));
      // a reveal leaves the screen when the game moves on (its pause, if any, is over)
      const r = get().reveal;
      if (r && !stillRevealing(game, r)) set({ reveal: null });
    },

    applyEvent(event) {
      receive(event, Date.now(), true);
    },

    addToFeed(meanings) {
      const entries = meanings.map((m): FeedEntry => ({ ...m, id: nextFeedId++ }));
      set((s) => ({ feed: [...s.feed, ...entries].slice(-FEED_KEEP) }));
    },

    revealShown(id) {
      // the pause is the time the card is on screen: the moment it took to get there is added
      if (!held || held.reveal !== id) return;
      const late = Date.now() - held.since;
      if (late <= 0) return;
      held.since += late;
      held.until += late;
      clearTimeout(held.timer);
      held.timer = setTimeout(release, held.until - Date.now());
      const until = held.until;
      set((s) => (s.reveal?.id === id ? { reveal: { ...s.reveal, until } } : {}));
    },

    send(type, payload) {
      const { sender } = get();
      if (!sender) return false;
      set({ lastAction: type });
      sender(type, payload);
      // answered during a reveal's pause: the room moves on at once, the screen only when the pause is over;
      // meanwhile the answer shows as given (the question goes away, as it will)
      if (type === 'confirm' && held) {
        held.ahead = true;
        const yes = (payload as RoomMessageInput<'confirm'>).confirm;
        set((s) => ({
          game: s.game && { ...s.game, players: s.game.players.map((p) => (p.state === 'Confirming' ? { ...p, state: 'Waiting' as const } : p)) },
          reveal: s.reveal && { ...s.reveal, answered: yes },
        }));
      }
      return true;
    },

    setChoice(choice) {
      set({ choice });
    },

    showEnded(ended) {
      set({ ended });
    },
  };
});
