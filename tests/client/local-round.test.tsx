import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announcer } from '../../client/src/a11y/announcer.ts';
import * as actions from '../../client/src/routes/game/game-actions.ts';
import {
  activeSeat,
  chooseFor,
  draftAnswers,
  keepDraft,
  localRound,
  perspectiveOf,
  refusedAnswers,
  seatOptions,
  stepFor,
  type Draft,
} from '../../client/src/routes/game/game-logic.ts';
import { GuessPanel } from '../../client/src/routes/game/GuessPanel.tsx';
import { useLocalRound } from '../../client/src/routes/game/local-round-store.ts';
import { useGame } from '../../client/src/stores/game.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import type { GamePayload, PlayerPayload } from '../../shared/protocol/game.ts';
import { game, ids, player, users } from './game-fixtures.ts';
import { renderApp } from './render.tsx';

/**
 * The one-screen interception round of a Local game (docs/rules.md#local):
 * Ana's device; Ben's turn on a timeline 1975, 1988, his guess "before 1975"
 * (slot 1); Cleo and Ana may intercept (in seat order after Ben: Cleo, Dana,
 * Ana); Dana has no token.
 */
const virtual = (p: PlayerPayload): PlayerPayload => ({ ...p, virtual: true });
const ben0 = virtual(player('ben', { years: [1975, 1988], turn_player: true }));
const ben = { ...ben0, guess: ben0.slots[0] ?? null };
const ana = player('ana', { creator: true, state: 'Intercepting', years: [2001] });
const cleo = virtual(player('cleo', { state: 'Intercepting', years: [1999] }));
const dana = virtual(player('dana', { tokens: 0, years: [1960] }));
const round4 = (changes: Partial<Record<'ana' | 'ben' | 'cleo' | 'dana', Partial<PlayerPayload> & { controller?: string | null }>> = {}): GamePayload =>
  game(
    [
      { ...ana, ...changes.ana },
      { ...ben, ...changes.ben },
      { ...cleo, ...changes.cleo },
      { ...dana, ...changes.dana },
    ],
    { mode: 'Local', state: 'Intercepting', draws: 1 },
  );
const asAna = (g: GamePayload) => perspectiveOf(g, ids.ana);

describe('the local round, as a model', () => {
  it('lists the seats asked in seat order after the turn player, and the seats without a token apart', () => {
    const g = round4();
    const round = localRound(g, asAna(g));
    expect(round?.turn.name).toBe('Ben');
    expect(round?.seats.map((s) => s.name)).toEqual(['Cleo', 'Ana']);
    expect(round?.noToken.map((s) => s.name)).toEqual(['Dana']);
    expect(round?.options.map((o) => [o.slot.id, o.takenBy, o.disabled])).toEqual([
      [1, ['Ben'], true],
      [2, [], false],
      [3, [], false],
    ]);
  });

  it('is only for a Local game, while Intercepting, on the creator\'s device, with someone to ask there', () => {
    const g = round4();
    const shared: GamePayload = { ...g, mode: 'Private' };
    expect(localRound(shared, perspectiveOf(shared, ids.ana))).toBeNull();
    expect(localRound({ ...g, state: 'Guessing' }, asAna(g))).toBeNull();
    expect(localRound(g, perspectiveOf(g, undefined))).toBeNull();
    const answered = round4({ ana: { state: 'Waiting' }, cleo: { state: 'Waiting' } });
    expect(localRound(answered, asAna(answered))).toBeNull();
  });

  it('leaves out a seat a phone controls: it answers on that phone', () => {
    const g = round4({ cleo: { controller: uuid9 } });
    expect(localRound(g, asAna(g))?.seats.map((s) => s.name)).toEqual(['Ana']);
    const onlyPhone = round4({ cleo: { controller: uuid9 }, ana: { state: 'Waiting' } });
    expect(localRound(onlyPhone, asAna(onlyPhone))).toBeNull();
  });

  it("the shared screen does not act for a seat a phone plays: the next seat it asks, or nobody (it waits)", () => {
    const g = round4({ cleo: { controller: uuid9 } });
    expect(asAna(g).actor?.name).toBe('Ana');
    const onlyPhone = round4({ cleo: { controller: uuid9 }, ana: { state: 'Waiting' } });
    expect(asAna(onlyPhone).actor).toBeNull();
    // without phones, the first seat asked
    expect(asAna(round4()).actor?.name).toBe('Cleo');
  });

  it('a gap chosen for one seat is taken for the others, and cannot be chosen twice', () => {
    const g = round4();
    const round = localRound(g, asAna(g))!;
    const draft = chooseFor(round, {}, ids.cleo, 2);
    expect(draft).toEqual({ [ids.cleo]: 2 });
    expect(seatOptions(round, draft, ids.ana).map((o) => [o.takenBy, o.disabled])).toEqual([
      [['Ben'], true],
      [['Cleo'], true],
      [[], false],
    ]);
    // Cleo's own gap stays hers to keep
    expect(seatOptions(round, draft, ids.cleo)[1]?.disabled).toBe(false);
    expect(chooseFor(round, draft, ids.ana, 2)).toBe(draft);
    expect(chooseFor(round, draft, ids.ana, 1)).toBe(draft);
    // a seat not asked gets no answer
    expect(chooseFor(round, draft, ids.dana, 3)).toBe(draft);
    expect(chooseFor(round, draft, ids.ana, 'none')).toEqual({ [ids.cleo]: 2, [ids.ana]: 'none' });
  });

  it('sends each answered seat once, in seat order; unanswered seats wait', () => {
    const g = round4();
    const round = localRound(g, asAna(g))!;
    const draft: Draft = { [ids.ana]: 'none', [ids.cleo]: 3 };
    expect(draftAnswers(round, draft).map((a) => [a.seat.name, a.slot?.id ?? null])).toEqual([
      ['Cleo', 3],
      ['Ana', null],
    ]);
    expect(draftAnswers(round, { [ids.ana]: 3 }).map((a) => a.seat.name)).toEqual(['Ana']);
    expect(draftAnswers(round, {})).toEqual([]);
  });

  it('drops answers that no longer fit: a seat that answered, a gap guessed meanwhile', () => {
    const g = round4();
    const round = localRound(g, asAna(g))!;
    const draft: Draft = { [ids.ana]: 2, [ids.cleo]: 'none' };
    expect(keepDraft(round, draft)).toBe(draft);
    const later = round4({ cleo: { state: 'Waiting' } });
    expect(keepDraft(localRound(later, asAna(later)), draft)).toEqual({ [ids.ana]: 2 });
    const taken = round4({ cleo: { state: 'Waiting', guess: ben0.slots[1] ?? null } });
    expect(keepDraft(localRound(taken, asAna(taken)), draft)).toEqual({});
    expect(keepDraft(null, draft)).toEqual({});
  });

  it('steps one seat through its free gaps, then "no"; the active seat is the one last edited while asked', () => {
    const g = round4();
    const round = localRound(g, asAna(g))!;
    const draft: Draft = { [ids.cleo]: 2 };
    expect(stepFor(round, draft, ids.ana, 1)).toBe(3);
    expect(stepFor(round, { ...draft, [ids.ana]: 3 }, ids.ana, 1)).toBe('none');
    expect(stepFor(round, draft, ids.ana, -1)).toBe('none');
    expect(activeSeat(round, null).name).toBe('Cleo');
    expect(activeSeat(round, ids.ana).name).toBe('Ana');
    expect(activeSeat(round, ids.dana).name).toBe('Cleo');
  });

  it('finds an answer the engine refused: the seat is still asked and someone else holds its gap', () => {
    const sent = { [ids.cleo]: 2, [ids.ana]: null };
    // nothing back yet: nothing refused
    expect(refusedAnswers(round4(), sent)).toEqual([]);
    // Cleo's answer stood
    expect(refusedAnswers(round4({ cleo: { state: 'Waiting', guess: ben0.slots[1] ?? null } }), sent)).toEqual([]);
    // a phone's seat took the gap first: Cleo is asked again
    const refused = refusedAnswers(round4({ dana: { tokens: 1, guess: ben0.slots[1] ?? null, controller: uuid9 } }), sent);
    expect(refused.map((r) => [r.seat.name, r.slot?.id])).toEqual([['Cleo', 2]]);
  });
});

const uuid9 = '00000000-0000-4000-8000-000000000009';
const sent: { type: string; payload: unknown }[] = [];
const show = (g: GamePayload): void => {
  act(() => useGame.setState({ game: g }));
};
const group = (name: string): HTMLElement => screen.getByRole('radiogroup', { name: new RegExp(`^${name} \\(`) });
const radio = (seat: string, name: string): HTMLInputElement => within(group(seat)).getByRole('radio', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
/** Clicks a seat's radio and waits for the choice to show. */
const pick = async (seat: string, name: string): Promise<void> => {
  fireEvent.click(radio(seat, name));
  await waitFor(() => expect(radio(seat, name).checked).toBe(true));
};
const sendButton = (): HTMLButtonElement => screen.getByRole('button', { name: /^Send / }) as HTMLButtonElement;
const polite = (): string[] => announcer.getSnapshot().polite.map((a) => a.text);
const assertive = (): string[] => announcer.getSnapshot().assertive.map((a) => a.text);
/** The announcer releases polite messages after a moment. */
const settle = async (): Promise<void> => {
  await act(async () => new Promise((r) => setTimeout(r, 80)));
};

describe('the local round, on the screen', () => {
  beforeEach(() => {
    resetSessionForTests();
    useSession.setState({ user: users.ana, ready: true });
    useGame.getState().reset('AbCd1234');
    useLocalRound.getState().reset();
    sent.length = 0;
    useGame.getState().setSender((type, payload) => sent.push({ type, payload }));
    useGame.getState().setStatus('connected');
    act(() => announcer.clear());
  });
  afterEach(() => {
    useGame.getState().reset(null);
  });

  it('asks every seat at once, a gap chosen for one disabled for the other, and sends all answers with one button', async () => {
    show(round4());
    renderApp(<GuessPanel />);
    expect(screen.getByRole('heading', { name: "Who intercepts Ben's guess? 1 token each." })).toBeTruthy();
    expect(screen.getAllByRole('radiogroup')).toHaveLength(2);
    expect(group('Cleo')).toBeTruthy();
    expect(screen.getByRole('radiogroup', { name: 'Ana (2 tokens): choose a gap or no' })).toBeTruthy();
    expect(screen.getByText('no token, cannot intercept')).toBeTruthy();
    expect(radio('Cleo', 'before 1975').disabled).toBe(true);
    expect(radio('Cleo', 'before 1975').closest('label')?.textContent).toBe('before 1975 (taken by Ben)');
    expect(sendButton().disabled).toBe(true);

    await pick('Cleo', 'between 1975 and 1988');
    expect(radio('Ana', 'between 1975 and 1988').disabled).toBe(true);
    expect(radio('Ana', 'between 1975 and 1988').closest('label')?.textContent).toBe('between 1975 and 1988 (taken by Cleo)');
    expect(sendButton().textContent).toBe('Send 1 answer');
    await pick('Ana', 'No');
    expect(sendButton().textContent).toBe('Send 2 answers');
    act(() => sendButton().focus());
    fireEvent.click(sendButton());
    // the button has nothing left to send: the focus stays in the panel, on its heading
    expect(document.activeElement?.id).toBe('guess-heading');
    expect(sent).toEqual([
      { type: 'guess', payload: { slot: 2, player: ids.cleo } },
      { type: 'guess', payload: { slot: null, player: ids.ana } },
    ]);
    await settle();
    expect(polite()).toContain('Sent: Cleo intercepts between 1975 and 1988; Ana: no.');
    // until the game shows them, the answers sent are not offered again
    expect(within(group('Cleo')).getByText('Sending…')).toBeTruthy();
  });

  it('a partly answered round: the others stay asked, and the seat a phone controls is not listed', async () => {
    show(round4({ dana: { tokens: 2, state: 'Intercepting', controller: uuid9 } }));
    renderApp(<GuessPanel />);
    expect(screen.queryByRole('radiogroup', { name: /^Dana/ })).toBeNull();
    expect(screen.queryByText('no token, cannot intercept')).toBeNull();
    await pick('Ana', 'after 1988');
    fireEvent.click(sendButton());
    expect(sent).toEqual([{ type: 'guess', payload: { slot: 3, player: ids.ana } }]);
    show(round4({ ana: { state: 'Waiting', guess: ben0.slots[2] ?? null, tokens: 1 }, dana: { tokens: 2, state: 'Intercepting', controller: uuid9 } }));
    expect(screen.queryByRole('radiogroup', { name: /^Ana/ })).toBeNull();
    expect(radio('Cleo', 'after 1988').closest('label')?.textContent).toBe('after 1988 (taken by Ana)');
    expect(radio('Cleo', 'between 1975 and 1988').disabled).toBe(false);
  });

  it('an answer the engine refused is said by name and asked again; the other answers stand', async () => {
    show(round4({ dana: { tokens: 1, state: 'Intercepting', controller: uuid9 } }));
    renderApp(<GuessPanel />);
    await pick('Cleo', 'between 1975 and 1988');
    await pick('Ana', 'after 1988');
    fireEvent.click(sendButton());
    expect(sent).toHaveLength(2);
    // Dana's phone took Cleo's gap a moment earlier: the engine refused Cleo's answer, took Ana's
    show(
      round4({
        dana: { tokens: 0, state: 'Waiting', guess: ben0.slots[1] ?? null, controller: uuid9 },
        ana: { state: 'Waiting', guess: ben0.slots[2] ?? null, tokens: 1 },
      }),
    );
    await settle();
    // (the interruption carries what was queued before it: the sent answers)
    expect(assertive().at(-1)).toMatch(/ Cleo's answer did not count: someone took that gap a moment earlier\. Choose again; the other answers were sent\.$/);
    expect(within(group('Cleo')).getByText('The gap between 1975 and 1988 was taken a moment earlier: choose again.')).toBeTruthy();
    expect(radio('Cleo', 'between 1975 and 1988').disabled).toBe(true);
    expect(radio('Cleo', 'No').disabled).toBe(false);
    await pick('Cleo', 'No');
    expect(within(group('Cleo')).queryByText(/was taken a moment earlier/)).toBeNull();
    fireEvent.click(sendButton());
    expect(sent.at(-1)).toEqual({ type: 'guess', payload: { slot: null, player: ids.cleo } });
  });

  it('the shortcuts answer for the seat being edited, name it, and send everything', async () => {
    show(round4());
    renderApp(<GuessPanel />);
    act(() => actions.stepSlot(1));
    expect(assertive().at(-1)).toBe('Cleo: between 1975 and 1988');
    expect(radio('Cleo', 'between 1975 and 1988').checked).toBe(true);
    // the focus in Ana's group makes her the seat the keys answer for
    act(() => radio('Ana', 'after 1988').focus());
    act(() => actions.stepSlot(1));
    // her first free gap: Cleo's is taken
    expect(assertive().at(-1)).toBe('Ana: after 1988');
    act(() => actions.stepSlot(1));
    expect(assertive().at(-1)).toBe('Ana: No');
    act(() => actions.clearSlot());
    expect(assertive().at(-1)).toBe('Ana: no answer yet');
    expect(radio('Ana', 'No').checked).toBe(false);
    act(() => actions.submitGuess());
    expect(sent).toEqual([{ type: 'guess', payload: { slot: 2, player: ids.cleo } }]);
    // nothing answered: the shortcut says what to do
    act(() => actions.submitGuess());
    expect(sent).toHaveLength(1);
  });

  it('a gap of the table answers for the seat being edited', async () => {
    show(round4());
    renderApp(<GuessPanel />);
    await pick('Cleo', 'between 1975 and 1988');
    act(() => radio('Ana', 'No').focus());
    // the table shows Ana's choice now (none yet); a tap on a gap is hers
    expect(useGame.getState().choice).toBeNull();
    act(() => useGame.getState().setChoice(3));
    expect(radio('Ana', 'after 1988').checked).toBe(true);
    // a gap already chosen for Cleo is refused, and the table shows Ana's own again
    act(() => useGame.getState().setChoice(2));
    expect(radio('Ana', 'after 1988').checked).toBe(true);
    expect(useGame.getState().choice).toBe(3);
  });
});
