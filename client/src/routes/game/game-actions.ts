import type { GamePayload, PlayerPayload, SettingsUpdateInput } from '../../../../shared/protocol/game.ts';
import type { RoomMessageInput, RoomMessageName } from '../../../../shared/protocol/room.ts';
import { MAX_PLAYERS, MIN_PLAYERS } from '../../../../shared/rules/constants.ts';
import { notify } from '../../a11y/notify.ts';
import { slotText } from '../../format.ts';
import { i18next } from '../../i18n.ts';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import {
  actingFor,
  activeSeat,
  canClaim,
  canConfirm,
  canSkip,
  canSubmit,
  choiceTaken,
  chooseFor,
  draftAnswers,
  guessModel,
  localRound,
  perspectiveOf,
  seatOptions,
  stepChoice,
  stepFor,
  submittedSlot,
  type LocalAnswer,
  type LocalRound,
  type Perspective,
} from './game-logic.ts';
import { useLocalRound } from './local-round-store.ts';
import { disputers, voteOpen, votersHere, whyNoDispute } from './dispute-logic.ts';
import { useDisputeDialog } from './dispute-store.ts';
import { currentSource, toggle } from './hit-audio.ts';
import { toggle as toggleDj } from './dj-player.ts';

/**
 * What the game screen's buttons and the Alt+Shift shortcuts do. Both call
 * these, so a shortcut obeys the same rules as its button; when the action is
 * not possible now, the shortcut says why instead of failing silently. Every
 * function reads the store at call time.
 */

const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});

/** Tells why an action is not possible (screen readers hear it; a toast shows it). */
const blocked = (key: string, params?: Record<string, unknown>): void => {
  notify.notification(t(key, params), { interrupt: true, toast: 'warning' });
};

function current(): { game: GamePayload; perspective: Perspective; userId: string | undefined } | null {
  const game = useGame.getState().game;
  if (!game) return null;
  const userId = useSession.getState().user?.id;
  return { game, perspective: perspectiveOf(game, userId), userId };
}

/** Actions a double click or double tap would repeat by mistake (a second skip spends a token on a card never seen). */
const REPEATABLE_BY_MISTAKE: ReadonlySet<RoomMessageName> = new Set(['skip', 'claim']);
/** The same such action again within this time is taken as the same click (ms). */
export const REPEAT_GUARD_MS = 500;
let lastSent: { type: RoomMessageName; at: number; game: string | null } | null = null;

/**
 * Sends an action to the room. Not while the connection is down: the action
 * would be lost or arrive late (after a rejoin, in a turn that moved on), so
 * the player is told it was not sent. A skip or claim repeated within
 * REPEAT_GUARD_MS is dropped: that is a double click, not two decisions.
 */
function send<K extends RoomMessageName>(type: K, payload: RoomMessageInput<K>): boolean {
  if (useGame.getState().status !== 'connected') {
    blocked('game.not_connected');
    return false;
  }
  const now = Date.now();
  const game = useGame.getState().gameId;
  if (REPEATABLE_BY_MISTAKE.has(type) && lastSent?.type === type && lastSent.game === game && now - lastSent.at < REPEAT_GUARD_MS && now >= lastSent.at) return false;
  lastSent = { type, at: now, game };
  return useGame.getState().send(type, payload);
}

/** May this visitor take a seat (docs/product.md#screens: the button is disabled when not a player and the game is not Open; nor when it is full)? */
export const canJoin = (game: Pick<GamePayload, 'state' | 'mode'> & { players: { length: number } }, me: PlayerPayload | null, signedIn: boolean): boolean =>
  !me && signedIn && game.state === 'Open' && game.mode !== 'Local' && game.players.length < MAX_PLAYERS;

export const isCreator = (me: PlayerPayload | null): boolean => !!me?.creator;

/** Join (the button, Alt+Shift+J): says why not, or opens the join dialog (`ask`), which asks the name and emoji first. */
export function requestJoin(ask: () => void): void {
  const c = current();
  if (!c) return;
  if (c.perspective.me) return blocked('errors.already_joined');
  if (c.game.state === 'Open' && c.game.players.length >= MAX_PLAYERS) return blocked('errors.game_full');
  if (!canJoin(c.game, c.perspective.me, !!c.userId)) return blocked('game.cannot_join');
  ask();
}

/** Takes a seat with `avatar` (an emoji, '' for initials); whether it was sent. */
export function join(avatar = ''): boolean {
  return send('join', { avatar });
}

/** A phone takes a seat of a Local game with its seat key: `player`, or a new seat `name` while Open (docs/rules.md#local); whether it was sent. */
export function control(body: RoomMessageInput<'control'>): boolean {
  return send('control', body);
}

/** The seat this phone plays goes back to the host's device; whether it was sent. */
export function release(player: string): boolean {
  return send('release', { player });
}

/** Changes the avatar of one's own seat, or in a Local game of `playerId`'s; whether it was sent. */
export function setAvatar(avatar: string, playerId?: string): boolean {
  return send('avatar', { avatar, ...(playerId ? { player: playerId } : {}) });
}

/** Leave: straight away while Open; a running game, or a Local game with more seats, asks first (`confirmLeave` opens the dialog). */
export function requestLeave(confirmLeave: () => void): void {
  const c = current();
  if (!c?.perspective.me) return blocked('errors.not_a_player');
  // a running game, or a Local game with other seats at this screen (the creator's leaving deletes it)
  if (c.game.state !== 'Open' || (c.game.mode === 'Local' && c.game.players.length > 1)) confirmLeave();
  else leave();
}

export function leave(): void {
  send('leave', {});
}

export function stop(): void {
  send('stop', {});
}

export function kick(playerId: string): void {
  send('leave', { player: playerId });
}

/** Adds a Local seat named `name` with `avatar`; whether it was sent. */
export function addPlayer(name: string, avatar = ''): boolean {
  return send('join_local', { name: name.trim(), avatar });
}

/** Starts an Open game; a running one is stopped once `confirmStop` (a yes/no question) says so. */
export function startStop(confirmStop: () => void): void {
  const c = current();
  if (!c) return;
  if (!isCreator(c.perspective.me)) return blocked('game.creator_only');
  if (c.game.state !== 'Open') {
    confirmStop();
    return;
  }
  if (c.game.players.length < MIN_PLAYERS) return blocked('errors.not_enough_players');
  send('start', {});
}

/** Whether it was sent. */
export function saveSettings(settings: SettingsUpdateInput): boolean {
  return send('update', { settings });
}

/** While the table votes on a year dispute the game is paused (docs/rules.md#disputes): a move says so instead of going nowhere. */
const paused = (c: { game: GamePayload }): boolean => {
  if (!voteOpen(c.game)) return false;
  blocked('errors.dispute_open');
  return true;
};

export function skip(): void {
  const c = current();
  if (!c || paused(c)) return;
  const actor = c.perspective.actor;
  // his turn, but no token: say that, not just "cannot"
  if (actor?.state === 'Guessing' && !canSkip(actor)) return blocked('errors.no_token_skip');
  if (!canSkip(actor)) return blocked('errors.cannot_skip');
  send('skip', actingFor(c.perspective));
}

/** Claim for oneself, or in a Local game for `playerId` (the menu's choice; default: the acting player). */
export function claim(playerId?: string): void {
  const c = current();
  if (!c || paused(c)) return;
  const target = c.perspective.local && playerId ? (c.game.players.find((p) => p.id === playerId) ?? null) : c.perspective.actor;
  // a Local seat picked in the claim menu off its turn: say why
  if (target && c.perspective.local && !target.turn_player) return blocked('game.hit.claim_not_turn', { name: target.name });
  if (target?.turn_player && target.state === 'Guessing' && !canClaim(target)) return blocked('errors.no_tokens_claim');
  if (!canClaim(target)) return blocked('errors.cannot_claim');
  send('claim', c.perspective.local && target ? { player: target.id } : {});
}

export function submitGuess(): void {
  const c = current();
  if (!c || paused(c)) return;
  if (localRound(c.game, c.perspective)) return sendLocalAnswers();
  const model = guessModel(c.game, c.perspective);
  const choice = useGame.getState().choice;
  if (model.phase === 'guessing' && !canSubmit(model, choice)) return blocked('game.guess.select_first');
  if (model.phase === 'intercepting' && !canSubmit(model, choice)) return blocked('table:action.select_or_decline');
  if (!canSubmit(model, choice)) return blocked('errors.cannot_guess');
  // the chosen slot was taken meanwhile: it counts as none (docs/product.md#validation); said and shown, or the
  // player would only see his row go back to waiting
  const lost = model.phase === 'intercepting' && choiceTaken(model, choice);
  // a guess that was not sent (no connection) keeps its slot chosen, to be sent again
  if (!send('guess', { slot: submittedSlot(model, choice), ...actingFor(c.perspective) })) return;
  useGame.getState().setChoice(null);
  if (lost) notify.notification(i18next.t('game.guess.lost_race'), { interrupt: true, toast: 'warning' });
}

/** "Don't intercept": declines at once, whatever gap was chosen. */
export function decline(): void {
  const c = current();
  if (!c) return;
  if (localRound(c.game, c.perspective)) return chooseLocal(null, 'none');
  const model = guessModel(c.game, c.perspective);
  if (model.phase !== 'intercepting') return blocked('errors.cannot_guess');
  if (!send('guess', { slot: null, ...actingFor(c.perspective) })) return;
  useGame.getState().setChoice(null);
}

export function confirm(yes: boolean): void {
  const c = current();
  if (!c || paused(c)) return;
  if (!canConfirm(c.perspective.actor)) return blocked('errors.cannot_confirm');
  send('confirm', { confirm: yes });
}

/** Alt+Shift+Down/Up: moves the choice and reads it (a taken slot as such, with its sound). */
export function stepSlot(delta: 1 | -1): void {
  const c = current();
  if (!c) return;
  const round = localRound(c.game, c.perspective);
  if (round) {
    const seat = activeSeat(round, useLocalRound.getState().active);
    return chooseLocal(seat.id, stepFor(round, useLocalRound.getState().draft, seat.id, delta));
  }
  const model = guessModel(c.game, c.perspective);
  if (model.phase !== 'guessing' && model.phase !== 'intercepting') return blocked('game.guess.cannot_choose');
  const next = stepChoice(model, useGame.getState().choice, delta);
  useGame.getState().setChoice(next);
  announceChoice(next);
}

/** Alt+Shift+Backspace: no slot. */
export function clearSlot(): void {
  const c = current();
  const round = c && localRound(c.game, c.perspective);
  useGame.getState().setChoice(null);
  if (round) {
    const seat = activeSeat(round, useLocalRound.getState().active);
    useLocalRound.getState().setDraft({ ...useLocalRound.getState().draft, [seat.id]: null });
    return sayLocalChoice(seat.name, t('table:local.unanswered'));
  }
  notify.slotSelected(null);
}

/** Reads a choice aloud (the picker's own arrow keys move focus, which screen readers read themselves). */
export function announceChoice(choice: number | 'none' | null): void {
  const c = current();
  if (!c) return;
  if (choice === 'none') {
    notify.notification(t('game.guess.dont_intercept'), { interrupt: true, toast: false });
    notify.playSfx('select_slot');
    return;
  }
  const model = guessModel(c.game, c.perspective);
  const option = model.options.find((o) => o.slot.id === choice);
  notify.slotSelected(option?.slot ?? null, option ? choiceTaken(model, choice) : false);
}

/** Alt+Shift+1…0: the Nth player's info, spoken (index 0 = player 1). */
export function speakPlayer(index: number): void {
  const c = current();
  if (!c) return;
  const p = c.game.players[index];
  if (!p) return blocked('game.players.no_player', { number: index + 1 });
  notify.notification(playerInfo(p, c.game, c.userId), { interrupt: true, toast: false });
}

/** One player as a sentence: name and roles, tokens, hits with the timeline's years, and what he does now. */
export function playerInfo(p: PlayerPayload, game: Pick<GamePayload, 'mode' | 'state'> & { dj_seat?: GamePayload['dj_seat'] }, userId: string | undefined): string {
  const dj = game.state !== 'Open' && game.dj_seat?.id === p.id ? game.dj_seat : null;
  const roles = [
    p.creator ? t('game.players.creator') : null,
    game.mode !== 'Local' && p.id === userId ? t('game.players.you') : null,
    p.turn_player ? t('game.players.turn') : null,
    dj ? (dj.plays ? t('table:dj.badge') : `${t('table:dj.badge')}, ${t('table:dj.sits_out')}`) : null,
    !p.connected ? t('game.players.offline') : null,
  ].filter((r): r is string => !!r);
  const name = roles.length ? t('game.players.name_roles', { name: p.name, roles: roles.join(', ') }) : p.name;
  const years = [...new Set(p.hits.map((h) => h.year))].sort((a, b) => a - b);
  const parts = [
    name,
    t('count.tokens', { count: p.tokens }),
    t('count.hits', { count: p.hits.length }),
    years.length ? t('game.players.timeline', { years: years.join(', ') }) : null,
    game.state !== 'Open' ? playerStatus(p) : null,
  ].filter((s): s is string => !!s);
  return `${parts.join(', ')}.`;
}

/** What a player does now: his state, or the slot he chose. */
export function playerStatus(p: PlayerPayload): string {
  if (p.guess) return t('game.players.chose', { slot: slotText(p.guess) });
  return t(`game.players.state.${p.state}`);
}

/** Alt+Shift+H and the play button: the current hit (hidden clip, or revealed in full). */
export function togglePlay(): void {
  const c = current();
  const game = c?.game;
  // while a revealed card has its moment, the next turn's clip waits (the game may already be there underneath)
  const reveal = useGame.getState().reveal;
  const held = !!reveal && (game?.state !== 'Confirming' || game.hit?.id !== reveal.hit.id);
  // the dj clue mode: the DJ's device plays the hit; every other device is told whose does
  if (game && game.clue_mode === 'dj' && game.state !== 'Open' && game.dj_seat) {
    if (game.dj_seat.id !== c?.userId) return blocked('table:dj.not_dj', { name: game.players.find((p) => p.id === game.dj_seat?.id)?.name ?? '' });
    if (held) return blocked('errors.audio_not_running');
    return toggleDj();
  }
  const source = c && !held ? currentSource(c.game, !!c.perspective.me) : null;
  if (!source) return blocked(game?.clue_mode === 'card' && game.state !== 'Open' ? 'errors.no_audio_card_mode' : 'errors.audio_not_running');
  toggle(source);
}

// ---------------------------------------------------------------------------
// the one-screen interception round of a Local game (docs/rules.md#local)

const roundNow = (): { round: LocalRound } | null => {
  const c = current();
  const round = c && localRound(c.game, c.perspective);
  return round ? { round } : null;
};

/**
 * One seat's answer in the shared screen's round (`seatId` null: the active
 * seat), read aloud unless the control reads itself (`speak`: 'sound' for a
 * radio button, 'quiet' for a gap of the table, which sounds itself); a gap
 * another seat has chosen is refused and said so. The table's gaps show the
 * active seat's choice.
 */
export function chooseLocal(seatId: string | null, choice: number | 'none' | null, speak: 'words' | 'sound' | 'quiet' = 'words'): void {
  const now = roundNow();
  if (!now) return;
  const { draft, active } = useLocalRound.getState();
  const seat = now.round.seats.find((s) => s.id === seatId) ?? activeSeat(now.round, active);
  const next = chooseFor(now.round, draft, seat.id, choice);
  useLocalRound.getState().setActive(seat.id);
  const option = typeof choice === 'number' ? seatOptions(now.round, draft, seat.id).find((o) => o.slot.id === choice) : undefined;
  if (next === draft && draft[seat.id] !== choice) {
    // the table shows the seat's own choice again
    useGame.getState().setChoice(draft[seat.id] ?? null);
    if (option) notify.slotSelected(option.slot, true);
    return;
  }
  useLocalRound.getState().setDraft(next);
  useGame.getState().setChoice(choice);
  if (speak === 'quiet') return;
  notify.playSfx('select_slot');
  if (speak === 'words') sayLocalChoice(seat.name, choice === 'none' ? t('table:local.no') : slotText(option?.slot ?? null));
}

/** "Ben: between 1975 and 1988": with several seats on one screen the choice names its seat. */
const sayLocalChoice = (name: string, choice: string): void => {
  notify.notification(t('table:local.seat_choice', { name, choice }), { interrupt: true, toast: false });
};

/** "Ben intercepts between 1985 and 1990; Cem: no" */
export const answersText = (answers: readonly LocalAnswer[]): string =>
  answers.map((a) => (a.slot ? t('table:local.sent_slot', { name: a.seat.name, slot: slotText(a.slot) }) : t('table:local.sent_no', { name: a.seat.name }))).join('; ');

/** The shared screen's "send": every answered seat's gap or "no", each as that seat's guess; unanswered seats stay asked. */
export function sendLocalAnswers(): void {
  const now = roundNow();
  if (!now) return blocked('errors.cannot_guess');
  const answers = draftAnswers(now.round, useLocalRound.getState().draft);
  if (answers.length === 0) return blocked('table:local.answer_first');
  if (useGame.getState().status !== 'connected') return blocked('game.not_connected');
  for (const a of answers) send('guess', { slot: a.slot?.id ?? null, player: a.seat.id });
  useLocalRound.getState().markSent(answers);
  useGame.getState().setChoice(null);
  notify.notification(t('table:local.sent', { answers: answersText(answers) }), { toast: false });
}

// ---------------------------------------------------------------------------
// year disputes (docs/rules.md#disputes)

/** The only way to send for another seat is naming it; the engine refuses `player` outside Local games. */
const forSeat = (c: NonNullable<ReturnType<typeof current>>, seat: string): { player?: string } =>
  c.perspective.local || c.perspective.seat ? { player: seat } : {};

/** "Wrong year?" (the button, Alt+Shift+D): opens the dispute dialog for `seat` (default: the turn player, else the first seat here with disputes left), or says why not. */
export function requestDispute(seat?: string): void {
  const c = current();
  if (!c) return;
  const why = whyNoDispute(c.game, c.perspective);
  if (why) return blocked(why);
  const seats = disputers(c.game, c.perspective);
  const chosen = seats.find((p) => p.id === seat) ?? seats[0];
  if (chosen) useDisputeDialog.getState().show(chosen.id);
}

/** Disputes the revealed card's year for `seat`, proposing `year`; whether it was sent. */
export function dispute(year: number, seat: string): boolean {
  const c = current();
  if (!c) return false;
  const why = whyNoDispute(c.game, c.perspective);
  if (why) {
    blocked(why);
    return false;
  }
  if (c.game.disputable?.hit.year === year) {
    blocked('errors.same_year');
    return false;
  }
  return send('dispute', { year, ...forSeat(c, seat) });
}

/** Votes on the open dispute for `seat`: take the proposed year, or keep the card's. */
export function vote(take: boolean, seat: string): void {
  const c = current();
  if (!c) return;
  if (!c.game.dispute || c.game.dispute.outcome !== null) return blocked('errors.no_dispute');
  if (!votersHere(c.game, c.perspective).some((p) => p.id === seat)) return blocked('errors.already_voted');
  send('vote', { take, ...forSeat(c, seat) });
}
