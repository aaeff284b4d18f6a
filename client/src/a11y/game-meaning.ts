import type { DisputePayload, GamePayload, HitPayload, PlayerPayload, Settings } from '../../../shared/protocol/game.ts';
import type { RoomEvent, RoomEventPlayer } from '../../../shared/protocol/room.ts';
import { NUMERIC_SETTINGS } from '../../../shared/rules/constants.ts';
import { clueChoice } from '../../../shared/rules/settings.ts';
import type { SfxName } from '../audio/sfx.ts';
import { hitText, slotText } from '../format.ts';
import { i18next } from '../i18n.ts';
import { actorOf, answersOnThisDevice, cardHolder, nextSeen, seatsAfterTurn, stepOf, type Actor, type Seen } from '../stores/game-events.ts';
import type { ToastKind } from '../stores/notifications.ts';
import type { NotificationType } from './notify.ts';

/**
 * What a game event means for the people at the table, as one pure function
 * ({@link announce}): the room's event, compared with the game as the events
 * before it described it, becomes a list of meanings, each the sentence the
 * live region speaks and the entry the event feed shows (the same text, in the
 * same order: both are this list), with who it is about, its tone, its sound
 * cue and whether it interrupts. What the event does to the screen without
 * words (the end dialog, a revealed card) is stores/game-events.ts's, whose
 * steps of the round this reads too.
 *
 * Texts are in the current language (i18next); "you" is the person at this
 * device, never in Local games, whose seats share one screen, except on a
 * phone that plays one of their seats: that seat is "you" there.
 */

export type { Actor } from '../stores/game-events.ts';

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
  | 'settings'
  | 'dispute'
  | 'vote';

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

/**
 * What the announcer knows before an event: the game as the events so far
 * described it, and (Local games) the seat last asked to intercept (`draws:id`),
 * so that each is asked once.
 */
export interface Previous extends Seen {
  asked: string | null;
}

/** What an event means, and the seat asked to intercept after it (the next event's `previous.asked`). */
export interface Announcement {
  meanings: Meaning[];
  asked: string | null;
}

const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});

/**
 * Turns one room event into its meanings; see the module's comment. `previous`:
 * the game as the events before this one described it; `game`: the
 * synchronized game, already the new one (the room sends its patch before the
 * events); `me`: the person at this device. Changes nothing it is given.
 */
export function announce(previous: Previous, event: RoomEvent, game: GamePayload | null, me: string | undefined): Announcement {
  const mode = game?.mode ?? 'Local';
  const meanings: Meaning[] = [];
  const out: Announcement = { meanings, asked: previous.asked };

  // a phone playing a seat of a Local game is that seat: its news says "you" (docs/rules.md#local)
  const played = mode === 'Local' && me ? game?.players.find((p) => p.virtual && p.controller === me) : undefined;
  const actor = (p: Pick<PlayerPayload, 'id' | 'name'> & Partial<Pick<PlayerPayload, 'color' | 'avatar'>>): Actor =>
    played ? { ...actorOf(p, me, mode), you: p.id === played.id } : actorOf(p, me, mode);
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

  /**
   * Local games ask every seat at this screen at once (docs/rules.md#local): who may intercept, said
   * once per card (`draws:ids`), in seat order after the turn player.
   */
  const askLocalInterceptors = (): void => {
    if (!game || game.mode !== 'Local' || game.state !== 'Intercepting') {
      out.asked = null;
      return;
    }
    const turner = game.players.find((p) => p.turn_player);
    const seats = seatsAfterTurn(game.players).filter((p) => p.state === 'Intercepting' && answersOnThisDevice(p));
    if (!turner || seats.length === 0 || out.asked?.startsWith(`${game.draws}:`)) return;
    out.asked = `${game.draws}:${seats.map((p) => p.id).join(',')}`;
    const names = new Intl.ListFormat(i18next.language, { style: 'long', type: 'conjunction' }).format(seats.map((p) => p.name));
    const key = seats.length === 1 ? 'game.announce.intercept_local' : 'game.announce.intercept_local_many';
    note('ask', t(key, { name: names, names, turn: turner.name }), [...seats.map(actor), actor(turner)]);
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
      const none = now[k] === 0 && k === 'disputes';
      changes.push(`${t(`game.settings.${k}`)}: ${off ? t('game.announce.no_limit') : none ? t('table:dispute.off') : now[k]}`);
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

  /**
   * A year dispute (docs/rules.md#disputes): raised (everybody is asked to vote), each vote in
   * short, and the decision with where the card went (the patch before the event already moved it).
   */
  const disputeNews = (name: 'dispute' | 'vote', d: DisputePayload, cause: RoomEvent['data']['cause']): void => {
    const seat = (id: string) => game?.players.find((p) => p.id === id) ?? previous.players.find((p) => p.id === id);
    const hit = d.hit.title;
    if (name === 'vote') {
      const last = d.votes[d.votes.length - 1];
      const p = last && seat(last.player);
      if (!last || !p) return;
      const a = actor(p);
      note('vote', youOr(a, last.take ? 'table:dispute.announce_vote_take' : 'table:dispute.announce_vote_keep', { year: last.take ? d.year : d.hit.year }), [a]);
      return;
    }
    if (d.outcome === null) {
      const p = seat(d.by);
      const a = p ? actor(p) : { id: d.by, name: '', you: false };
      note('dispute', youOr(a, 'table:dispute.announce_raised', { year: d.hit.year, proposed: d.year, hit }), [a], { interrupt: true, sfx: 'popup' });
      return;
    }
    if (cause === 'timeout') note('timeout', t('table:dispute.announce_timeout'), []);
    if (d.outcome === 'kept') {
      note('dispute', t('table:dispute.announce_kept', { year: d.hit.year, hit }), [], { interrupt: true });
      return;
    }
    const holder = cardHolder(game?.players ?? [], d);
    const text = holder ? youOr(actor(holder), 'table:dispute.announce_changed', { year: d.year, hit }) : t('table:dispute.announce_changed_discard', { year: d.year, hit });
    note('dispute', text, holder ? [actor(holder)] : [], { interrupt: true, tone: holder ? 'good' : 'bad' });
  };

  const revealed = (hit: HitPayload): void => say('revealed', 'hit_revealed', t('notify.hit_revealed', { hit: hitText(hit) }), []);

  const data = event.data;
  const first = data.players?.[0];
  switch (event.event) {
    case 'join':
      if (first) {
        const a = actor(first);
        say('joined', 'joined', youOr(a, 'notify.joined'), [a], { sfx: 'join_game' });
      }
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
      askLocalInterceptors();
      return out;
    case 'skip':
      if (first && data.hit) {
        const who = actor(first);
        // a skip reveals the skipped hit to everybody (docs/product.md#states): shown as a toast too
        say('skipped', 'skipped_hit', youOr(who, 'notify.skipped_hit', { hit: hitText(data.hit) }), [who], { sfx: 'pay_token', toast: 'info' });
      }
      clueNews(data.clue);
      return out;
    case 'claim':
      if (first && data.hit) {
        const who = actor(first);
        say('claimed', 'claimed_hit', youOr(who, 'notify.claimed_hit', { hit: hitText(data.hit) }), [who], { sfx: 'claim_hit', tone: 'good' });
      }
      return out;
    case 'update':
      if (data.settings) settingsNews(previous.settings, data.settings);
      // seats of a Local game whose phone changed (docs/rules.md#local): the table hears where each is played now
      for (const p of data.players ?? []) {
        const was = previous.players.find((q) => q.id === p.id);
        if (!was || (was.controller ?? null) === p.controller) continue;
        note('connection', t(p.controller ? 'game.announce.seat_on_phone' : 'game.announce.seat_on_host', { name: p.name }), [actor(p)]);
      }
      return out;
    case 'dispute':
    case 'vote':
      if (data.dispute) disputeNews(event.event, data.dispute, data.cause);
      return out;
    case 'change_state':
      break;
  }

  // change_state: the seats are the state's, which the patch before this event brought
  const now = nextSeen(previous, event, game);
  const players = now.players;
  const step = stepOf(previous, event, now);
  // the game was deleted; the room closes next: nothing to say
  if (step === 'deleted') return out;
  connectionNews(previous.players, players);
  renameNews(previous.players, players);

  /** The outcome of a placement: who won the card (interrupts: it matters more than anything queued). */
  const scored = (): void => {
    const winner = data.last_scored ? actor(data.last_scored) : null;
    if (winner) say('scored', 'scored', youOr(winner, 'notify.scored'), [winner], { interrupt: true, sfx: winner.you ? 'you_score' : 'you_fail', tone: 'good' });
    else say('scored', 'scored', t('notify.scored_nobody'), [], { interrupt: true, sfx: 'you_fail', tone: 'bad' });
  };
  const oldTurn = previous.players.find((p) => p.turn_player);

  switch (step) {
    case 'started': {
      say('started', 'game_started', t('notify.game_started'), [], { interrupt: true });
      // a DJ plays the hits: everybody hears who, the DJ that it is him
      const dj = game?.dj_seat ? game.players.find((p) => p.id === game.dj_seat?.id) : undefined;
      if (dj) note('started', youOr(actor(dj), game?.dj_seat?.plays ? 'table:dj.announce' : 'table:dj.announce_out'), [actor(dj)]);
      turnNews(players);
      clueNews(data.clue);
      return out;
    }
    case 'intercepting': {
      const turn = players.find((p) => p.turn_player);
      const mine = players.find((p) => p.state === 'Intercepting' && actor(p).you);
      if (turn && mine) note('ask', t('game.announce.intercept_you', { name: turn.name }), [actor(mine), actor(turn)]);
      askLocalInterceptors();
      return out;
    }
    case 'revealed':
    case 'confirming': {
      const turn = players.find((p) => p.turn_player);
      const confirmer = players.find((p) => p.state === 'Confirming');
      const asked = previous.players.find((p) => p.state === 'Confirming');
      if (step === 'revealed') {
        // the outcome interrupts: the last guess, queued just before, is read as part of it (announcer.ts); the reveal follows
        scored();
        if (data.hit) revealed(data.hit);
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
    case 'stopped': {
      // stopped, not won: no result
      const by = data.by ? actor(data.by) : null;
      const text = by?.you ? t('game.announce.stopped_you') : t('game.announce.stopped', { name: by?.name ?? '' });
      note('stopped', text, by ? [by] : [], { interrupt: true, ...(by?.you ? {} : { toast: 'info' as const }) });
      return out;
    }
    case 'ended': {
      // the last answer's outcome first, when the round ended because no card was left after it
      if (previous.state === 'Confirming' && oldTurn) answerNews(oldTurn, data.cause, data.by);
      const winner = data.winner ?? null;
      if (winner) {
        const w = actor(winner);
        say('ended', 'game_ended', youOr(w, 'notify.game_ended'), [w], { interrupt: true, sfx: w.you ? 'you_win' : 'you_lose', tone: 'good' });
      } else {
        say('ended', 'game_ended', t('notify.game_ended_nobody'), [], { interrupt: true, sfx: 'you_lose', tone: 'bad' });
      }
      if (data.hit) revealed(data.hit);
      return out;
    }
    case 'next_turn': {
      const was = oldTurn && players.find((p) => p.id === oldTurn.id);
      if (previous.state === 'Confirming' && oldTurn) answerNews(oldTurn, data.cause, data.by);
      // docs/product.md#states: Confirming → Guessing with the turn player's tokens up = a token received
      if (previous.state === 'Confirming' && oldTurn && was && was.tokens > oldTurn.tokens) {
        const a = actor(was);
        say('token', 'token_received', youOr(a, 'notify.token_received'), [a], { sfx: 'receive_token', tone: 'good' });
      }
      turnNews(players);
      clueNews(data.clue);
      return out;
    }
    case 'turn_passed':
      // the turn passed without a reveal: time out (an absent turn player was just announced, one who left too)
      if (oldTurn && data.cause === 'timeout') {
        const a = actor(oldTurn);
        // shown too: the card and the turn just change, and everybody should see why
        note('timeout', t(a.you ? 'game.announce.guess_timeout_you' : 'game.announce.guess_timeout', { name: a.name }), [a], { tone: 'bad', toast: a.you ? 'warning' : 'info' });
      }
      turnNews(players);
      clueNews(data.clue);
      return out;
    case 'none':
      return out;
  }
}
