import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announcer } from '../../client/src/a11y/announcer.ts';
import * as actions from '../../client/src/routes/game/game-actions.ts';
import { GuessPanel } from '../../client/src/routes/game/GuessPanel.tsx';
import { HitSection } from '../../client/src/routes/game/HitSection.tsx';
import { MyRow, OtherRows, TurnRow } from '../../client/src/routes/game/table/Rows.tsx';
import { TableDnd } from '../../client/src/routes/game/table/TableDnd.tsx';
import { gapLabel, openTable, rowEntries, rowFocus, takersOf } from '../../client/src/routes/game/table/table-logic.ts';
import { i18next } from '../../client/src/i18n.ts';
import { useGame } from '../../client/src/stores/game.ts';
import { useSettings } from '../../client/src/stores/settings.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import type { GamePayload } from '../../shared/protocol/game.ts';
import { game, hit, ids, player, users } from './game-fixtures.ts';
import { renderApp } from './render.tsx';

const sent: { type: string; payload: unknown }[] = [];

beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ user: users.ana, ready: true });
  useGame.getState().reset('AbCd1234');
  sent.length = 0;
  useGame.getState().setSender((type, payload) => sent.push({ type, payload }));
  useGame.getState().setStatus('connected');
  useSettings.setState({ choicesAsList: false });
});
afterEach(() => {
  useGame.getState().reset(null);
});

const show = (g: GamePayload): void => {
  act(() => useGame.setState({ game: g }));
};
const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});

/** The screen's table as GameScreen lays it out: the card and the turn row in the drag context, then the panel and the rows. */
function Table() {
  return (
    <>
      <TableDnd>
        <HitSection />
        <TurnRow />
      </TableDnd>
      <GuessPanel />
      <MyRow />
      <OtherRows />
    </>
  );
}

const gaps = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-gap]')];
const gap = (id: number): HTMLElement => document.querySelector<HTMLElement>(`[data-gap="${id}"]`) as HTMLElement;
const radio = (name: string): HTMLInputElement => screen.getByRole('radio', { name }) as HTMLInputElement;

describe('table logic', () => {
  it('lays a timeline out in year order with the engine\'s slots between distinct years', () => {
    const hits = [hit(1990), hit(1975, 'B'), hit(1975, 'A'), hit(1988)];
    const entries = rowEntries(hits);
    expect(entries.map((e) => [e.hit.year, e.hit.title, e.before?.id ?? null, e.after?.id ?? null])).toEqual([
      [1975, 'A', 1, null],
      // two cards of one year: no gap between them
      [1975, 'B', null, null],
      [1988, 'Song 1988', 2, null],
      [1990, 'Song 1990', 3, 4],
    ]);
    expect(entries.map((e) => e.before && [e.before.from_year, e.before.to_year])).toEqual([[0, 1975], null, [1975, 1988], [1988, 1990]]);
    expect(rowEntries([])).toEqual([]);
  });

  it('labels gaps short, names the takers (turn player first), says what the open table waits for', () => {
    expect([gapLabel({ id: 1, from_year: 0, to_year: 1956 }, t), gapLabel({ id: 2, from_year: 1956, to_year: 1967 }, t), gapLabel({ id: 3, from_year: 1967, to_year: 0 }, t)]).toEqual([
      'before 1956',
      '1956–1967',
      'after 1967',
    ]);
    const ana = player('ana', { years: [1975], turn_player: true });
    const slot = ana.slots[1]!;
    expect(takersOf([player('cleo', { guess: slot }), { ...ana, guess: slot }, player('ben')], slot).map((p) => p.name)).toEqual(['Ana', 'Cleo']);
    expect(openTable([player('ana', { creator: true }), player('ben')])).toEqual({ count: 2, free: 8, enough: true, creator: 'Ana' });
    // the row scrolls to the focused gap, else the chosen one, else the newest card (acquisition order)
    const ben = player('ben', { years: [2001, 1960] });
    expect(rowFocus(null, undefined, ben)).toEqual({ card: ben.hits[1]!.id });
    expect(rowFocus(2, undefined, ben)).toEqual({ gap: 2 });
    expect(rowFocus(2, 3, ben)).toEqual({ gap: 3 });
  });
});

describe('the turn row and the radios are one control', () => {
  it('a tap on a gap chooses its slot: the radio is checked and "Place it here" sends it', async () => {
    show(game([player('ana', { years: [1975, 1988], turn_player: true, state: 'Guessing' }), player('ben', { years: [2001] })], { state: 'Guessing' }));
    renderApp(<Table />);
    // the row: the cards in year order, each readable; the gaps are pointer targets hidden from screen readers
    const row = screen.getByRole('list', { name: 'Your timeline' });
    expect(within(row).getAllByRole('img').map((card) => card.getAttribute('aria-label'))).toEqual(['1975: Song 1975 by Artist 1975', '1988: Song 1988 by Artist 1988']);
    expect(gaps().map((g) => g.dataset.gap)).toEqual(['1', '2', '3']);
    expect(gaps().every((g) => g.getAttribute('aria-hidden') === 'true' && !g.matches('button, [tabindex]'))).toBe(true);
    const place = screen.getByRole('button', { name: 'Place it here' }) as HTMLButtonElement;
    expect(place.disabled).toBe(true);
    fireEvent.click(gap(2));
    await waitFor(() => expect(radio('between 1975 and 1988').checked).toBe(true));
    expect(gap(2).dataset.chosen).toBe('true');
    expect(place.disabled).toBe(false);
    // and the other way: a radio chosen with the keyboard marks its gap
    fireEvent.click(radio('after 1988'));
    await waitFor(() => expect(gap(3).dataset.chosen).toBe('true'));
    expect(gap(2).dataset.chosen).toBeUndefined();
    fireEvent.click(place);
    expect(sent).toEqual([{ type: 'guess', payload: { slot: 3 } }]);
  });

  it('the radio with the keyboard focus shows its ring on its gap; the list is visually hidden unless the setting asks for it', async () => {
    show(game([player('ana', { years: [1975, 1988], turn_player: true, state: 'Guessing' }), player('ben')], { state: 'Guessing' }));
    const view = renderApp(<Table />);
    const listBox = (): HTMLElement => screen.getByRole('radiogroup').parentElement as HTMLElement;
    expect(getComputedStyle(listBox()).position).toBe('absolute');
    expect(getComputedStyle(listBox()).width).toBe('1px');
    act(() => radio('before 1975').focus());
    await waitFor(() => expect(gap(1).dataset.focused).toBe('true'));
    act(() => radio('before 1975').blur());
    await waitFor(() => expect(gap(1).dataset.focused).toBeUndefined());
    view.unmount();
    act(() => useSettings.getState().setChoicesAsList(true));
    renderApp(<Table />);
    expect(getComputedStyle(listBox()).position).not.toBe('absolute');
    expect(localStorage.getItem('choicesAsList')).toBe('true');
  });

  it('a taken gap shows who took it and cannot be chosen', async () => {
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    const ana = player('ana', { years: [1975, 1988], turn_player: true });
    show(game([{ ...ana, guess: ana.slots[1]! }, player('ben', { state: 'Intercepting', years: [2001] })], { state: 'Intercepting' }));
    renderApp(<Table />);
    expect(gap(2).dataset.taken).toBe('true');
    expect(gap(2).textContent).toContain('Ana');
    fireEvent.click(gap(2));
    expect(useGame.getState().choice).toBeNull();
    expect(radio('between 1975 and 1988 (taken by Ana)').disabled).toBe(true);
    // one's own cards stay on screen while it is someone else's turn
    expect(screen.getByRole('list', { name: 'Your timeline' }).textContent).toContain('2001');
  });

  it('Intercepting: nothing is sent by a submit with no choice; "Don\'t intercept" declines at once', async () => {
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    const ana = player('ana', { years: [1975, 1988], turn_player: true });
    show(game([{ ...ana, guess: ana.slots[0]! }, player('ben', { state: 'Intercepting', years: [2001] })], { state: 'Intercepting' }));
    renderApp(<Table />);
    expect((screen.getByRole('button', { name: 'Intercept here' }) as HTMLButtonElement).disabled).toBe(true);
    act(() => announcer.clear());
    act(() => actions.submitGuess());
    expect(sent).toEqual([]);
    expect(announcer.getSnapshot().assertive.map((a) => a.text)).toEqual(['Select a slot, or “Don’t intercept”, first.']);
    fireEvent.click(gap(3));
    fireEvent.click(screen.getByRole('button', { name: 'Intercept here' }));
    expect(sent).toEqual([{ type: 'guess', payload: { slot: 3 } }]);
    sent.length = 0;
    fireEvent.click(screen.getByRole('button', { name: "Don't intercept" }));
    expect(sent).toEqual([{ type: 'guess', payload: { slot: null } }]);
  });

  it('a spectator sees the turn row with the chosen gap marked, and no gap to choose', () => {
    useSession.setState({ user: { ...users.ana, id: ids.cleo, name: 'Cleo' } });
    const ana = player('ana', { years: [1975], turn_player: true });
    show(game([{ ...ana, guess: ana.slots[1]! }, player('ben', { state: 'Intercepting' })], { state: 'Intercepting' }));
    renderApp(<Table />);
    expect(screen.getByRole('list', { name: "Ana's timeline" })).toBeTruthy();
    expect(gap(2).dataset.taken).toBe('true');
    fireEvent.click(gap(1));
    expect(useGame.getState().choice).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    // the others' rows open on a tap
    const ben = screen.getByRole('button', { name: /^Ben/ });
    const region = document.getElementById(ben.getAttribute('aria-controls') ?? '') as HTMLElement;
    const was = ben.getAttribute('aria-expanded');
    fireEvent.click(ben);
    expect(ben.getAttribute('aria-expanded')).toBe(was === 'true' ? 'false' : 'true');
    expect(region.hidden).toBe(was === 'true');
  });
});

describe('claiming asks first', () => {
  it('Claim opens "Take a card for 3 tokens?": No sends nothing, yes claims', async () => {
    show(game([player('ana', { years: [1975], turn_player: true, state: 'Guessing', tokens: 3 }), player('ben')], { state: 'Guessing', clue_mode: 'card', clue: { title: 'T', artist: 'A', belongs_to: '' } }));
    renderApp(<Table />);
    fireEvent.click(screen.getByRole('button', { name: 'Claim a hit (3 tokens)' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Take a card for 3 tokens?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sent).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Claim a hit (3 tokens)' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Claim for 3 tokens' }));
    expect(sent).toEqual([{ type: 'claim', payload: {} }]);
  });
});

describe('skip and claim beside the card', () => {
  it('are there, with their cost, for the turn player only (not as disabled buttons on everybody else\'s phone)', () => {
    const g = game([player('ana', { years: [1975], turn_player: true, state: 'Guessing', tokens: 1 }), player('ben', { years: [1980], tokens: 5 })], { state: 'Guessing' });
    show(g);
    const view = renderApp(<Table />);
    expect((screen.getByRole('button', { name: 'Skip hit (1 token)' }) as HTMLButtonElement).disabled).toBe(false);
    // one token: claiming is shown, and off
    expect((screen.getByRole('button', { name: 'Claim a hit (3 tokens)' }) as HTMLButtonElement).disabled).toBe(true);
    view.unmount();
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    renderApp(<Table />);
    expect(screen.queryByRole('button', { name: 'Skip hit (1 token)' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Claim a hit (3 tokens)' })).toBeNull();
  });
});

describe('the open table', () => {
  it('says who it waits for and how many more can join', () => {
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    show(game([player('ana', { creator: true }), player('ben')]));
    const view = renderApp(<Table />);
    expect(screen.getByText('Waiting for Ana to start — 2 players here, 8 more can join.')).toBeTruthy();
    view.unmount();
    useSession.setState({ user: users.ana });
    show(game([player('ana', { creator: true })]));
    renderApp(<Table />);
    expect(screen.getByText('Start the game when everybody is here — 1 player here, 9 more can join.')).toBeTruthy();
    expect(screen.getByText('A game needs at least 2 players: invite someone with the link.')).toBeTruthy();
  });
});
