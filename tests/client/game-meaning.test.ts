import { afterAll, describe, expect, it } from 'vitest';
import { announce, type Announcement } from '../../client/src/a11y/game-meaning.ts';
import { applyLanguage } from '../../client/src/i18n.ts';
import type { DisputePayload, GamePayload, GameUpdate } from '../../shared/protocol/game.ts';
import { roomEvent, type RoomEvent } from '../../shared/protocol/room.ts';
import { screenEffects, type ScreenEffects, type Seen } from '../../client/src/stores/game-events.ts';
import { game, hit, ids, player, uuid } from './game-fixtures.ts';

/**
 * What each kind of room event means (client/src/a11y/game-meaning.ts): the
 * sentences the live region says and the feed shows, in both languages, with
 * their sound cue, tone, whether they interrupt, and what else the event does
 * to the screen (the end dialog, a revealed card: client/src/stores/game-events.ts).
 */

afterAll(async () => {
  await applyLanguage('en');
});

let seq = 0;
const ev = (event: RoomEvent['event'], data: GameUpdate, final = false): RoomEvent => roomEvent(++seq, { event, data }, final);
const beforeOf = (g: GamePayload): Seen => ({ state: g.state, players: g.players, settings: g });

interface EventContext {
  before: Seen;
  game: GamePayload;
  userId: string;
  askedLocal: string | null;
  ownLeaveBefore: boolean;
}
/** What the screen makes of an event: its meanings (announce) and what it does to the screen (screenEffects). */
type EventOutcome = ScreenEffects & Pick<Announcement, 'meanings'> & { before: Seen; askedLocal: string | null };
function describeEvent(event: RoomEvent, ctx: EventContext): EventOutcome {
  const said = announce({ ...ctx.before, asked: ctx.askedLocal }, event, ctx.game, ctx.userId);
  const effects = screenEffects(ctx.before, event, ctx.game, ctx.userId, ctx.ownLeaveBefore);
  return { ...effects, before: effects.seen, meanings: said.meanings, askedLocal: said.asked };
}

const ana = player('ana', { creator: true, years: [1980], tokens: 2 });
const ben = player('ben', { years: [1990], tokens: 2 });
const cleo = player('cleo', { years: [1970], tokens: 2 });
const anaTurn = { ...ana, turn_player: true };
const card = hit(1985, 'Take On Me');

interface Case {
  name: string;
  event: RoomEvent;
  /** The game before the event (as the events so far described it). */
  was: GamePayload;
  /** The game after the patch that came before the event (default: `was`). */
  now?: GamePayload;
  /** The person at this device (default Ana). */
  me?: keyof typeof ids;
  en: string[];
  de: string[];
  check?: (o: EventOutcome) => void;
}

const open = game([ana, ben]);
const guessing = game([{ ...anaTurn, state: 'Guessing' }, ben], { state: 'Guessing', draws: 1 });
const placed = { ...anaTurn, guess: ana.slots[0] ?? null };
const intercepting = game([placed, { ...ben, state: 'Intercepting' }], { state: 'Intercepting', draws: 1 });
const benWon = { ...ben, hits: [...ben.hits, card], guess: ana.slots[1] ?? null, tokens: 1 };
const confirming = game([{ ...placed, state: 'Confirming' }, benWon], { state: 'Confirming', hit: card, last_scored: benWon, draws: 1 });
const confirmingBen = game([placed, { ...benWon, state: 'Confirming' }], { state: 'Confirming', hit: card, last_scored: benWon, draws: 1 });
const nextTurn = game([{ ...ana, tokens: 3 }, { ...benWon, guess: null, turn_player: true, state: 'Guessing' }], { state: 'Guessing', draws: 2 });
const reset = [player('ana', { creator: true, tokens: 0 }), player('ben', { tokens: 0 })];
const clue = { title: 'Euphoria', artist: 'Loreen', belongs_to: '' };
/** Ben says 1985 is wrong: 1984 (his own vote first), two seats vote. */
const disputed: DisputePayload = { hit: card, year: 1984, by: ids.ben, votes: [{ player: ids.ben, take: true }], until: null, outcome: null, voters: 2 };

const CASES: Case[] = [
  {
    name: 'join: someone else, with the join cue',
    event: ev('join', { players: [ben] }),
    was: game([ana]),
    now: open,
    en: ['Ben joined the game.'],
    de: ['Ben ist dem Spiel beigetreten.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'joined', type: 'joined', sfx: 'join_game', interrupt: false, actors: [{ id: ids.ben, name: 'Ben', you: false }] }),
  },
  {
    name: 'join: oneself',
    event: ev('join', { players: [ana] }),
    was: game([ben]),
    now: open,
    en: ['You joined the game.'],
    de: ['Du bist dem Spiel beigetreten.'],
    check: (o) => expect(o.meanings[0]?.actors).toEqual([{ id: ids.ana, name: 'Ana', you: true, color: 0, avatar: '' }]),
  },
  {
    name: 'leave: by oneself (the game may be deleted next)',
    event: ev('leave', { players: [ana] }),
    was: open,
    en: ['You left the game.'],
    de: ['Du hast das Spiel verlassen.'],
    check: (o) => {
      expect(o.ownLeave).toBe(true);
      expect(o.before.players.map((p) => p.id)).toEqual([ids.ben]);
    },
  },
  {
    name: 'leave: removed by the creator, on his screen',
    event: ev('leave', { players: [ben], removed_by: ana }),
    was: open,
    en: ['You removed Ben from the game.'],
    de: ['Du hast Ben aus dem Spiel entfernt.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'removed', interrupt: false, sfx: 'leave_game' }),
  },
  {
    name: 'leave: removed, on the removed player\'s screen (at once, and as a toast)',
    event: ev('leave', { players: [ben], removed_by: ana }),
    was: open,
    me: 'ben',
    en: ['Ana removed you from the game.'],
    de: ['Ana hat dich aus dem Spiel entfernt.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ interrupt: true, toast: 'warning', tone: 'bad' }),
  },
  {
    name: 'guess: the turn player places (free: no cue)',
    event: ev('guess', { players: [{ ...placed, state: 'Waiting' }] }),
    was: guessing,
    now: intercepting,
    en: ['You chose before 1980.'],
    de: ['Du hast vor 1980 gewählt.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'placed', type: 'guessed' }),
  },
  {
    name: 'guess: an interception (paid: the pay-token cue)',
    event: ev('guess', { players: [{ ...ben, guess: ana.slots[1] ?? null, tokens: 1 }] }),
    was: intercepting,
    en: ['Ben intercepted after 1980.'],
    de: ['Ben fängt ab: nach 1980.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'intercepted', sfx: 'pay_token' }),
  },
  {
    name: 'guess: declined',
    event: ev('guess', { players: [ben] }),
    was: intercepting,
    en: ['Ben does not intercept.'],
    de: ['Ben fängt nicht ab.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'declined', sfx: 'no_interception' }),
  },
  {
    name: 'guess: time ran out',
    event: ev('guess', { players: [ben], cause: 'timeout' }),
    was: intercepting,
    en: ['Time is up: Ben does not intercept.'],
    de: ['Die Zeit ist um: Ben fängt nicht ab.'],
  },
  {
    name: 'guess: not connected',
    event: ev('guess', { players: [ben], cause: 'absent' }),
    was: intercepting,
    en: ['Ben is not connected and does not intercept.'],
    de: ['Ben ist nicht verbunden und fängt nicht ab.'],
  },
  {
    name: 'skip: the skipped card is shown to everybody; in card mode the next card is read aloud, with the play cue',
    event: ev('skip', { players: [{ ...anaTurn, tokens: 1 }], hit: hit(1999, 'Skipped'), clue }),
    was: { ...guessing, clue_mode: 'card' },
    en: ['You skipped Skipped by Artist 1999 (1999).', 'Card to read aloud: Euphoria by Loreen.'],
    de: ['Du hast Skipped von Artist 1999 (1999) übersprungen.', 'Karte zum Vorlesen: Euphoria von Loreen.'],
    check: (o) => {
      expect(o.meanings.map((m) => [m.kind, m.sfx, m.toast])).toEqual([
        ['skipped', 'pay_token', 'info'],
        ['clue', 'play_hit', undefined],
      ]);
    },
  },
  {
    name: 'claim',
    event: ev('claim', { players: [{ ...ben, tokens: 0 }], hit: hit(1966, 'Claimed') }),
    was: guessing,
    en: ['Ben claimed Claimed by Artist 1966 (1966).'],
    de: ['Ben hat Claimed von Artist 1966 (1966) eingelöst.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'claimed', sfx: 'claim_hit', tone: 'good' }),
  },
  {
    name: 'update: what changed, the reveal time among it',
    event: ev('update', { settings: { goal: 3, start_tokens: 2, hit_duration: 20, guess_timeout: 0, intercept_timeout: 30, confirm_timeout: 60, reveal_time: 5, disputes: 2, dispute_timeout: 60, packs: open.packs, clue_mode: 'audio', clue_mode_auto: false, dj: '', dj_plays: true } }),
    was: open,
    en: ['You changed the game settings: Goal (hits to win): 3; Time to see each reveal (seconds): 5.'],
    de: ['Du hast die Spieleinstellungen geändert: Ziel (Hits zum Sieg): 3; Zeit für jede Auflösung (Sekunden): 5.'],
  },
  {
    name: 'start: started, whose turn, the card to read',
    event: ev('change_state', { state: 'Guessing', clue }),
    was: open,
    now: { ...guessing, clue_mode: 'card', clue },
    en: ['The game has started.', 'Your turn.', 'Card to read aloud: Euphoria by Loreen.'],
    de: ['Das Spiel hat begonnen.', 'Du bist dran.', 'Karte zum Vorlesen: Euphoria von Loreen.'],
    check: (o) => {
      expect(o.meanings[0]).toMatchObject({ kind: 'started', interrupt: true });
      expect(o.ended).toBeNull();
      expect(o.clearChoice).toBe(true);
    },
  },
  {
    name: 'intercepting: the one who may intercept is asked',
    event: ev('change_state', { state: 'Intercepting' }),
    was: game([{ ...player('ben', { years: [1990] }), turn_player: true, state: 'Guessing' }, ana], { state: 'Guessing', draws: 1 }),
    now: game([{ ...player('ben', { years: [1990] }), turn_player: true }, { ...ana, state: 'Intercepting' }], { state: 'Intercepting', draws: 1 }),
    en: ["You may intercept Ben's guess."],
    de: ['Du kannst den Tipp von Ben abfangen.'],
  },
  {
    name: 'intercepting in a Local game: the seats at the screen are asked at once, by name',
    event: ev('change_state', { state: 'Intercepting' }),
    was: game([{ ...anaTurn, state: 'Guessing' }, { ...ben, virtual: true }, { ...cleo, virtual: true }], { state: 'Guessing', mode: 'Local', draws: 1 }),
    now: game([placed, { ...ben, virtual: true, state: 'Intercepting' }, { ...cleo, virtual: true, state: 'Intercepting' }], { state: 'Intercepting', mode: 'Local', draws: 1 }),
    en: ["Ben and Cleo may intercept Ana's guess."],
    de: ['Ben und Cleo können den Tipp von Ana abfangen.'],
    check: (o) => expect(o.askedLocal).toBe(`1:${ids.ben},${ids.cleo}`),
  },
  {
    name: 'intercepting in a Local game: a seat a phone controls answers there, the screen asks the others',
    event: ev('change_state', { state: 'Intercepting' }),
    was: game([{ ...anaTurn, state: 'Guessing' }, { ...ben, virtual: true }, { ...cleo, virtual: true }], { state: 'Guessing', mode: 'Local', draws: 1 }),
    now: game([placed, { ...ben, virtual: true, state: 'Intercepting', controller: uuid(9) }, { ...cleo, virtual: true, state: 'Intercepting' }], { state: 'Intercepting', mode: 'Local', draws: 1 }),
    en: ["Cleo may intercept Ana's guess."],
    de: ['Cleo kann den Tipp von Ana abfangen.'],
    check: (o) => expect(o.askedLocal).toBe(`1:${ids.cleo}`),
  },
  {
    name: 'the reveal: who scored, the card, and the question to the confirmer',
    event: ev('change_state', { state: 'Confirming', hit: card, last_scored: benWon }),
    was: intercepting,
    now: confirming,
    en: ['Ben scored.', 'The hit was Take On Me by Artist 1985 (1985).', 'Did Ana name the title and artist correctly?'],
    de: ['Ben hat gepunktet.', 'Der Hit war Take On Me von Artist 1985 (1985).', 'Hat Ana Titel und Interpret richtig genannt?'],
    check: (o) => {
      expect(o.meanings.map((m) => [m.kind, m.interrupt, m.sfx, m.tone])).toEqual([
        ['scored', true, 'you_fail', 'good'],
        ['revealed', false, undefined, 'neutral'],
        ['ask', false, undefined, 'neutral'],
      ]);
      expect(o.reveal).toEqual({ hit: card, turn: { id: ids.ana, name: 'Ana', you: true, color: 0, avatar: '' }, guess: ana.slots[0], winner: { id: ids.ben, name: 'Ben', you: false, color: 1, avatar: '' }, final: false });
    },
  },
  {
    name: 'the reveal: nobody scored; the card goes to the discard pile',
    event: ev('change_state', { state: 'Confirming', hit: card }),
    was: intercepting,
    now: game([placed, { ...ben, state: 'Confirming' }], { state: 'Confirming', hit: card, draws: 1, clue_mode: 'card' }),
    me: 'ben',
    en: ['Nobody scored.', 'The hit was Take On Me by Artist 1985 (1985).', 'Did Ana name the exact year?'],
    de: ['Niemand hat gepunktet.', 'Der Hit war Take On Me von Artist 1985 (1985).', 'Hat Ana das genaue Jahr genannt?'],
    check: (o) => {
      expect(o.meanings[0]).toMatchObject({ interrupt: true, sfx: 'you_fail', tone: 'bad' });
      expect(o.reveal?.winner).toBeNull();
    },
  },
  {
    name: 'the reveal: you scored',
    event: ev('change_state', { state: 'Confirming', hit: card, last_scored: benWon }),
    was: intercepting,
    now: confirming,
    me: 'ben',
    en: ['You scored!', 'The hit was Take On Me by Artist 1985 (1985).'],
    de: ['Du hast gepunktet!', 'Der Hit war Take On Me von Artist 1985 (1985).'],
    check: (o) => expect(o.meanings[0]?.sfx).toBe('you_score'),
  },
  {
    name: 'a new confirmer (the one asked before is gone) is asked',
    event: ev('change_state', { state: 'Confirming' }),
    was: game([placed, { ...benWon, state: 'Confirming' }, cleo], { state: 'Confirming', hit: card, draws: 1 }),
    now: game([{ ...placed, state: 'Confirming' }, benWon, cleo], { state: 'Confirming', hit: card, draws: 1 }),
    en: ['Did Ana name the title and artist correctly?'],
    de: ['Hat Ana Titel und Interpret richtig genannt?'],
  },
  {
    name: 'the next turn after a "yes": the answer, the token, whose turn',
    event: ev('change_state', { state: 'Guessing', cause: 'confirmed', by: benWon }),
    was: confirmingBen,
    now: nextTurn,
    en: ['Ben confirmed your answer.', 'You received a token.', "Ben's turn."],
    de: ['Ben hat deine Antwort bestätigt.', 'Du hast einen Chip bekommen.', 'Ben ist dran.'],
    check: (o) => expect(o.meanings.map((m) => [m.kind, m.tone, m.sfx])).toEqual([
      ['answer', 'good', undefined],
      ['token', 'good', 'receive_token'],
      ['turn', 'neutral', undefined],
    ]),
  },
  {
    name: 'the next turn after a "no", seen by a third player',
    event: ev('change_state', { state: 'Guessing', cause: 'rejected', by: benWon }),
    was: game([placed, { ...benWon, state: 'Confirming' }, cleo], { state: 'Confirming', hit: card, draws: 1 }),
    now: game([ana, { ...benWon, guess: null, turn_player: true, state: 'Guessing' }, cleo], { state: 'Guessing', draws: 2 }),
    me: 'cleo',
    en: ["Ben rejected Ana's answer.", "Ben's turn."],
    de: ['Ben hat die Antwort von Ana abgelehnt.', 'Ben ist dran.'],
  },
  {
    name: 'the next turn after the confirmation timed out',
    event: ev('change_state', { state: 'Guessing', cause: 'timeout' }),
    was: confirmingBen,
    now: game([ana, { ...benWon, guess: null, turn_player: true, state: 'Guessing' }], { state: 'Guessing', draws: 2 }),
    en: ['Time is up: your answer was not confirmed.', "Ben's turn."],
    de: ['Die Zeit ist um: Deine Antwort wurde nicht bestätigt.', 'Ben ist dran.'],
  },
  {
    name: 'the next turn: nobody was there to confirm',
    event: ev('change_state', { state: 'Guessing', cause: 'absent' }),
    was: confirmingBen,
    now: game([ana, { ...benWon, guess: null, turn_player: true, state: 'Guessing' }], { state: 'Guessing', draws: 2 }),
    me: 'ben',
    en: ["Nobody was there to confirm Ana's answer.", 'Your turn.'],
    de: ['Niemand war da, um die Antwort von Ana zu bestätigen.', 'Du bist dran.'],
  },
  {
    name: 'a Local game says whose answer was confirmed',
    event: ev('change_state', { state: 'Guessing', cause: 'confirmed', by: ana }),
    was: game([{ ...placed, state: 'Confirming' }, { ...ben, virtual: true }], { state: 'Confirming', mode: 'Local', hit: card, draws: 1 }),
    now: game([{ ...ana, tokens: 3 }, { ...ben, virtual: true, turn_player: true, state: 'Guessing' }], { state: 'Guessing', mode: 'Local', draws: 2 }),
    en: ["Ana's answer was confirmed.", 'Ana received a token.', "Ben's turn."],
    de: ['Die Antwort von Ana wurde bestätigt.', 'Ana hat einen Chip bekommen.', 'Ben ist dran.'],
  },
  {
    name: 'the turn passes when the time to place ran out (shown as a toast too)',
    event: ev('change_state', { state: 'Guessing', cause: 'timeout' }),
    was: guessing,
    now: game([ana, { ...ben, turn_player: true, state: 'Guessing' }], { state: 'Guessing', draws: 2 }),
    en: ['Time is up: you did not place the hit.', "Ben's turn."],
    de: ['Die Zeit ist um: Du hast den Hit nicht eingeordnet.', 'Ben ist dran.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'timeout', toast: 'warning', tone: 'bad' }),
  },
  {
    name: 'connections lost and back (not one\'s own)',
    event: ev('change_state', { state: 'Open' }),
    was: game([ana, ben, { ...cleo, connected: false }]),
    now: game([{ ...ana, connected: false }, { ...ben, connected: false }, cleo]),
    en: ['Ben lost the connection.', 'Cleo is back.'],
    de: ['Ben hat die Verbindung verloren.', 'Cleo ist wieder da.'],
  },
  {
    name: 'stopped by someone else (a toast too; no end dialog)',
    event: ev('change_state', { state: 'Open', cause: 'stopped', by: ben, standings: [ana, ben] }),
    was: guessing,
    now: game(reset, { standings: [ana, ben] }),
    en: ['Ben stopped the game.'],
    de: ['Ben hat das Spiel beendet.'],
    check: (o) => {
      expect(o.meanings[0]).toMatchObject({ kind: 'stopped', interrupt: true, toast: 'info' });
      expect(o.ended).toBeNull();
    },
  },
  {
    name: 'stopped by oneself',
    event: ev('change_state', { state: 'Open', cause: 'stopped', by: ana, standings: [ana, ben] }),
    was: guessing,
    now: game(reset, { standings: [ana, ben] }),
    en: ['You stopped the game.'],
    de: ['Du hast das Spiel beendet.'],
    check: (o) => expect(o.meanings[0]?.toast).toBeUndefined(),
  },
  {
    name: 'won with a placement: the end, the card (revealed as the last one), the celebration',
    event: ev('change_state', { state: 'Open', hit: card, last_scored: benWon, winner: benWon, standings: [placed, benWon] }),
    was: intercepting,
    now: game(reset, { winner: benWon, standings: [placed, benWon] }),
    en: ['Game over: Ben wins.', 'The hit was Take On Me by Artist 1985 (1985).'],
    de: ['Spielende: Ben gewinnt.', 'Der Hit war Take On Me von Artist 1985 (1985).'],
    check: (o) => {
      expect(o.meanings[0]).toMatchObject({ kind: 'ended', interrupt: true, sfx: 'you_lose', tone: 'good' });
      expect(o.reveal).toMatchObject({ hit: card, final: true, winner: { id: ids.ben }, turn: { id: ids.ana } });
      expect(o.ended).toEqual({ winner: benWon, standings: [placed, benWon], hit: card, celebrate: true });
    },
  },
  {
    name: 'won by oneself with a claim: no card to turn over',
    event: ev('change_state', { state: 'Open', winner: benWon, standings: [ana, benWon] }),
    was: guessing,
    now: game(reset, { winner: benWon, standings: [ana, benWon] }),
    me: 'ben',
    en: ['Game over: you win!'],
    de: ['Spielende: Du gewinnst!'],
    check: (o) => {
      expect(o.meanings[0]?.sfx).toBe('you_win');
      expect(o.reveal).toBeUndefined();
    },
  },
  {
    name: 'no card left after a confirmation: the answer, then nobody wins',
    event: ev('change_state', { state: 'Open', cause: 'confirmed', by: benWon, standings: [ana, ben] }),
    was: confirmingBen,
    now: game(reset, { standings: [ana, ben] }),
    en: ['Ben confirmed your answer.', 'Game over: no one wins.'],
    de: ['Ben hat deine Antwort bestätigt.', 'Spielende: Niemand gewinnt.'],
    check: (o) => expect(o.ended).toEqual({ winner: null, standings: [ana, ben], celebrate: true }),
  },
  // year disputes (docs/rules.md#disputes): raised, each vote, decided with where the card went
  {
    name: 'dispute raised by someone else: everybody is asked to vote, at once',
    event: ev('dispute', { dispute: disputed, players: [ben], deadline: 1 }),
    was: confirming,
    now: { ...confirming, dispute: disputed, disputable: null },
    en: ['Ben disputes 1985 for “Take On Me”: 1984? Everybody votes.'],
    de: ['Ben erhebt Einspruch gegen 1985 für „Take On Me“: 1984? Alle stimmen ab.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'dispute', interrupt: true, sfx: 'popup', actors: [{ id: ids.ben, you: false }] }),
  },
  {
    name: 'dispute raised by oneself',
    event: ev('dispute', { dispute: { ...disputed, by: ids.ana, votes: [{ player: ids.ana, take: true }] }, players: [ana] }),
    was: confirming,
    en: ['You dispute 1985 for “Take On Me”: 1984? Everybody votes.'],
    de: ['Du erhebst Einspruch gegen 1985 für „Take On Me“: 1984? Alle stimmen ab.'],
  },
  {
    name: 'a vote to keep the year, by oneself: short',
    event: ev('vote', { dispute: { ...disputed, votes: [...disputed.votes, { player: ids.ana, take: false }] }, players: [ana] }),
    was: { ...confirming, dispute: disputed },
    en: ['You vote to keep 1985.'],
    de: ['Du stimmst dafür, 1985 zu behalten.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'vote', interrupt: false }),
  },
  {
    name: "a vote for the proposed year, by someone else",
    event: ev('vote', { dispute: { ...disputed, by: ids.ana, votes: [{ player: ids.ana, take: true }, { player: ids.ben, take: true }] }, players: [ben] }),
    was: { ...confirming, dispute: disputed },
    en: ['Ben votes for 1984.'],
    de: ['Ben stimmt für 1984.'],
  },
  {
    name: 'decided: the table took the year, the card went to oneself',
    event: ev('dispute', { dispute: { ...disputed, outcome: 'changed' } }),
    was: { ...confirming, dispute: disputed },
    now: game([{ ...placed, hits: [...placed.hits, card] }, ben], { state: 'Confirming', hit: card, draws: 1, dispute: { ...disputed, outcome: 'changed' } }),
    en: ['The table took 1984 for “Take On Me”: the card goes to you.'],
    de: ['Der Tisch nimmt 1984 für „Take On Me“: Die Karte geht an dich.'],
    check: (o) => expect(o.meanings[0]).toMatchObject({ kind: 'dispute', interrupt: true, tone: 'good', actors: [{ id: ids.ana, you: true }] }),
  },
  {
    name: 'decided: the table took the year, nobody was right (discard pile)',
    event: ev('dispute', { dispute: { ...disputed, outcome: 'changed' } }),
    was: { ...confirming, dispute: disputed },
    now: game([placed, player('ben', { years: [1990] })], { state: 'Confirming', hit: card, draws: 1 }),
    en: ['The table took 1984 for “Take On Me”: the card goes to the discard pile.'],
    de: ['Der Tisch nimmt 1984 für „Take On Me“: Die Karte kommt auf den Ablagestapel.'],
  },
  {
    name: 'decided: time ran out and the year stays',
    event: ev('dispute', { dispute: { ...disputed, outcome: 'kept' }, cause: 'timeout' }),
    was: { ...confirming, dispute: disputed },
    en: ['Time to vote is up.', 'The year 1985 stays for “Take On Me”.'],
    de: ['Die Zeit zum Abstimmen ist um.', 'Das Jahr 1985 bleibt für „Take On Me“.'],
  },
  {
    name: 'update: disputes turned off and no time limit to vote',
    event: ev('update', { settings: { goal: 10, start_tokens: 2, hit_duration: 20, guess_timeout: 0, intercept_timeout: 30, confirm_timeout: 60, reveal_time: 0, disputes: 0, dispute_timeout: 0, packs: open.packs, clue_mode: 'audio', clue_mode_auto: false, dj: '', dj_plays: true } }),
    was: open,
    en: ['You changed the game settings: Disputes per player: off; Time to vote (seconds): no limit.'],
    de: ['Du hast die Spieleinstellungen geändert: Einsprüche pro Person: aus; Zeit zum Abstimmen (Sekunden): kein Limit.'],
  },
  {
    name: 'the game deleted: nothing said, the room closes',
    event: ev('change_state', { state: 'Open' }, true),
    was: open,
    en: [],
    de: [],
    check: (o) => expect(o.closed).toEqual({ byOwnLeave: false }),
  },
];

function run(c: Case): EventOutcome {
  const ctx: EventContext = { before: beforeOf(c.was), game: c.now ?? c.was, userId: ids[c.me ?? 'ana'], askedLocal: null, ownLeaveBefore: false };
  return describeEvent(c.event, ctx);
}

describe('what a game event means', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s (English)', async (_name, c) => {
    await applyLanguage('en');
    const o = run(c);
    expect(o.meanings.map((m) => m.text)).toEqual(c.en);
    c.check?.(o);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s (German)', async (_name, c) => {
    await applyLanguage('de');
    const o = run(c);
    expect(o.meanings.map((m) => m.text)).toEqual(c.de);
  });

  it('covers every event the room sends', () => {
    const kinds = new Set(CASES.map((c) => c.event.event));
    expect([...kinds].sort()).toEqual(['change_state', 'claim', 'dispute', 'guess', 'join', 'leave', 'skip', 'update', 'vote']);
  });

  it("names everybody on the TV (followGameNews({named:true}): nobody is 'you' there)", async () => {
    await applyLanguage('en');
    const raised = announce({ ...beforeOf(confirming), asked: null }, ev('dispute', { dispute: { ...disputed, by: ids.ana, votes: [{ player: ids.ana, take: true }] } }), confirming, undefined);
    expect(raised.meanings.map((m) => m.text)).toEqual(['Ana disputes 1985 for “Take On Me”: 1984? Everybody votes.']);
    const mine = game([{ ...placed, hits: [...placed.hits, card] }, ben], { state: 'Confirming', hit: card, draws: 1 });
    const decided = announce({ ...beforeOf(confirming), asked: null }, ev('dispute', { dispute: { ...disputed, outcome: 'changed' } }), mine, undefined);
    expect(decided.meanings.map((m) => m.text)).toEqual(['The table took 1984 for “Take On Me”: the card goes to Ana.']);
  });

  it('changes nothing it is given', () => {
    const was = structuredClone(intercepting);
    const before = beforeOf(was);
    const snapshot = JSON.stringify({ was, before });
    describeEvent(ev('change_state', { state: 'Confirming', hit: card, last_scored: benWon }), { before, game: confirming, userId: ids.ana, askedLocal: null, ownLeaveBefore: false });
    expect(JSON.stringify({ was, before })).toBe(snapshot);
  });

  it('has no "you" in Local games: every seat is someone at the same device', async () => {
    await applyLanguage('en');
    const local = game([ana, { ...ben, virtual: true }], { mode: 'Local' });
    const o = describeEvent(ev('leave', { players: [ana] }), { before: beforeOf(local), game: local, userId: ids.ana, askedLocal: null, ownLeaveBefore: false });
    expect(o.meanings.map((m) => m.text)).toEqual(['Ana left the game.']);
    // yet it was her own leaving
    expect(o.ownLeave).toBe(true);
  });
});

