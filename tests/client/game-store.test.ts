import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announcer } from '../../client/src/a11y/announcer.ts';
import { followGameNews, sayRefusal } from '../../client/src/a11y/game-news.ts';
import { onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { toGamePayload, useGame } from '../../client/src/stores/game.ts';
import { gameClock } from '../../client/src/stores/game-clock.ts';
import { useNotifications } from '../../client/src/stores/notifications.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import type { GamePayload, GameUpdate } from '../../shared/protocol/game.ts';
import { roomEvent, type RoomEvent } from '../../shared/protocol/room.ts';
import { game, hit, ids, player, roomJson, users } from './game-fixtures.ts';

let heard: Notification[] = [];
let off = (): void => undefined;
let stopNews = (): void => undefined;

beforeEach(() => {
  vi.useFakeTimers();
  resetSessionForTests();
  useSession.setState({ user: users.ana, ready: true });
  useGame.getState().reset('AbCd1234');
  // the game route's wiring: what the store's events mean is said and fed
  stopNews = followGameNews();
  announcer.clear();
  // at most four toasts are kept: each test counts its own
  useNotifications.setState({ toasts: [] });
  heard = [];
  off = onNotification((n) => heard.push(n));
});
afterEach(() => {
  off();
  stopNews();
  vi.useRealTimers();
});

const texts = (): string[] => heard.map((n) => n.text).filter(Boolean);
let seq = 1;
/** An engine event as the room sends it (roomEvent: change_state without players, players without cards). */
const ev = (event: RoomEvent['event'], data: GameUpdate, final = false): RoomEvent => roomEvent(++seq, { event, data }, final);
/** A patch then its events, as the room sends them. */
function step(next: GamePayload, ...events: RoomEvent[]): void {
  useGame.getState().applyState(roomJson(next, seq));
  for (const e of events) useGame.getState().applyEvent(e);
}

describe('room state → GamePayload', () => {
  it('turns the schema\'s "none" values back into nulls and resolves last_scored', () => {
    const ana = player('ana', { years: [1980], creator: true, guess: { id: 1, from_year: 0, to_year: 1980 } });
    const ben = player('ben', { years: [1990] });
    const revealed = hit(1975);
    const g = game([ana, ben], { state: 'Confirming', hit: revealed, last_scored: ana, deadline: 1_700_000_000_000 });
    const converted = toGamePayload(roomJson(g, 7));
    expect(converted?.seq).toBe(7);
    expect(converted?.game).toEqual(g);
    const open = toGamePayload(roomJson(game([{ ...ben }]), 1));
    expect(open?.game).toMatchObject({ hit: null, last_scored: null, winner: null, standings: null, deadline: null, clue: null });
    expect(open?.game.players[0]?.guess).toBeNull();
  });

  it('drops a state that breaks the wire contract', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(toGamePayload({ ...roomJson(game([])), state: 'Dancing' })).toBeNull();
    expect(toGamePayload(null)).toBeNull();
    useGame.getState().applyState({ id: 'x' });
    expect(useGame.getState().game).toBeNull();
    warn.mockRestore();
  });
});

describe('events → announcements', () => {
  const ana = player('ana', { creator: true });
  const ben = player('ben');

  it('announces joins and leaves, with "you" for the person at this device', () => {
    step(game([ana]));
    step(game([ana, ben]), ev('join', { players: [ben] }));
    step(game([ana]), ev('leave', { players: [ben] }), ev('change_state', { state: 'Open', players: [ana] }));
    expect(texts()).toEqual(['Ben joined the game.', 'Ben left the game.']);
    expect(heard.map((n) => n.sfx)).toEqual(['join_game', 'leave_game']);
  });

  it('says who removed a player: the table hears it, the removed player is told so (assertively, and in a toast)', () => {
    const cleo = player('cleo');
    step(game([ana, ben, cleo]));
    step(game([ana, cleo]), ev('leave', { players: [ben], removed_by: ana }), ev('change_state', { state: 'Open', players: [ana, cleo] }));
    // Ana removed him
    expect(heard.at(-1)).toMatchObject({ type: 'left', text: 'You removed Ben from the game.', interrupt: false, sfx: 'leave_game' });
    // the same event on Cleo's screen
    useSession.setState({ user: { ...users.ana, id: ids.cleo, name: 'Cleo' } });
    useGame.getState().applyEvent(ev('leave', { players: [ben], removed_by: ana }));
    expect(heard.at(-1)).toMatchObject({ type: 'left', text: 'Ana removed Ben from the game.', interrupt: false });
    // the same event on Ben's own screen
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    const toasts = useNotifications.getState().toasts.length;
    useGame.getState().applyEvent(ev('leave', { players: [ben], removed_by: ana }));
    expect(heard.at(-1)).toMatchObject({ type: 'left', text: 'Ana removed you from the game.', interrupt: true });
    expect(useNotifications.getState().toasts.slice(toasts).map((t) => t.title)).toEqual(['Ana removed you from the game.']);
  });

  it('plays a whole turn: start, guess, interception, reveal, score, token', () => {
    step(game([ana, ben]));
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, state: 'Guessing', tokens: 2 });
    const b1 = player('ben', { years: [1990], tokens: 2 });
    step(game([a1, b1], { state: 'Guessing', draws: 1 }), ev('change_state', { state: 'Guessing', players: [a1, b1] }));
    expect(texts()).toEqual(['The game has started.', 'Your turn.']);

    heard = [];
    const slots = a1.slots;
    const a2 = { ...a1, state: 'Waiting' as const, guess: slots[0] ?? null };
    const b2 = { ...b1, state: 'Intercepting' as const };
    step(game([a2, b2], { state: 'Intercepting', draws: 1 }), ev('guess', { players: [a2] }), ev('change_state', { state: 'Intercepting', players: [a2, b2] }));
    expect(texts()).toEqual(['You chose before 1980.']);
    // the placement is free: no pay-token cue
    expect(heard[0]?.sfx).toBeUndefined();

    // a moment later (what was said before is long read)
    vi.advanceTimersByTime(2000);
    heard = [];
    const b3 = { ...b2, state: 'Waiting' as const, tokens: 1, guess: slots[1] ?? null };
    const card = hit(1985, 'Take On Me');
    const b4 = { ...b3, hits: [...b3.hits, card], slots: b3.slots };
    const a4 = { ...a2, state: 'Waiting' as const };
    const confirming = game([a4, { ...b4, state: 'Confirming' as const }], { state: 'Confirming', hit: card, last_scored: b4, draws: 1 });
    step(
      confirming,
      ev('guess', { players: [b3] }),
      ev('change_state', { state: 'Confirming', players: confirming.players, hit: card, last_scored: b4 }),
    );
    expect(texts()).toEqual(['Ben intercepted after 1980.', 'Ben scored.', 'The hit was Take On Me by Artist 1985 (1985).']);
    expect(heard.map((n) => n.sfx)).toEqual(['pay_token', 'you_fail', undefined]);
    // what a screen reader gets: the interrupting outcome keeps the last guess (it arrived in the same burst), then the reveal
    expect(announcer.getSnapshot().assertive.at(-1)?.text).toBe('Ben intercepted after 1980. Ben scored.');
    vi.advanceTimersByTime(1000);
    expect(announcer.getSnapshot().polite.map((m) => m.text)).toEqual(['The hit was Take On Me by Artist 1985 (1985).']);

    // confirm "yes": Confirming → Guessing, Ana's tokens went up → a token received
    heard = [];
    const a5 = { ...a4, tokens: 3, turn_player: false, guess: null };
    const b5 = { ...b4, state: 'Guessing' as const, turn_player: true, guess: null };
    step(game([a5, b5], { state: 'Guessing', draws: 2 }), ev('change_state', { state: 'Guessing', players: [a5, b5], cause: 'confirmed', by: b4 }));
    expect(texts()).toEqual(['Ben confirmed your answer.', 'You received a token.', "Ben's turn."]);
    expect(heard[1]?.sfx).toBe('receive_token');
  });

  it('announces no token when the confirmer said no', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, tokens: 2 });
    const b1 = player('ben', { years: [1990], state: 'Confirming' });
    step(game([a1, b1], { state: 'Confirming', hit: hit(1970) }));
    const a2 = { ...a1, turn_player: false };
    const b2 = { ...b1, state: 'Guessing' as const, turn_player: true };
    step(game([a2, b2], { state: 'Guessing' }), ev('change_state', { state: 'Guessing', players: [a2, b2], cause: 'rejected', by: b1 }));
    expect(texts()).toEqual(['Ben rejected your answer.', "Ben's turn."]);
  });

  it('a Local game says whose answer was confirmed, not who confirmed it (always the creator)', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, tokens: 2 });
    const b1 = { ...player('ben', { years: [1990] }), virtual: true };
    step(game([{ ...a1, state: 'Confirming' }, b1], { state: 'Confirming', mode: 'Local', hit: hit(1970) }));
    const a2 = { ...a1, turn_player: false, tokens: 3 };
    const b2 = { ...b1, state: 'Guessing' as const, turn_player: true };
    step(game([a2, b2], { state: 'Guessing', mode: 'Local' }), ev('change_state', { state: 'Guessing', players: [a2, b2], cause: 'confirmed', by: a1 }));
    expect(texts()).toEqual(["Ana's answer was confirmed.", 'Ana received a token.', "Ben's turn."]);
  });

  it('says when time ran out: for the turn player, for an interceptor, for the confirmation', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, state: 'Guessing' });
    const b1 = player('ben', { years: [1990] });
    step(game([a1, b1], { state: 'Guessing', draws: 1 }));
    const a2 = { ...a1, turn_player: false, state: 'Waiting' as const };
    const b2 = { ...b1, turn_player: true, state: 'Guessing' as const };
    const toasts = useNotifications.getState().toasts.length;
    step(game([a2, b2], { state: 'Guessing', draws: 2 }), ev('change_state', { state: 'Guessing', players: [a2, b2], cause: 'timeout' }));
    expect(texts()).toEqual(['Time is up: you did not place the hit.', "Ben's turn."]);
    // shown too
    expect(useNotifications.getState().toasts.slice(toasts).map((t) => t.title)).toEqual(['Time is up: you did not place the hit.']);

    heard = [];
    const b3 = { ...b2, state: 'Waiting' as const, guess: b2.slots[0] ?? null };
    const a3 = { ...a2, state: 'Intercepting' as const };
    step(game([a3, b3], { state: 'Intercepting', draws: 2 }), ev('guess', { players: [b3] }), ev('change_state', { state: 'Intercepting', players: [a3, b3] }));
    vi.advanceTimersByTime(2000);
    heard = [];
    const a4 = { ...a3, state: 'Waiting' as const };
    const confirming = game([{ ...a4, state: 'Confirming' as const }, b3], { state: 'Confirming', hit: hit(2000), draws: 2 });
    step(confirming, ev('guess', { players: [a4], cause: 'timeout' }), ev('change_state', { state: 'Confirming', players: confirming.players, hit: hit(2000) }));
    expect(texts()[0]).toBe('Time is up: you do not intercept.');
    // Ben's screen hears the same with his name
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    heard = [];
    useGame.getState().applyEvent(ev('guess', { players: [a4], cause: 'absent' }));
    expect(texts()).toEqual(['Ana is not connected and does not intercept.']);

    heard = [];
    const a5 = { ...a4, turn_player: true, state: 'Guessing' as const };
    const b5 = { ...b3, turn_player: false, guess: null };
    step(game([a5, b5], { state: 'Guessing', draws: 3 }), ev('change_state', { state: 'Guessing', players: [a5, b5], cause: 'timeout' }));
    expect(texts()).toEqual(['Time is up: your answer was not confirmed.', "Ana's turn."]);
  });

  it('says who lost the connection and who came back, not for oneself', () => {
    step(game([ana, ben]));
    const away = { ...ben, connected: false };
    step(game([ana, away]), ev('change_state', { state: 'Open', players: [ana, away] }));
    step(game([ana, ben]), ev('change_state', { state: 'Open', players: [ana, ben] }));
    expect(texts()).toEqual(['Ben lost the connection.', 'Ben is back.']);
  });

  it('a Local game names the seats asked to intercept at once, once per card', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, state: 'Guessing' });
    const b1 = { ...player('ben', { years: [1990] }), virtual: true };
    const c1 = { ...player('cleo', { years: [1970] }), virtual: true };
    step(game([a1, b1, c1], { state: 'Guessing', mode: 'Local', draws: 1 }));
    const a2 = { ...a1, state: 'Waiting' as const, guess: a1.slots[0] ?? null };
    const b2 = { ...b1, state: 'Intercepting' as const };
    const c2 = { ...c1, state: 'Intercepting' as const };
    const asking = game([a2, b2, c2], { state: 'Intercepting', mode: 'Local', draws: 1 });
    step(asking, ev('guess', { players: [a2] }), ev('change_state', { state: 'Intercepting', players: asking.players }));
    expect(texts()).toEqual(['Ana chose before 1980.', "Ben and Cleo may intercept Ana's guess."]);
    heard = [];
    // one screen asked them both: Ben's answer asks nobody again
    const b3 = { ...b2, state: 'Waiting' as const };
    step(game([a2, b3, c2], { state: 'Intercepting', mode: 'Local', draws: 1 }), ev('guess', { players: [b3] }));
    expect(texts()).toEqual(['Ben does not intercept.']);
    // the next card asks afresh, in seat order after its turn player
    heard = [];
    const a3 = { ...a2, turn_player: false, state: 'Intercepting' as const, guess: null };
    const b4 = { ...b3, turn_player: true, guess: b3.slots[0] ?? null };
    const c3 = { ...c2, state: 'Intercepting' as const };
    const next = game([a3, b4, c3], { state: 'Intercepting', mode: 'Local', draws: 2 });
    step(next, ev('guess', { players: [b4] }), ev('change_state', { state: 'Intercepting', players: next.players }));
    expect(texts()).toEqual(['Ben chose before 1990.', "Cleo and Ana may intercept Ben's guess."]);
  });

  it('reads a new card aloud in card clue mode, after whose turn it is', () => {
    const a1 = player('ana', { creator: true, turn_player: true, state: 'Guessing' });
    const clue = { title: 'Euphoria', artist: 'Loreen', belongs_to: '' };
    step(game([ana, ben], { clue_mode: 'card' }));
    step(game([a1, ben], { state: 'Guessing', clue, draws: 1 }), ev('change_state', { state: 'Guessing', players: [a1, ben], clue }));
    expect(texts()).toEqual(['The game has started.', 'Your turn.', 'Card to read aloud: Euphoria by Loreen.']);
    heard = [];
    const next = { title: 'Let It Go', artist: 'Idina Menzel', belongs_to: 'Frozen' };
    step(game([{ ...a1, tokens: 1 }, ben], { state: 'Guessing', clue: next, draws: 2 }), ev('skip', { players: [{ ...a1, tokens: 1 }], hit: hit(1990), clue: next }));
    expect(texts()).toEqual(['You skipped Song 1990 by Artist 1990 (1990).', 'Card to read aloud: Let It Go by Idina Menzel, from Frozen.']);
  });

  it('says which settings changed, to the creator as his own change', () => {
    const open = game([ana, ben]);
    step(open);
    const settings = { goal: 3, start_tokens: open.start_tokens, hit_duration: open.hit_duration, guess_timeout: open.guess_timeout, intercept_timeout: 0, confirm_timeout: open.confirm_timeout, reveal_time: open.reveal_time, disputes: open.disputes, dispute_timeout: open.dispute_timeout, packs: open.packs, clue_mode: 'card' as const, clue_mode_auto: false, dj: '', dj_plays: true };
    step({ ...open, ...settings }, ev('update', { settings }));
    const changes = `Goal (hits to win): 3; Time to intercept (seconds): no limit${open.clue_mode === 'card' ? '' : '; Play with: Card: read title and artist aloud'}`;
    expect(texts()).toEqual([`You changed the game settings: ${changes}.`]);
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    heard = [];
    const more = { ...settings, goal: 4 };
    useGame.getState().applyEvent(ev('update', { settings: more }));
    expect(texts()).toEqual(['The game settings were changed: Goal (hits to win): 4.']);
  });

  it('reveals a skipped card and names a claimed one', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, state: 'Guessing', tokens: 4 });
    step(game([a1, player('ben')], { state: 'Guessing', draws: 1 }));
    const skipped = hit(1999, 'Skipped');
    const claimed = hit(1966, 'Claimed');
    step(game([{ ...a1, tokens: 3 }, player('ben')], { state: 'Guessing', draws: 2 }), ev('skip', { players: [{ ...a1, tokens: 3 }], hit: skipped }));
    step(game([{ ...a1, tokens: 0 }, player('ben')], { state: 'Guessing', draws: 2 }), ev('claim', { players: [{ ...a1, tokens: 0 }], hit: claimed }));
    expect(texts()).toEqual(['You skipped Skipped by Artist 1999 (1999).', 'You claimed Claimed by Artist 1966 (1966).']);
    expect(heard.map((n) => n.sfx)).toEqual(['pay_token', 'claim_hit']);
    // a skip reveals the hit to everybody (docs/product.md#states): shown as well as said
    expect(useNotifications.getState().toasts.map((t) => t.title)).toContain('You skipped Skipped by Artist 1999 (1999).');
  });

  it('an interception refused because its slot was taken on the way is said and shown, and he may choose again', () => {
    const b1 = player('ben', { creator: true, years: [1990], turn_player: true });
    step(game([player('ana', { state: 'Intercepting' }), b1], { state: 'Intercepting', draws: 1 }));
    useGame.getState().setSender(() => undefined);
    useGame.getState().send('guess', { slot: b1.slots[0]!.id });
    heard = [];
    sayRefusal({ type: 'error', code: 'slot_taken', message: 'this slot is already taken' });
    const retry = "Someone took that slot a moment earlier: choose another one, or don't intercept.";
    expect(texts()).toEqual([retry]);
    expect(useNotifications.getState().toasts.map((t) => t.title)).toEqual([retry]);
  });

  it('a refused dispute is said and shown with its reason (another seat disputed first)', () => {
    step(game([player('ana', { creator: true }), player('ben', { turn_player: true })], { state: 'Confirming', draws: 1 }));
    useGame.getState().setSender(() => undefined);
    useGame.getState().send('dispute', { year: 1974 });
    heard = [];
    sayRefusal({ type: 'error', code: 'dispute_open', message: 'the table is voting on a dispute' });
    expect(texts()).toEqual(['The table is voting on a dispute.']);
    expect(useNotifications.getState().toasts.map((t) => t.title)).toEqual(['The table is voting on a dispute.']);
  });

  it("a Local game's shared screen leaves the refusal to its round panel, which names the seat", () => {
    const b1 = player('ben', { years: [1990], turn_player: true, virtual: true });
    step(game([player('ana', { creator: true, state: 'Intercepting' }), b1], { state: 'Intercepting', mode: 'Local', draws: 1 }));
    useGame.getState().setSender(() => undefined);
    useGame.getState().send('guess', { slot: b1.slots[0]!.id, player: ids.ana });
    heard = [];
    sayRefusal({ type: 'error', code: 'slot_taken', message: 'this slot is already taken' });
    expect(texts()).toEqual([]);
  });

  it('ends the game: the winner, the revealed hit, and the end dialog from the standings', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, tokens: 1 });
    const b1 = player('ben', { years: [1990], state: 'Intercepting' });
    step(game([a1, b1], { state: 'Intercepting' }));
    const card = hit(1995);
    const winner = { ...b1, hits: [...b1.hits, card], state: 'Waiting' as const };
    const standings = [a1, winner];
    const reset = [player('ana', { creator: true, tokens: 0 }), player('ben', { tokens: 0 })];
    step(
      game(reset, { state: 'Open', winner, standings }),
      ev('guess', { players: [winner] }),
      ev('change_state', { state: 'Open', players: reset, hit: card, last_scored: winner, winner, standings }),
    );
    expect(texts()).toEqual(['Ben does not intercept.', 'Game over: Ben wins.', 'The hit was Song 1995 by Artist 1995 (1995).']);
    // the card that ended it is shown in the end dialog
    expect(useGame.getState().ended).toEqual({ winner, standings, hit: card, celebrate: true });
  });

  it('a confirmation after which no card is left says the answer, then the end', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, tokens: 2 });
    const b1 = player('ben', { years: [1990], state: 'Confirming' });
    step(game([a1, b1], { state: 'Confirming', hit: hit(1970) }));
    const reset = [player('ana', { creator: true }), player('ben')];
    step(game(reset, { state: 'Open', standings: [a1, b1] }), ev('change_state', { state: 'Open', players: reset, standings: [a1, b1], cause: 'confirmed', by: b1 }));
    expect(texts()).toEqual(['Ben confirmed your answer.', 'Game over: no one wins.']);
  });

  it('a round with no winner ends the game; a stop only says who stopped it', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, state: 'Guessing' });
    step(game([a1, player('ben')], { state: 'Guessing' }));
    const standings = [a1, player('ben')];
    const reset = [player('ana', { creator: true }), player('ben')];
    step(game(reset, { state: 'Open', standings }), ev('change_state', { state: 'Open', players: reset, standings }));
    expect(texts()).toEqual(['Game over: no one wins.']);
    expect(useGame.getState().ended?.winner).toBeNull();

    useGame.getState().showEnded(null);
    step(game([a1, player('ben')], { state: 'Guessing' }), ev('change_state', { state: 'Guessing', players: [a1, player('ben')] }));
    heard = [];
    step(game(reset, { state: 'Open', standings }), ev('change_state', { state: 'Open', players: reset, standings, cause: 'stopped', by: a1 }));
    expect(heard.map((n) => [n.text, n.interrupt])).toEqual([['You stopped the game.', true]]);
    // no end dialog: nobody won or lost
    expect(useGame.getState().ended).toBeNull();
    // the others hear who stopped it, and see it
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    step(game([a1, player('ben')], { state: 'Guessing' }), ev('change_state', { state: 'Guessing', players: [a1, player('ben')] }));
    heard = [];
    const toasts = useNotifications.getState().toasts.length;
    step(game(reset, { state: 'Open', standings }), ev('change_state', { state: 'Open', players: reset, standings, cause: 'stopped', by: a1 }));
    expect(texts()).toEqual(['Ana stopped the game.']);
    expect(useNotifications.getState().toasts.slice(toasts).map((t) => t.title)).toEqual(['Ana stopped the game.']);
  });

  it('a game deleted mid-round says who left, not that the round ended', () => {
    const a1 = player('ana', { creator: true, years: [1980], turn_player: true, state: 'Guessing' });
    const running = game([a1, { ...player('ben', { years: [1990] }), virtual: true }], { state: 'Guessing', mode: 'Local' });
    step(running);
    // the deleted game has no view left: the room sends no new state, only the last events
    step(running, ev('leave', { players: [a1] }), ev('change_state', { state: 'Open' }, true));
    expect(texts()).toEqual(['Ana left the game.']);
    expect(useGame.getState().ended).toBeNull();
  });

  it('knows whether the game closed by one\'s own leaving (then "gone" needs no saying) or later', () => {
    const b1 = player('ben');
    const open = game([ana, b1]);
    step(open);
    // Ana (this device) leaves last: her leave deletes the game
    step(game([b1]), ev('leave', { players: [b1] }), ev('change_state', { state: 'Open', players: [ana] }));
    step(game([ana]), ev('leave', { players: [ana] }), ev('change_state', { state: 'Open' }, true));
    expect(useGame.getState().closedByOwnLeave).toBe(true);
    // Ana left earlier and watches; Ben's leave deletes it: she must hear it is gone
    useGame.getState().reset('AbCd1234');
    step(open);
    step(game([b1]), ev('leave', { players: [ana] }), ev('change_state', { state: 'Open', players: [b1] }));
    step(game([b1]), ev('leave', { players: [b1] }), ev('change_state', { state: 'Open' }, true));
    expect(useGame.getState().closedByOwnLeave).toBe(false);
    // a Local game (no "you" in its texts): the creator's own leaving
    useGame.getState().reset('AbCd1234');
    const local = game([ana, { ...b1, virtual: true }], { mode: 'Local' });
    step(local);
    step(local, ev('leave', { players: [ana] }), ev('change_state', { state: 'Open' }, true));
    expect(useGame.getState().closedByOwnLeave).toBe(true);
  });

  it('ignores events it has already seen (a replay after reconnecting)', () => {
    step(game([ana]));
    const join = ev('join', { players: [ben] });
    step(game([ana, ben]), join);
    useGame.getState().applyEvent(join);
    expect(texts()).toEqual(['Ben joined the game.']);
  });
});

describe('refused actions (docs/product.md#errors)', () => {
  it('shows start and settings errors in the error dialog, says skip errors, only logs guess errors (but a slot taken on the way, above)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const sent: string[] = [];
    useGame.getState().setSender((type) => sent.push(type));
    useNotifications.setState({ errorMessage: null, toasts: [] });

    useGame.getState().send('start', {});
    sayRefusal({ type: 'error', code: 'not_enough_players', message: 'not enough players' });
    expect(useNotifications.getState().errorMessage).toBe('You need at least two players to start a game.');

    useNotifications.setState({ errorMessage: null });
    useGame.getState().send('update', { settings: { goal: 5 } });
    sayRefusal({ type: 'error', code: 'game_running', message: 'game is currently running' });
    expect(useNotifications.getState().errorMessage).toBe('The game is currently running.');

    useNotifications.setState({ errorMessage: null });
    useGame.getState().send('skip', {});
    sayRefusal({ type: 'error', code: 'no_token_skip', message: "no token" });
    expect(useNotifications.getState().errorMessage).toBeNull();
    expect(texts()).toContain('You need a token to skip.');

    useGame.getState().send('guess', { slot: 1 });
    sayRefusal({ type: 'error', code: 'not_intercepting', message: 'this player cannot guess right now' });
    expect(useNotifications.getState().errorMessage).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('not_intercepting'));
    expect(sent).toEqual(['start', 'update', 'skip', 'guess']);
    warn.mockRestore();
  });

  it('sends nothing without a connection', () => {
    useGame.getState().setSender(null);
    expect(useGame.getState().send('join', {})).toBe(false);
  });
});

describe('connection', () => {
  it('follows the socket: reconnecting keeps the game on screen', () => {
    step(game([player('ana', { creator: true })]));
    useGame.getState().setStatus('reconnecting');
    expect(useGame.getState()).toMatchObject({ status: 'reconnecting', game: { id: 'AbCd1234' } });
    useGame.getState().setStatus('connected');
    expect(useGame.getState().status).toBe('connected');
  });
});

describe("a reveal's time on the table (reveal_time)", () => {
  const PAUSE = 3;
  const ana0 = player('ana', { creator: true, years: [1980], tokens: 2 });
  const ben0 = player('ben', { years: [1990], tokens: 2 });
  const placed = { ...ana0, turn_player: true, guess: ana0.slots[0] ?? null };
  const card = hit(1975, 'Right Here');
  const anaWon = { ...placed, hits: [...placed.hits, card] };
  const facts = { reveal_time: PAUSE, draws: 1 } as const;
  const intercepting = game([placed, { ...ben0, state: 'Intercepting' }], { ...facts, state: 'Intercepting' });
  const confirming = game([anaWon, { ...ben0, state: 'Confirming' }], { ...facts, state: 'Confirming', hit: card, last_scored: anaWon });
  const next = game([{ ...anaWon, guess: null, turn_player: false, tokens: 3 }, { ...ben0, turn_player: true, state: 'Guessing' }], { ...facts, state: 'Guessing', draws: 2, deadline: null });

  /** Plays to the reveal (Ben declines): the moment begins. */
  function toTheReveal(): void {
    step(intercepting);
    step(confirming, ev('guess', { players: [ben0] }), ev('change_state', { state: 'Confirming', hit: card, last_scored: anaWon }));
  }
  const confirmed = (by = ben0) => ev('change_state', { state: 'Guessing', cause: 'confirmed', by });

  it('a confirmation at once: the next turn (its card, actions, news) waits until the reveal had its time, then comes in order', () => {
    toTheReveal();
    const at = Date.now();
    expect(useGame.getState().reveal).toMatchObject({ hit: card, winner: { id: ids.ana, you: true }, turn: { id: ids.ana }, until: at + PAUSE * 1000 });
    vi.advanceTimersByTime(400);
    heard = [];
    const feed = useGame.getState().feed.length;
    step(next, confirmed());
    // still the reveal: the state, the news and the feed wait
    expect(useGame.getState().game).toMatchObject({ state: 'Confirming', hit: card });
    expect(texts()).toEqual([]);
    expect(useGame.getState().feed).toHaveLength(feed);
    vi.advanceTimersByTime(PAUSE * 1000 - 400 - 1);
    expect(useGame.getState().game?.state).toBe('Confirming');
    expect(useGame.getState().reveal).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(useGame.getState().game).toMatchObject({ state: 'Guessing', draws: 2 });
    expect(useGame.getState().reveal).toBeNull();
    expect(texts()).toEqual(['Ben confirmed your answer.', 'You received a token.', "Ben's turn."]);
    expect(useGame.getState().feed.slice(feed).map((e) => e.text)).toEqual(texts());
  });

  it('a year dispute during the pause ends it at once: the table votes now (docs/rules.md#disputes)', () => {
    toTheReveal();
    heard = [];
    const disputed = { hit: card, year: 1974, by: ids.ben, votes: [{ player: ids.ben, take: true }], until: null, outcome: null, voters: 2 };
    step({ ...confirming, disputable: null, dispute: disputed }, ev('dispute', { dispute: disputed, players: [ben0] }));
    // no waiting for the reveal time: the patch and the event are applied in order
    expect(useGame.getState().game?.dispute).toEqual(disputed);
    expect(texts()).toEqual(['Ben disputes 1975 for “Right Here”: 1974? Everybody votes.']);
    // the card's moment stays on screen behind the vote (the same card, still Confirming)
    expect(useGame.getState().reveal?.hit).toEqual(card);
  });

  it("the table's decision moves the revealed card's moment: its new year, its new owner", () => {
    toTheReveal();
    const disputed = { hit: card, year: 1985, by: ids.ben, votes: [{ player: ids.ben, take: true }], until: null, outcome: null, voters: 2 };
    step({ ...confirming, disputable: null, dispute: disputed }, ev('dispute', { dispute: disputed, players: [ben0] }));
    // under 1985 Ana's gap (before 1980) is wrong and Ben was right: the card is his now
    const benWon = { ...ben0, hits: [...ben0.hits, card], state: 'Confirming' as const };
    const decided = { ...disputed, outcome: 'changed' as const, votes: [...disputed.votes, { player: ids.ana, take: true }] };
    // as if the card had won the round under its old year: the end dialog was waiting
    useGame.getState().showEnded({ winner: placed, standings: [placed, ben0], hit: card, celebrate: true });
    step(game([placed, benWon], { ...facts, state: 'Confirming', hit: { ...card, year: 1985 }, dispute: decided }), ev('dispute', { dispute: decided }));
    expect(useGame.getState().reveal).toMatchObject({ hit: { id: card.id, year: 1985 }, winner: { id: ids.ben, you: false } });
    // the new year undid that win: the round goes on without its end dialog
    expect(useGame.getState().ended).toBeNull();
  });

  it('the pause counts from when the card is on screen: rendering late on a busy phone does not shorten it', () => {
    toTheReveal();
    const { id, until } = useGame.getState().reveal!;
    vi.advanceTimersByTime(200);
    useGame.getState().revealShown(id);
    expect(useGame.getState().reveal?.until).toBe(until + 200);
    step(next, confirmed());
    vi.advanceTimersByTime(PAUSE * 1000 - 1);
    expect(useGame.getState().game?.state).toBe('Confirming');
    vi.advanceTimersByTime(1);
    expect(useGame.getState().game?.state).toBe('Guessing');
    // an old moment's word changes nothing
    useGame.getState().revealShown(id);
    expect(useGame.getState().game?.state).toBe('Guessing');
  });

  it('a confirmation after the pause shows at once; the revealed card stays until then', () => {
    toTheReveal();
    vi.advanceTimersByTime(20_000);
    expect(useGame.getState().reveal?.hit).toEqual(card);
    heard = [];
    step(next, confirmed());
    expect(useGame.getState().game?.state).toBe('Guessing');
    expect(useGame.getState().reveal).toBeNull();
    expect(texts()).toEqual(['Ben confirmed your answer.', 'You received a token.', "Ben's turn."]);
  });

  it("the confirmer's own answer during the pause: his question goes at once, the room's next turn after the pause", () => {
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    const sent: string[] = [];
    useGame.getState().setSender((type) => sent.push(type));
    toTheReveal();
    expect(useGame.getState().game?.players.find((p) => p.id === ids.ben)?.state).toBe('Confirming');
    useGame.getState().send('confirm', { confirm: true });
    expect(sent).toEqual(['confirm']);
    expect(useGame.getState().game?.players.find((p) => p.id === ids.ben)?.state).toBe('Waiting');
    expect(useGame.getState().reveal?.answered).toBe(true);
    step(next, confirmed());
    vi.advanceTimersByTime(PAUSE * 1000);
    expect(useGame.getState().game?.players.find((p) => p.id === ids.ben)).toMatchObject({ state: 'Guessing', turn_player: true });
  });

  it('an answer the room refused: after the pause the screen shows what the room says again', () => {
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    useGame.getState().setSender(() => undefined);
    toTheReveal();
    useGame.getState().send('confirm', { confirm: false });
    expect(useGame.getState().game?.players.find((p) => p.id === ids.ben)?.state).toBe('Waiting');
    vi.advanceTimersByTime(PAUSE * 1000);
    expect(useGame.getState().game?.players.find((p) => p.id === ids.ben)?.state).toBe('Confirming');
  });

  it('the winning card has its moment before the celebration opens', () => {
    step(intercepting);
    const reset = [player('ana', { creator: true, tokens: 0 }), player('ben', { tokens: 0 })];
    const standings = [anaWon, ben0];
    step(
      game(reset, { reveal_time: PAUSE, winner: anaWon, standings }),
      ev('guess', { players: [ben0] }),
      ev('change_state', { state: 'Open', hit: card, last_scored: anaWon, winner: anaWon, standings }),
    );
    expect(texts()).toEqual(['Ben does not intercept.', 'Game over: you win!', 'The hit was Right Here by Artist 1975 (1975).']);
    expect(useGame.getState().reveal).toMatchObject({ final: true, hit: card });
    expect(useGame.getState().ended).toBeNull();
    vi.advanceTimersByTime(PAUSE * 1000);
    expect(useGame.getState().ended).toEqual({ winner: anaWon, standings, hit: card, celebrate: true });
    expect(useGame.getState().reveal).toBeNull();
  });

  it('a reveal that came during another pause has its time counted from when it came: the screen never falls further behind', () => {
    toTheReveal();
    vi.advanceTimersByTime(1000);
    // clients that do not pause (the reference server's) played the next turn to its reveal meanwhile
    const card2 = hit(2001, 'Later');
    const benWon = { ...ben0, turn_player: true, guess: ben0.slots[0] ?? null, hits: [...ben0.hits, card2] };
    const second = game([{ ...anaWon, guess: null, tokens: 3, state: 'Confirming' }, benWon], { ...facts, state: 'Confirming', hit: card2, last_scored: benWon, draws: 2 });
    step(next, confirmed());
    step(second, ev('guess', { players: [benWon] }), ev('change_state', { state: 'Confirming', hit: card2, last_scored: benWon }));
    const third = game([{ ...anaWon, guess: null, tokens: 3, turn_player: true, state: 'Guessing' }, { ...benWon, turn_player: false, guess: null }], { ...facts, state: 'Guessing', draws: 3 });
    step(third, ev('change_state', { state: 'Guessing', cause: 'confirmed', by: anaWon }));
    // the first pause ends: the second reveal shows, for the rest of its own time (it came 1 s into the first)
    vi.advanceTimersByTime(2000);
    expect(useGame.getState().game).toMatchObject({ state: 'Confirming', hit: card2 });
    expect(useGame.getState().reveal?.hit).toEqual(card2);
    vi.advanceTimersByTime(999);
    expect(useGame.getState().game?.state).toBe('Confirming');
    vi.advanceTimersByTime(1);
    expect(useGame.getState().game).toMatchObject({ state: 'Guessing', draws: 3 });
    expect(useGame.getState().reveal).toBeNull();
  });

  it('reveal_time 0: no pause, the reveal shows while its phase lasts', () => {
    step({ ...intercepting, reveal_time: 0 });
    step({ ...confirming, reveal_time: 0 }, ev('change_state', { state: 'Confirming', hit: card, last_scored: anaWon }));
    expect(useGame.getState().reveal?.hit).toEqual(card);
    step({ ...next, reveal_time: 0 }, confirmed());
    expect(useGame.getState().game?.state).toBe('Guessing');
    expect(useGame.getState().reveal).toBeNull();
  });

  it("a deadline that came during the pause is not taken for the server's time (it was armed for the pause's end)", () => {
    gameClock.reset();
    toTheReveal();
    vi.advanceTimersByTime(500);
    // the room: the next turn's 10 s start when the 3 s of the reveal are over
    const deadline = Date.now() - 500 + PAUSE * 1000 + 10_000;
    const timed = { ...next, guess_timeout: 10, deadline };
    useGame.getState().applyState(roomJson(timed, seq));
    useGame.getState().applyEvent(ev('change_state', { state: 'Guessing', cause: 'confirmed', by: ben0, deadline }));
    vi.advanceTimersByTime(PAUSE * 1000);
    expect(useGame.getState().game?.deadline).toBe(deadline);
    expect(Math.abs(gameClock.offset())).toBeLessThan(50);
  });
});

describe('the announcer and the feed', () => {
  it('say and show the same texts in the same order, from one source, through a whole turn with its pause', () => {
    const ana0 = player('ana', { creator: true, years: [1980], tokens: 2 });
    const ben0 = player('ben', { years: [1990], tokens: 2 });
    const facts = { reveal_time: 3 } as const;
    step(game([ana0, ben0], facts));
    const a1 = { ...ana0, turn_player: true, state: 'Guessing' as const };
    step(game([a1, ben0], { ...facts, state: 'Guessing', draws: 1 }), ev('change_state', { state: 'Guessing' }));
    vi.advanceTimersByTime(2000);
    const a2 = { ...a1, state: 'Waiting' as const, guess: a1.slots[1] ?? null };
    const b2 = { ...ben0, state: 'Intercepting' as const };
    step(game([a2, b2], { ...facts, state: 'Intercepting', draws: 1 }), ev('guess', { players: [a2] }), ev('change_state', { state: 'Intercepting' }));
    vi.advanceTimersByTime(2000);
    const b3 = { ...b2, state: 'Waiting' as const, tokens: 1, guess: a1.slots[0] ?? null };
    const card = hit(1970);
    const b4 = { ...b3, hits: [...b3.hits, card] };
    step(game([a2, { ...b4, state: 'Confirming' }], { ...facts, state: 'Confirming', hit: card, last_scored: b4, draws: 1 }), ev('guess', { players: [b3] }), ev('change_state', { state: 'Confirming', hit: card, last_scored: b4 }));
    step(game([{ ...a2, guess: null, turn_player: false, tokens: 3 }, { ...b4, guess: null, turn_player: true, state: 'Guessing' }], { ...facts, state: 'Guessing', draws: 2 }), ev('change_state', { state: 'Guessing', cause: 'confirmed', by: b4 }));
    vi.advanceTimersByTime(3000);
    const said = heard.filter((n) => n.text).map((n) => n.text);
    expect(said).toEqual([
      'The game has started.',
      'Your turn.',
      'You chose after 1980.',
      'Ben intercepted before 1980.',
      'Ben scored.',
      'The hit was Song 1970 by Artist 1970 (1970).',
      'Ben confirmed your answer.',
      'You received a token.',
      "Ben's turn.",
    ]);
    expect(useGame.getState().feed.map((e) => e.text)).toEqual(said);
    // what the live regions got: the same, the interrupting outcome carrying the guess queued before it
    vi.advanceTimersByTime(2000);
    expect(announcer.getSnapshot().assertive.map((m) => m.text)).toEqual(['The game has started.', 'Ben intercepted before 1980. Ben scored.']);
  });
});
