import type { GamePayload, GameState, HitPayload, PlayerPayload, Settings, Slot } from '../../../shared/protocol/game.ts';
import type { RoomEvent, RoomEventPlayer } from '../../../shared/protocol/room.ts';
import { NUMERIC_SETTINGS } from '../../../shared/rules/constants.ts';
import { clueChoice } from '../../../shared/rules/settings.ts';
import { localActingPlayer } from '../../../shared/rules/views.ts';
import type { Game } from '../../../shared/rules/types.ts';
import type { SfxName } from '../audio/sfx.ts';
import { hitText, slotText } from '../format.ts';
import { i18next } from '../i18n.ts';
import type { ToastKind } from '../stores/notifications.ts';
import { isYou, type NotificationType } from './notify.ts';

/**
 * What a game event means for the people at the table, as one pure function
 * ({@link describeEvent}): the room's event, compared with the game as the
 * events before it described it, becomes a list of meanings, each the sentence
 * the live region speaks and the entry the event feed shows (the same text,
 * in the same order: both are this list), with who it is about, its tone, its
 * sound cue and whether it interrupts. It also says what else the event does to
 * the screen (the end dialog, the guess panel's choice, a revealed card).
 *
 * Texts are in the current language (i18next); "you" is the person at this
 * device, never in Local games, whose seats share one screen.
 */

/** A player an entry is about. */
export interface Actor {
  id: string;
  name: string;
  /** The person at this device (never in Local games). */
  you: boolean;
  /** His colour and avatar (PlayerPayload's), for his face in the feed; missing where an event does not carry them. */
  color?: number;
  avatar?: string;
}

/** How an entry feels: good news (scored, a token), bad news (nobody scored, time ran out), or neither. */
export type Tone = 'neutral' | 'good' | 'bad';

/** What kind of news an entry is (for its icon and colour in the feed). */
export type MeaningKind =
  | 'joined'
  | 'left'
  | 'removed'
  | 'placed'
  | 'intercepted'
  | 'declined'
  | 'skipped'
  | 'claimed'
  | 'scored'
  | 'revealed'
  | 'token'
  | 'answer'
  | 'turn'
  | 'ask'
  | 'clue'
  | 'timeout'
  | 'connection'
  | 'renamed'
  | 'started'
  | 'stopped'
  | 'ended'
  | 'settings';

export interface Meaning {
  kind: MeaningKind;
  /** The spec's notification type (docs/product.md#states), for notify's subscribers. */
  type: NotificationType;
  /** What the live region says and the feed shows. */
  text: string;
  /** Who it is about, the acting player first. */
  actors: Actor[];
  tone: Tone;
  /** Read at once, assertively (the outcome of a round, a removal). */
  interrupt: boolean;
  sfx?: SfxName;
  /** Shown as a toast too. */
  toast?: ToastKind;
}

/** What the game-ended dialog shows; kept until dismissed. */
export interface EndedRound {
  winner: PlayerPayload | null;
  standings: PlayerPayload[];
  /** The card revealed as the game ended (the one that won it, placed or claimed), when the end event named one. */
  hit?: HitPayload;
  /** The game has just ended (not the results looked at again later): the moment to celebrate. */
  celebrate?: boolean;
}

/** A card turned over: what the reveal moment shows. */
export interface Reveal {
  hit: HitPayload;
  /** Whose turn it was. */
  turn: Actor | null;
  /** The turn player's placement. */
  guess: Slot | null;
  /** Who won the card (placed right, or intercepted right); null: it goes to the discard pile. */
  winner: Actor | null;
  /** The card won the game. */
  final: boolean;
}

/** The phase and seats as the events so far described them, for comparisons across one event. */
export interface Before {
  state: GameState;
  players: RoomEventPlayer[];
  /** The settings (a GamePayload has them among its own fields). */
  settings: Settings | null;
}

export interface EventContext {
  /** The game as the events before this one described it; null: as the state shows it. */
  before: Before | null;
  /** The synchronized game, already the new one (the room sends its patch before the events). */
  game: GamePayload | null;
  /** The person at this device. */
  userId: string | undefined;
  /** Local games: the seat last asked to intercept (`draws:id`), so each is asked once. */
  askedLocal: string | null;
  /** The event before this one was this person leaving by himself. */
  ownLeaveBefore: boolean;
}

export interface EventOutcome {
  meanings: Meaning[];
  before: Before;
  askedLocal: string | null;
  /** This event was this person leaving by himself. */
  ownLeave: boolean;
  /** The game was deleted with this event (the room closes next); `byOwnLeave`: by this person's own leaving. */
  closed?: { byOwnLeave: boolean };
  /** The end dialog: a new one, or null to close it; absent = unchanged. */
  ended?: EndedRound | null;
  /** The guess panel's choice no longer applies (a new turn, an end). */
  clearChoice: boolean;
  /** A card was revealed. */
  reveal?: Reveal;
}

const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});

function replacePlayers(players: RoomEventPlayer[], changed: readonly RoomEventPlayer[]): RoomEventPlayer[] {
  return players.map((p) => changed.find((c) => c.id === p.id) ?? p);
}

/** The seat a Local game's device acts for, by the engine's own rule (it reads only the state and the seats' flags). */
function localSeat(game: Pick<GamePayload, 'state' | 'players'>): PlayerPayload | null {
  const seat = localActingPlayer({ state: game.state, players: game.players } as unknown as Game);
  return seat ? (game.players.find((p) => p.id === seat.id) ?? null) : null;
}

/** Turns one room event into its meanings; see the module's comment. Changes nothing. */
export function describeEvent(event: RoomEvent, ctx: EventContext): EventOutcome {
  const { game, userId } = ctx;
  const mode = game?.mode ?? 'Local';
  const prev: Before = ctx.before ?? { state: game?.state ?? 'Open', players: game?.players ?? [], settings: game ?? null };
  const meanings: Meaning[] = [];
  const out: EventOutcome = { meanings, before: prev, askedLocal: ctx.askedLocal, ownLeave: false, clearChoice: false };

  const actor = (p: Pick<PlayerPayload, 'id' | 'name'> & Partial<Pick<PlayerPayload, 'color' | 'avatar'>>): Actor => ({
    id: p.id,
    name: p.name,
    you: isYou(p.id, userId, mode),
    ...(p.color !== undefined ? { color: p.color, avatar: p.avatar ?? '' } : {}),
  });
  /** The "you" form of a text when the subject is the person at this device. */
  const youOr = (a: Actor, key: string, params: Record<string, unknown> = {}): string => t(a.you ? `${key}_you` : key, { name: a.name, ...params });
  const say = (kind: MeaningKind, type: NotificationType, text: string, actors: Actor[], extra: Partial<Pick<Meaning, 'tone' | 'interrupt' | 'sfx' | 'toast'>> = {}): void => {
    const m: Meaning = { kind, type, text, actors, tone: extra.tone ?? 'neutral', interrupt: extra.interrupt ?? false };
    if (extra.sfx) m.sfx = extra.sfx;
    if (extra.toast) m.toast = extra.toast;
    meanings.push(m);
  };
  /** Messages the spec's list does not name (turns, prompts, answers): a plain notification. */
  const note = (kind: MeaningKind, text: string, actors: Actor[], extra: Partial<Pick<Meaning, 'tone' | 'interrupt' | 'sfx' | 'toast'>> = {}): void =>
    say(kind, 'notification', text, actors, extra);

  /** Whose turn it is now, said once per turn (not in the spec's list; screen-reader users have no other cue). */
  const turnNews = (players: readonly RoomEventPlayer[]): void => {
    const turn = players.find((p) => p.turn_player);
    if (!turn) return;
    const a = actor(turn);
    note('turn', a.you ? t('game.announce.turn_you') : t('game.announce.turn_other', { name: turn.name }), [a]);
  };

  /** How the confirmation of `turn`'s answer ended (`by`: the confirmer), before the next turn is announced. */
  const answerNews = (turn: RoomEventPlayer, cause: RoomEvent['data']['cause'], by: RoomEventPlayer | undefined): void => {
    if (cause !== 'confirmed' && cause !== 'rejected' && cause !== 'timeout' && cause !== 'absent') return;
    const owner = actor(turn);
    const confirmer = by ? actor(by) : null;
    // a Local game's creator confirms every seat's answer, his own too: the answer is what matters
    const local = mode === 'Local' && (cause === 'confirmed' || cause === 'rejected');
    const variant = local ? '_local' : confirmer?.you ? '_by_you' : owner.you ? '_you' : '';
    const text = t(`game.announce.answer_${cause}${variant}`, { name: owner.name, by: confirmer?.name ?? '' });
    note('answer', text, confirmer ? [owner, confirmer] : [owner], { tone: cause === 'confirmed' ? 'good' : cause === 'rejected' ? 'bad' : 'neutral' });
  };

  /** Players who lost their connection or came back (not in Local games, whose seats share one screen). */
  const connectionNews = (was: readonly RoomEventPlayer[], now: readonly RoomEventPlayer[]): void => {
    if (mode === 'Local') return;
    for (const p of now) {
      const old = was.find((q) => q.id === p.id);
      if (!old || p.virtual || old.connected === p.connected || actor(p).you) continue;
      note('connection', t(p.connected ? 'game.announce.connection_back' : 'game.announce.connection_lost', { name: p.name }), [actor(p)], { tone: p.connected ? 'neutral' : 'bad' });
    }
  };

  /** Players who took another name (a guest renamed himself: his seats follow), said as the table shows it. */
  const renameNews = (was: readonly RoomEventPlayer[], now: readonly RoomEventPlayer[]): void => {
    for (const p of now) {
      const old = was.find((q) => q.id === p.id);
      if (!old || old.name === p.name || actor(p).you) continue;
      note('renamed', t('people:announce.renamed', { old: old.name, name: p.name }), [actor(p)]);
    }
  };

  /** Local games ask the seats one by one whether to intercept: who is asked now, said once per seat and card. */
  const askLocalInterceptor = (): void => {
    if (!game || game.mode !== 'Local' || game.state !== 'Intercepting') {
      out.askedLocal = null;
      return;
    }
    const seat = localSeat(game);
    const turn = game.players.find((p) => p.turn_player);
    // once per seat and card: the same seat may be asked first in the next turn
    const key = seat ? `${game.draws}:${seat.id}` : null;
    if (!seat || !turn || key === out.askedLocal || seat.state !== 'Intercepting') return;
    out.askedLocal = key;
    note('ask', t('game.announce.intercept_local', { name: seat.name, turn: turn.name }), [actor(seat), actor(turn)]);
  };

  /**
   * Card clue mode: the new card, which someone reads aloud to the turn player,
   * with the play-hit cue (in audio mode it sounds as the clip starts; a card is
   * played as it is laid down).
   */
  const clueNews = (clue: RoomEvent['data']['clue']): void => {
    if (!clue) return;
    const key = clue.belongs_to ? 'game.announce.clue_belongs_to' : 'game.announce.clue';
    note('clue', t(key, { title: clue.title, artist: clue.artist, belongs_to: clue.belongs_to }), [], { sfx: 'play_hit' });
  };

  /** What the creator changed in the settings, each as its label and new value. */
  const settingsNews = (was: Settings | null, now: Settings): void => {
    const changes: string[] = [];
    for (const k of NUMERIC_SETTINGS) {
      if (was && was[k] === now[k]) continue;
      const off = now[k] === 0 && k.endsWith('_timeout');
      changes.push(`${t(`game.settings.${k}`)}: ${off ? t('game.announce.no_limit') : now[k]}`);
    }
    // the creator's choice (an automatic game's mode of the last start is no change of his)
    if (!was || clueChoice(was) !== clueChoice(now)) {
      const choice = clueChoice(now);
      changes.push(`${t('game.settings.clue_mode')}: ${t(choice === 'dj' ? 'table:dj.settings.choice' : `game.settings.clue_${choice}`)}`);
    }
    if (!was || was.packs.length !== now.packs.length || was.packs.some((id, i) => id !== now.packs[i])) {
      changes.push(`${t('game.settings.packs')}: ${now.packs.length}`);
    }
    if (changes.length === 0) return;
    const creator = game?.players.find((p) => p.creator);
    const mine = !!creator && actor(creator).you;
    note('settings', t(mine ? 'game.announce.settings_changed_you' : 'game.announce.settings_changed', { changes: changes.join('; ') }), creator ? [actor(creator)] : []);
  };

  const revealed = (hit: HitPayload): void => say('revealed', 'hit_revealed', t('notify.hit_revealed', { hit: hitText(hit) }), []);

  const data = event.data;
  const changed = data.players ?? [];
  const first = changed[0];
  switch (event.event) {
    case 'join':
      if (first) {
        const a = actor(first);
        say('joined', 'joined', youOr(a, 'notify.joined'), [a], { sfx: 'join_game' });
      }
      out.before = { ...prev, players: [...prev.players, ...changed] };
      return out;
    case 'leave':
      if (first) {
        const who = actor(first);
        const by = data.removed_by ? actor(data.removed_by) : null;
        if (!by) say('left', 'left', youOr(who, 'notify.left'), [who], { sfx: 'leave_game' });
        else {
          // being removed interrupts, and shows as a toast too
          const text = by.you ? t('notify.removed_by_you', { name: who.name }) : youOr(who, 'notify.removed', { by: by.name });
          say('removed', 'left', text, [who, by], { sfx: 'leave_game', interrupt: who.you, ...(who.you ? { toast: 'warning' as const, tone: 'bad' as const } : {}) });
        }
      }
      // the DJ left a running round: somebody else plays the hits now (and must know it)
      if (data.dj) {
        const dj = actor(data.dj);
        note('clue', youOr(dj, 'table:dj.moved'), [dj], { interrupt: dj.you });
      }
      // the game's last events may be this leave, then the deleting change_state
      // (by id: a Local game says no "you", yet its creator's own leaving deletes it)
      out.ownLeave = !!first && !data.removed_by && first.id === userId;
      out.before = { ...prev, players: prev.players.filter((p) => !changed.some((c) => c.id === p.id)) };
      return out;
    case 'guess':
      if (first) {
        const who = actor(first);
        const missed = data.cause === 'timeout' || data.cause === 'absent' ? data.cause : undefined;
        if (first.guess && !first.turn_player) {
          // an interception: a slot that costs a token
          say('intercepted', 'guessed', youOr(who, 'notify.intercepted', { slot: slotText(first.guess) }), [who], { sfx: 'pay_token' });
        } else if (first.guess) {
          say('placed', 'guessed', youOr(who, 'notify.guessed', { slot: slotText(first.guess) }), [who]);
        } else {
          say('declined', 'guessed', youOr(who, missed ? `notify.guessed_${missed}` : 'notify.guessed_none'), [who], { sfx: 'no_interception' });
        }
      }
      out.before = { ...prev, players: replacePlayers(prev.players, changed) };
      askLocalInterceptor();
      return out;
    case 'skip':
      if (first && data.hit) {
        const who = actor(first);
        // a skip reveals the skipped hit to everybody (docs/product.md#states): shown as a toast too
        say('skipped', 'skipped_hit', youOr(who, 'notify.skipped_hit', { hit: hitText(data.hit) }), [who], { sfx: 'pay_token', toast: 'info' });
      }
      out.before = { ...prev, players: replacePlayers(prev.players, changed) };
      clueNews(data.clue);
      return out;
    case 'claim':
      if (first && data.hit) {
        const who = actor(first);
        say('claimed', 'claimed_hit', youOr(who, 'notify.claimed_hit', { hit: hitText(data.hit) }), [who], { sfx: 'claim_hit', tone: 'good' });
      }
      out.before = { ...prev, players: replacePlayers(prev.players, changed) };
      return out;
    case 'update':
      if (data.settings) settingsNews(prev.settings, data.settings);
      out.before = { ...prev, settings: data.settings ?? prev.settings };
      return out;
    case 'change_state':
      break;
  }

  // change_state: the seats are the state's, which the patch before this event brought
  const state = data.state ?? prev.state;
  const players: RoomEventPlayer[] = game?.players ?? prev.players;
  out.before = { ...prev, state, players };
  // the game was deleted; the room closes next
  if (event.final) {
    out.closed = { byOwnLeave: ctx.ownLeaveBefore };
    return out;
  }
  connectionNews(prev.players, players);
  renameNews(prev.players, players);

  /** The outcome of a placement: who won the card (interrupts: it matters more than anything queued). */
  const scored = (): void => {
    const winner = data.last_scored ? actor(data.last_scored) : null;
    if (winner) say('scored', 'scored', youOr(winner, 'notify.scored'), [winner], { interrupt: true, sfx: winner.you ? 'you_score' : 'you_fail', tone: 'good' });
    else say('scored', 'scored', t('notify.scored_nobody'), [], { interrupt: true, sfx: 'you_fail', tone: 'bad' });
  };
  const revealOf = (hit: HitPayload, seats: readonly RoomEventPlayer[], final: boolean): Reveal => {
    const turn = seats.find((p) => p.turn_player) ?? prev.players.find((p) => p.turn_player);
    return {
      hit,
      turn: turn ? actor(turn) : null,
      guess: turn?.guess ?? null,
      winner: data.last_scored ? actor(data.last_scored) : null,
      final,
    };
  };

  if (prev.state === 'Open' && state === 'Guessing') {
    say('started', 'game_started', t('notify.game_started'), [], { interrupt: true });
    // a DJ plays the hits: everybody hears who, the DJ that it is him
    const dj = game?.dj_seat ? game.players.find((p) => p.id === game.dj_seat?.id) : undefined;
    if (dj) note('started', youOr(actor(dj), game?.dj_seat?.plays ? 'table:dj.announce' : 'table:dj.announce_out'), [actor(dj)]);
    out.ended = null;
    out.clearChoice = true;
    turnNews(players);
    clueNews(data.clue);
    return out;
  }
  if (state === 'Intercepting' && prev.state === 'Guessing') {
    const turn = players.find((p) => p.turn_player);
    const mine = players.find((p) => p.state === 'Intercepting' && actor(p).you);
    if (turn && mine) note('ask', t('game.announce.intercept_you', { name: turn.name }), [actor(mine), actor(turn)]);
    askLocalInterceptor();
    return out;
  }
  if (state === 'Confirming') {
    const turn = players.find((p) => p.turn_player);
    const confirmer = players.find((p) => p.state === 'Confirming');
    const asked = prev.players.find((p) => p.state === 'Confirming');
    if (prev.state !== 'Confirming') {
      // the outcome interrupts: the last guess, queued just before, is read as part of it (announcer.ts); the reveal follows
      scored();
      if (data.hit) {
        revealed(data.hit);
        out.reveal = revealOf(data.hit, players, false);
      }
    } else if (!confirmer || confirmer.id === asked?.id) {
      return out;
    }
    // asked to confirm: after the reveal, or when the one asked before is gone
    if (turn && confirmer && (actor(confirmer).you || mode === 'Local')) {
      // card mode shows title and artist to everybody: the question is the exact year instead
      const key = game?.clue_mode === 'card' ? 'game.announce.confirm_card' : 'game.announce.confirm';
      note('ask', t(key, { name: turn.name }), [actor(confirmer), actor(turn)]);
    }
    return out;
  }
  if (state === 'Open' && prev.state !== 'Open') {
    out.clearChoice = true;
    if (data.cause === 'stopped') {
      // stopped, not won: no result and no end dialog
      const by = data.by ? actor(data.by) : null;
      const text = by?.you ? t('game.announce.stopped_you') : t('game.announce.stopped', { name: by?.name ?? '' });
      note('stopped', text, by ? [by] : [], { interrupt: true, ...(by?.you ? {} : { toast: 'info' as const }) });
      out.ended = null;
      return out;
    }
    // the last answer's outcome first, when the round ended because no card was left after it
    const lastTurn = prev.players.find((p) => p.turn_player);
    if (prev.state === 'Confirming' && lastTurn) answerNews(lastTurn, data.cause, data.by);
    const winner = data.winner ?? null;
    if (winner) {
      const w = actor(winner);
      say('ended', 'game_ended', youOr(w, 'notify.game_ended'), [w], { interrupt: true, sfx: w.you ? 'you_win' : 'you_lose', tone: 'good' });
    } else {
      say('ended', 'game_ended', t('notify.game_ended_nobody'), [], { interrupt: true, sfx: 'you_lose', tone: 'bad' });
    }
    if (data.hit) {
      revealed(data.hit);
      // a placement that won: the card is turned over as the game ends (a claim names its card in its own event)
      if (data.last_scored) out.reveal = revealOf(data.hit, prev.players, true);
    }
    out.ended = { winner, standings: data.standings ?? [], ...(data.hit ? { hit: data.hit } : {}), celebrate: true };
    return out;
  }
  if (state === 'Guessing' && prev.state !== 'Guessing') {
    const oldTurn = prev.players.find((p) => p.turn_player);
    const now = oldTurn && players.find((p) => p.id === oldTurn.id);
    if (prev.state === 'Confirming' && oldTurn) answerNews(oldTurn, data.cause, data.by);
    // docs/product.md#states: Confirming → Guessing with the turn player's tokens up = a token received
    if (prev.state === 'Confirming' && oldTurn && now && now.tokens > oldTurn.tokens) {
      const a = actor(now);
      say('token', 'token_received', youOr(a, 'notify.token_received'), [a], { sfx: 'receive_token', tone: 'good' });
    }
    out.clearChoice = true;
    turnNews(players);
    clueNews(data.clue);
    return out;
  }
  const oldTurn = prev.players.find((p) => p.turn_player);
  if (state === 'Guessing' && oldTurn?.id !== players.find((p) => p.turn_player)?.id) {
    // the turn passed without a reveal: time out (an absent turn player was just announced, one who left too)
    if (oldTurn && data.cause === 'timeout') {
      const a = actor(oldTurn);
      // shown too: the card and the turn just change, and everybody should see why
      note('timeout', t(a.you ? 'game.announce.guess_timeout_you' : 'game.announce.guess_timeout', { name: a.name }), [a], { tone: 'bad', toast: a.you ? 'warning' : 'info' });
    }
    out.clearChoice = true;
    turnNews(players);
    clueNews(data.clue);
  }
  return out;
}
