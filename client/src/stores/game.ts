import type { HitLike } from '../format.ts';
import { create } from 'zustand';
import { isYou, notify, type Who } from '../a11y/notify.ts';
import { showError } from '../errors.ts';
import { errorValues, i18next } from '../i18n.ts';
import { useSession } from './session.ts';
import type { GamePayload, GameState, PlayerPayload, Settings } from '../../../shared/protocol/game.ts';
import type { ErrorBody } from '../../../shared/protocol/common.ts';
import { roomStateToPayload, type RoomEvent, type RoomEventPlayer, type RoomMessageInput, type RoomMessageName } from '../../../shared/protocol/room.ts';
import { gameClock, phaseMs } from './game-clock.ts';
import { NUMERIC_SETTINGS } from '../../../shared/rules/constants.ts';
import { clueChoice } from '../../../shared/rules/settings.ts';
import { localActor } from '../routes/game/game-logic.ts';

/**
 * The game screen's state (only lazily loaded code imports this module): the
 * game as the room synchronizes it, converted to the plain GamePayload shape and
 * validated; the room's events turned into announcements and sound cues
 * (notify.ts); refused actions routed to the error dialog or the log (spec §8);
 * the connection's state; the guess panel's choice, which shortcuts change from
 * anywhere on the screen; and the end dialog's content.
 *
 * The room sends its state patch before the events of an action, so the state
 * here is already the new one when an event arrives. What an event must compare
 * with the time before it (a token received on the confirm) comes from
 * `before`: the game as the events so far have described it.
 */

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'lost' | 'gone';

/** What the game-ended dialog shows; kept until dismissed. */
export interface EndedRound {
  winner: PlayerPayload | null;
  standings: PlayerPayload[];
  /** The card revealed as the game ended (the one that won it, placed or claimed), when the end event named one. */
  hit?: HitLike;
}

/** Sends a room message; the room connection installs it. */
export type Sender = <K extends RoomMessageName>(type: K, payload: RoomMessageInput<K>) => void;

/** The phase and seats as the events described them, for comparisons across one event. */
interface Before {
  state: GameState;
  players: RoomEventPlayer[];
  /** The settings (a GamePayload has them among its own fields). */
  settings: Settings | null;
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

  reset(gameId: string | null): void;
  setSender(sender: Sender | null): void;
  setStatus(status: ConnectionStatus): void;
  setLoadError(error: unknown): void;
  /** A state patch arrived: `raw` is `room.state.toJSON()`. */
  applyState(raw: unknown): void;
  applyEvent(event: RoomEvent): void;
  handleError(error: ErrorBody): void;
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
// errors: which refusals the person sees (spec §8)

/** Shown in the error dialog: start, settings save, and the seat changes (whose failure is otherwise invisible). */
const DIALOG_ACTIONS = new Set<RoomMessageName>(['start', 'stop', 'update', 'join', 'join_local', 'leave']);
/** Said and shown as a toast: a blocked skip or claim names its reason. */
const TOAST_ACTIONS = new Set<RoomMessageName>(['skip', 'claim']);

const errorText = (error: ErrorBody): string => i18next.t(`errors.${error.code}`, errorValues(error.message));

// ---------------------------------------------------------------------------
// events → announcements

function replacePlayers(players: RoomEventPlayer[], changed: readonly RoomEventPlayer[]): RoomEventPlayer[] {
  return players.map((p) => changed.find((c) => c.id === p.id) ?? p);
}

export const useGame = create<GameStoreState>()((set, get) => {
  let before: Before | null = null;

  const who = (p: Pick<PlayerPayload, 'id' | 'name'>): Who => {
    return { name: p.name, you: isYou(p.id, useSession.getState().user?.id, get().game?.mode ?? 'Local') };
  };

  /** Whose turn it is now, said once per turn (not in the spec's list; screen-reader users have no other cue). */
  const announceTurn = (players: readonly RoomEventPlayer[]): void => {
    const turn = players.find((p) => p.turn_player);
    if (!turn) return;
    const w = who(turn);
    notify.notification(w.you ? i18next.t('game.announce.turn_you') : i18next.t('game.announce.turn_other', { name: turn.name }), { toast: false });
  };

  /** How the confirmation of `turn`'s answer ended (`by`: the confirmer), before the next turn is announced. */
  const announceAnswer = (turn: RoomEventPlayer, cause: RoomEvent['data']['cause'], by: RoomEventPlayer | undefined): void => {
    if (cause !== 'confirmed' && cause !== 'rejected' && cause !== 'timeout' && cause !== 'absent') return;
    const key = `game.announce.answer_${cause}`;
    const owner = who(turn);
    const confirmer = by ? who(by) : null;
    // a Local game's creator confirms every seat's answer, his own too: the answer is what matters
    const local = get().game?.mode === 'Local' && (cause === 'confirmed' || cause === 'rejected');
    const variant = local ? '_local' : confirmer?.you ? '_by_you' : owner.you ? '_you' : '';
    notify.notification(i18next.t(key + variant, { name: owner.name, by: confirmer?.name ?? '' }), { toast: false });
  };

  /** Players who lost their connection or came back (not in Local games, whose seats share one screen). */
  const announceConnections = (was: readonly RoomEventPlayer[], now: readonly RoomEventPlayer[]): void => {
    if (get().game?.mode === 'Local') return;
    for (const p of now) {
      const old = was.find((q) => q.id === p.id);
      if (!old || p.virtual || old.connected === p.connected || who(p).you) continue;
      notify.notification(i18next.t(p.connected ? 'game.announce.connection_back' : 'game.announce.connection_lost', { name: p.name }), { toast: false });
    }
  };

  /** Local games ask the seats one by one whether to intercept: who is asked now, said once per seat. */
  let askedLocal: string | null = null;
  /** The event just handled was this person leaving by himself. */
  let ownLeaveJustBefore = false;
  const askLocalInterceptor = (): void => {
    const g = get().game;
    if (!g || g.mode !== 'Local' || g.state !== 'Intercepting') {
      askedLocal = null;
      return;
    }
    const seat = localActor(g);
    const turn = g.players.find((p) => p.turn_player);
    // once per seat and card: the same seat may be asked first in the next turn
    const key = seat ? `${g.draws}:${seat.id}` : null;
    if (!seat || !turn || key === askedLocal || seat.state !== 'Intercepting') return;
    askedLocal = key;
    notify.notification(i18next.t('game.announce.intercept_local', { name: seat.name, turn: turn.name }), { toast: false });
  };

  /** Card clue mode: the new card, which someone reads aloud to the turn player. */
  const announceClue = (clue: RoomEvent['data']['clue']): void => {
    if (!clue) return;
    const key = clue.belongs_to ? 'game.announce.clue_belongs_to' : 'game.announce.clue';
    notify.notification(i18next.t(key, { title: clue.title, artist: clue.artist, belongs_to: clue.belongs_to }), { toast: false });
  };

  /** What the creator changed in the settings, each as its label and new value. */
  const announceSettings = (was: Settings | null, now: Settings): void => {
    const t = (key: string, params?: Record<string, unknown>) => i18next.t(key, params ?? {});
    const changes: string[] = [];
    for (const k of NUMERIC_SETTINGS) {
      if (was && was[k] === now[k]) continue;
      const off = now[k] === 0 && k.endsWith('_timeout');
      changes.push(`${t(`game.settings.${k}`)}: ${off ? t('game.announce.no_limit') : now[k]}`);
    }
    // the creator's choice (an automatic game's mode of the last start is no change of his)
    if (!was || clueChoice(was) !== clueChoice(now)) changes.push(`${t('game.settings.clue_mode')}: ${t(`game.settings.clue_${clueChoice(now)}`)}`);
    if (!was || was.packs.length !== now.packs.length || was.packs.some((id, i) => id !== now.packs[i])) {
      changes.push(`${t('game.settings.packs')}: ${now.packs.length}`);
    }
    if (changes.length === 0) return;
    const creator = get().game?.players.find((p) => p.creator);
    const mine = !!creator && who(creator).you;
    notify.notification(t(mine ? 'game.announce.settings_changed_you' : 'game.announce.settings_changed', { changes: changes.join('; ') }), { toast: false });
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

    reset(gameId) {
      before = null;
      askedLocal = null;
      ownLeaveJustBefore = false;
      gameClock.reset();
      set({ gameId, game: null, seq: 0, status: 'connecting', loadError: null, ended: null, choice: null, sender: null, lastAction: null, closedByOwnLeave: false });
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
      const converted = toGamePayload(raw);
      if (!converted) return;
      const { game, seq } = converted;
      before ??= { state: game.state, players: game.players, settings: game };
      // a deadline in the state was armed at some moment before now: a bound for the server's clock
      if (game.deadline !== null) gameClock.seen(game.deadline, phaseMs(game, game.state));
      // the first snapshot sets the sequence; events up to it are history
      set((s) => ({ game, seq: s.game ? s.seq : seq }));
    },

    applyEvent(event) {
      const { seq, game } = get();
      if (event.seq <= seq) return;
      set({ seq: event.seq });
      const ownLeaveBefore = ownLeaveJustBefore;
      ownLeaveJustBefore = false;
      const prev: Before = before ?? { state: game?.state ?? 'Open', players: game?.players ?? [], settings: game ?? null };
      const data = event.data;
      // events are sent once, as they happen: a deadline in one was armed just now (game-clock.ts)
      if (data.deadline !== undefined && game) gameClock.armed(data.deadline, phaseMs(game, data.state ?? game.state));
      const changed = data.players ?? [];
      const first = changed[0];
      switch (event.event) {
        case 'join':
          if (first) notify.joined(who(first));
          before = { ...prev, players: [...prev.players, ...changed] };
          return;
        case 'leave':
          if (first) notify.left(who(first), data.removed_by ? who(data.removed_by) : undefined);
          // the game's last events may be this leave, then the deleting change_state
          // (by id: a Local game says no "you", yet its creator's own leaving deletes it)
          ownLeaveJustBefore = !!first && !data.removed_by && first.id === useSession.getState().user?.id;
          before = { ...prev, players: prev.players.filter((p) => !changed.some((c) => c.id === p.id)) };
          return;
        case 'guess':
          // the turn player's placement is free; an interceptor's slot costs a token
          if (first) {
            const missed = data.cause === 'timeout' || data.cause === 'absent' ? data.cause : undefined;
            notify.guessed(who(first), first.guess, !!first.guess && !first.turn_player, missed);
          }
          before = { ...prev, players: replacePlayers(prev.players, changed) };
          askLocalInterceptor();
          return;
        case 'skip':
          if (first && data.hit) notify.skippedHit(who(first), data.hit);
          before = { ...prev, players: replacePlayers(prev.players, changed) };
          announceClue(data.clue);
          return;
        case 'claim':
          if (first && data.hit) notify.claimedHit(who(first), data.hit);
          before = { ...prev, players: replacePlayers(prev.players, changed) };
          return;
        case 'update':
          if (data.settings) announceSettings(prev.settings, data.settings);
          before = { ...prev, settings: data.settings ?? prev.settings };
          return;
        case 'change_state':
          break;
      }
      // change_state: the seats are the state's, which the patch before this event brought
      const state = data.state ?? prev.state;
      const players = get().game?.players ?? prev.players;
      before = { ...prev, state, players };
      // the game was deleted; the room closes next
      if (event.final) {
        set({ closedByOwnLeave: ownLeaveBefore });
        return;
      }
      announceConnections(prev.players, players);
      if (prev.state === 'Open' && state === 'Guessing') {
        notify.gameStarted();
        set({ ended: null, choice: null });
        announceTurn(players);
        announceClue(data.clue);
        return;
      }
      if (state === 'Intercepting' && prev.state === 'Guessing') {
        const turn = players.find((p) => p.turn_player);
        const mine = players.find((p) => p.state === 'Intercepting' && who(p).you);
        if (turn && mine) notify.notification(i18next.t('game.announce.intercept_you', { name: turn.name }), { toast: false });
        askLocalInterceptor();
        return;
      }
      if (state === 'Confirming') {
        const turn = players.find((p) => p.turn_player);
        const confirmer = players.find((p) => p.state === 'Confirming');
        const asked = prev.players.find((p) => p.state === 'Confirming');
        if (prev.state !== 'Confirming') {
          // the outcome interrupts: the last guess, queued just before, is read as part of it (announcer.ts); the reveal follows
          notify.scored(data.last_scored ? who(data.last_scored) : null);
          if (data.hit) notify.hitRevealed(data.hit);
        } else if (!confirmer || confirmer.id === asked?.id) {
          return;
        }
        // asked to confirm: after the reveal, or when the one asked before is gone
        if (turn && confirmer && (who(confirmer).you || get().game?.mode === 'Local')) {
          // card mode shows title and artist to everybody: the question is the exact year instead
          const key = get().game?.clue_mode === 'card' ? 'game.announce.confirm_card' : 'game.announce.confirm';
          notify.notification(i18next.t(key, { name: turn.name }), { toast: false });
        }
        return;
      }
      if (state === 'Open' && prev.state !== 'Open') {
        if (data.cause === 'stopped') {
          // stopped, not won: no result and no end dialog
          const by = data.by ? who(data.by) : null;
          const text = by?.you ? i18next.t('game.announce.stopped_you') : i18next.t('game.announce.stopped', { name: by?.name ?? '' });
          notify.notification(text, { interrupt: true, toast: by?.you ? false : 'info' });
          set({ ended: null, choice: null });
          return;
        }
        // the last answer's outcome first, when the round ended because no card was left after it
        const lastTurn = prev.players.find((p) => p.turn_player);
        if (prev.state === 'Confirming' && lastTurn) announceAnswer(lastTurn, data.cause, data.by);
        const winner = data.winner ?? null;
        notify.gameEnded(winner ? who(winner) : null);
        if (data.hit) notify.hitRevealed(data.hit);
        set({ ended: { winner, standings: data.standings ?? [], ...(data.hit ? { hit: data.hit } : {}) }, choice: null });
        return;
      }
      if (state === 'Guessing' && prev.state !== 'Guessing') {
        const oldTurn = prev.players.find((p) => p.turn_player);
        const now = oldTurn && players.find((p) => p.id === oldTurn.id);
        if (prev.state === 'Confirming' && oldTurn) announceAnswer(oldTurn, data.cause, data.by);
        // spec §4: Confirming → Guessing with the turn player's tokens up = a token received
        if (prev.state === 'Confirming' && oldTurn && now && now.tokens > oldTurn.tokens) notify.tokenReceived(who(now));
        set({ choice: null });
        announceTurn(players);
        announceClue(data.clue);
        return;
      }
      const oldTurn = prev.players.find((p) => p.turn_player);
      if (state === 'Guessing' && oldTurn?.id !== players.find((p) => p.turn_player)?.id) {
        // the turn passed without a reveal: time out (an absent turn player was just announced, one who left too)
        if (oldTurn && data.cause === 'timeout') {
          const w = who(oldTurn);
          // shown too: the card and the turn just change, and everybody should see why
          notify.notification(i18next.t(w.you ? 'game.announce.guess_timeout_you' : 'game.announce.guess_timeout', { name: w.name }), { toast: w.you ? 'warning' : 'info' });
        }
        set({ choice: null });
        announceTurn(players);
        announceClue(data.clue);
      }
    },

    handleError(error) {
      const action = get().lastAction;
      // an interception whose slot someone took while it was on its way: he may choose again
      if (action === 'guess' && error.code === 'slot_taken') {
        notify.notification(i18next.t('game.guess.slot_taken_retry'), { interrupt: true, toast: 'warning' });
        return;
      }
      if (action && DIALOG_ACTIONS.has(action)) {
        showError(error);
      } else if (action && TOAST_ACTIONS.has(action)) {
        notify.notification(errorText(error), { interrupt: true, toast: 'error' });
      } else {
        // guess and confirm errors are only logged (spec §8): the screen already prevents them
        console.warn(`game action ${action ?? '?'} refused: ${error.code}: ${error.message}`);
      }
    },

    send(type, payload) {
      const { sender } = get();
      if (!sender) return false;
      set({ lastAction: type });
      sender(type, payload);
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
