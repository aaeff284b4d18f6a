import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DisputeDialog } from '../../client/src/routes/game/DisputeDialog.tsx';
import { DisputeButton } from '../../client/src/routes/game/DisputePanel.tsx';
import { GameSettingsDialog } from '../../client/src/routes/game/GameSettingsDialog.tsx';
import { HitSection } from '../../client/src/routes/game/HitSection.tsx';
import * as actions from '../../client/src/routes/game/game-actions.ts';
import { useGameShortcuts } from '../../client/src/routes/game/use-game-shortcuts.ts';
import { proposedYear } from '../../client/src/routes/game/dispute-logic.ts';
import { useDisputeDialog } from '../../client/src/routes/game/dispute-store.ts';
import { useCatalogue } from '../../client/src/stores/catalogue.ts';
import { useGame } from '../../client/src/stores/game.ts';
import { useNotifications } from '../../client/src/stores/notifications.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { EvidenceSchema, type Evidence } from '../../shared/protocol/reports.ts';
import type { DisputePayload, GamePayload, PlayerPayload } from '../../shared/protocol/game.ts';
import { game, hit, ids, player, users, uuid } from './game-fixtures.ts';
import { json, renderApp } from './render.tsx';

/**
 * The year dispute at the table (docs/product.md#disputes): who sees "Wrong
 * year?" when, the dialog with the evidence and the proposed year, the vote
 * for each seat this device speaks for, the decision's moment, the settings.
 */

const sent: { type: string; payload: unknown }[] = [];

beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ user: users.ana, ready: true });
  useGame.getState().reset('AbCd1234');
  sent.length = 0;
  useGame.getState().setSender((type, payload) => sent.push({ type, payload }));
  useGame.getState().setStatus('connected');
  useDisputeDialog.setState({ open: false, seat: null });
  useNotifications.setState({ toasts: [] } as never);
});
afterEach(() => {
  useGame.getState().reset(null);
  vi.unstubAllGlobals();
});

/** A screen with the game's shortcuts (every game screen has them). */
function Keys() {
  useGameShortcuts(true, { askStop: () => undefined });
  return null;
}

const show = (g: GamePayload): void => {
  act(() => useGame.setState({ game: g }));
};

const card = hit(1975, 'Bohemian Rhapsody');
const until = Date.now() + 60_000;
const ana = player('ana', { creator: true, years: [1980] });
const ben = player('ben', { years: [1990], turn_player: true, state: 'Confirming' });
/** Ben's card was revealed and may be disputed. */
const revealed = (facts: Partial<GamePayload> = {}, players: PlayerPayload[] = [ana, ben]): GamePayload =>
  game(players, { state: 'Confirming', hit: card, draws: 1, disputable: { hit: card, until }, ...facts });
const dispute = (facts: Partial<DisputePayload> = {}): DisputePayload => ({ hit: card, year: 1969, by: ids.ben, votes: [{ player: ids.ben, take: true }], until, outcome: null, voters: 2, ...facts });

const evidence: Evidence = EvidenceSchema.parse({
  hit: card,
  year: 1975,
  changes: [{ at: '2026-01-02T10:00:00.000Z', from: null, to: 1975, by: 'curator', reason: 'import' }],
  reports: [],
  sources: [
    { source: 'musicbrainz', label: 'MusicBrainz', year: 1974, date: '1974-11-01', detail: 'earliest release', url: 'https://musicbrainz.org/recording/x', found_at: '2026-11-29T03:00:00.000Z' },
    { source: 'other', label: 'Other', year: 1975, date: '1975', detail: '', url: null, found_at: '2026-11-29T03:00:00.000Z' },
  ],
  missing: [{ source: 'wikidata', label: 'Wikidata', state: 'pending' }],
});
/** The server's evidence endpoint as the contract describes it; records what was asked. */
const asked: string[] = [];
const answerEvidence = (body: Evidence): void => {
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return json(body);
    }),
  );
};

describe('"Wrong year?" on the revealed card', () => {
  const button = (): HTMLElement | null => screen.queryByRole('button', { name: 'Wrong year?' });

  it('shows for a seated player while the card may be disputed, with the disputes left', () => {
    show(revealed({ disputes_used: { [ids.ana]: 1 } }));
    renderApp(<DisputeButton />);
    expect(button()?.getAttribute('aria-keyshortcuts')).toBe('Alt+Shift+D');
    expect(screen.getByText('1 of 2 left')).toBeTruthy();
  });

  it.each([
    ['no card to dispute (the window is over)', revealed({ disputable: null })],
    ['no disputes left', revealed({ disputes_used: { [ids.ana]: 2 } })],
    ['disputes off', revealed({ disputes: 0 })],
    ['a vote is open', revealed({ dispute: dispute() })],
  ])('is not there when %s', (_why, g) => {
    show(g);
    renderApp(<DisputeButton />);
    expect(button()).toBeNull();
  });

  it('is not there for a viewer without a seat (a TV whose user does not play)', () => {
    show(revealed({}, [player('cleo', { creator: true }), ben]));
    renderApp(<DisputeButton />);
    expect(button()).toBeNull();
  });

  it('Alt+Shift+D opens the dialog, or says why not (here: no disputes left)', () => {
    show(revealed());
    renderApp(<Keys />);
    const press = (): void => {
      act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: 'D', code: 'KeyD', altKey: true, shiftKey: true })));
    };
    press();
    expect(useDisputeDialog.getState()).toMatchObject({ open: true, seat: ids.ana });
    act(() => useDisputeDialog.getState().close());
    show(revealed({ disputes_used: { [ids.ana]: 2 } }));
    press();
    expect(useDisputeDialog.getState().open).toBe(false);
    expect(useNotifications.getState().toasts.map((t) => t.title)).toContain('No disputes left in this round.');
  });

  it("a Local game's shared screen disputes for its seats without a phone, the turn player first", () => {
    const local = [player('ana', { creator: true }), player('ben', { virtual: true, turn_player: true, state: 'Confirming' }), player('cleo', { virtual: true, controller: uuid(77) })];
    show(revealed({ mode: 'Local' }, local));
    renderApp(<DisputeButton />);
    fireEvent.click(button()!);
    expect(useDisputeDialog.getState()).toMatchObject({ open: true, seat: ids.ben });
  });
});

describe('the dispute dialog', () => {
  it('shows the evidence and the rule of thumb, proposes the earliest other year, sends the dispute', async () => {
    answerEvidence(evidence);
    show(revealed());
    renderApp(<DisputeDialog />);
    act(() => actions.requestDispute());
    const dialog = await screen.findByRole('dialog', { name: 'Wrong year?' });
    expect(asked[0]).toContain('/api/games/AbCd1234/evidence');
    await within(dialog).findByText(/MusicBrainz: 1974-11-01/);
    expect(within(dialog).getByText('Wikidata is still looking…')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Open at MusicBrainz' }).getAttribute('href')).toBe('https://musicbrainz.org/recording/x');
    expect(within(dialog).getByText(/first release by that artist in its original form/)).toBeTruthy();
    expect(within(dialog).getByText('2 of 2 left')).toBeTruthy();
    const year = within(dialog).getByLabelText(/The right year/) as HTMLInputElement;
    await waitFor(() => expect(year.value).toBe('1974'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dispute' }));
    // a Public game names no seat: the engine takes the sender's
    expect(sent).toEqual([{ type: 'dispute', payload: { year: 1974 } }]);
  });

  it("refuses the card's own year and an empty field, sending nothing", async () => {
    answerEvidence({ ...evidence, sources: [], missing: [] });
    show(revealed());
    renderApp(<DisputeDialog />);
    act(() => actions.requestDispute());
    const dialog = await screen.findByRole('dialog', { name: 'Wrong year?' });
    await within(dialog).findByText('No outside source is configured.');
    const year = within(dialog).getByLabelText(/The right year/) as HTMLInputElement;
    expect(year.value).toBe('');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dispute' }));
    fireEvent.change(year, { target: { value: '1975' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dispute' }));
    expect(within(dialog).getByText('Enter a year other than 1975.')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it("in a Local game names the seat chosen", async () => {
    answerEvidence(evidence);
    const local = [player('ana', { creator: true }), player('ben', { virtual: true, turn_player: true, state: 'Confirming' })];
    show(revealed({ mode: 'Local', disputes_used: { [ids.ben]: 1 } }, local));
    renderApp(<DisputeDialog />);
    act(() => actions.requestDispute());
    const dialog = await screen.findByRole('dialog', { name: 'Wrong year?' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Ana (2 of 2 left)' }));
    await waitFor(() => expect((within(dialog).getByLabelText(/The right year/) as HTMLInputElement).value).toBe('1974'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dispute' }));
    expect(sent).toEqual([{ type: 'dispute', payload: { year: 1974, player: ids.ana } }]);
  });

  it('closes when the card can no longer be disputed (somebody else disputed first), and stays closed for the next card', async () => {
    answerEvidence(evidence);
    show(revealed());
    renderApp(<DisputeDialog />);
    act(() => actions.requestDispute());
    await screen.findByRole('dialog', { name: 'Wrong year?' });
    show(revealed({ disputable: null, dispute: dispute() }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(useDisputeDialog.getState().open).toBe(false);
    show(revealed());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('proposes the earliest source year that differs from the card, else none', () => {
    expect(proposedYear(evidence, 1975)).toBe(1974);
    expect(proposedYear(evidence, 1974)).toBe(1975);
    expect(proposedYear({ sources: [] }, 1975)).toBeNull();
    expect(proposedYear(null, 1975)).toBeNull();
  });
});

describe('the vote', () => {
  it('asks the seated player: keep or take, with what the disputer says, the tally and the time', () => {
    show(revealed({ dispute: dispute(), disputable: null }));
    renderApp(<HitSection />);
    const panel = screen.getByTestId('dispute-panel');
    expect(within(panel).getByText('Ben says 1975 is wrong: 1969?')).toBeTruthy();
    expect(within(panel).getByText(/1 to take, 0 to keep · Waiting for 1 more vote/)).toBeTruthy();
    expect(within(panel).getByText('Ben: take 1969')).toBeTruthy();
    expect(within(panel).getByRole('timer')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Take 1969' }));
    expect(sent).toEqual([{ type: 'vote', payload: { take: true } }]);
  });

  it('once voted, the buttons give way to "Your vote is in."', () => {
    show(revealed({ dispute: dispute({ votes: [{ player: ids.ben, take: true }, { player: ids.ana, take: false }] }), disputable: null }));
    renderApp(<HitSection />);
    expect(screen.queryByRole('button', { name: 'Keep 1975' })).toBeNull();
    expect(screen.getByText('Your vote is in.')).toBeTruthy();
    expect(screen.getByText('Ana: keep 1975')).toBeTruthy();
  });

  it("a Local game's shared screen: one row per seat without a phone that has not voted", () => {
    const local = [
      player('ana', { creator: true }),
      player('ben', { virtual: true, turn_player: true, state: 'Confirming' }),
      player('cleo', { virtual: true }),
      player('dana', { virtual: true, controller: uuid(77) }),
    ];
    show(revealed({ mode: 'Local', dispute: dispute({ voters: 4 }), disputable: null }, local));
    renderApp(<HitSection />);
    const rows = screen.getAllByTestId('vote-row');
    // Ben voted by disputing; Dana votes on her phone
    expect(rows.map((r) => r.dataset.seat)).toEqual(['Ana', 'Cleo']);
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Keep 1975' }));
    expect(sent).toEqual([{ type: 'vote', payload: { take: false, player: ids.cleo } }]);
  });

  it('a phone playing a Local seat votes for that seat only', () => {
    const phone = uuid(77);
    useSession.setState({ user: { ...users.ana, id: phone, name: 'Phone' } });
    const local = [player('ana', { creator: true }), player('ben', { virtual: true, turn_player: true, state: 'Confirming' }), player('dana', { virtual: true, controller: phone })];
    show(revealed({ mode: 'Local', dispute: dispute({ voters: 3 }), disputable: null }, local));
    renderApp(<HitSection />);
    expect(screen.getAllByTestId('vote-row').map((r) => r.dataset.seat)).toEqual(['Dana']);
    fireEvent.click(screen.getByRole('button', { name: 'Take 1969' }));
    expect(sent).toEqual([{ type: 'vote', payload: { take: true, player: ids.dana } }]);
  });

  it('the game is paused: a move (confirm, skip) says so and sends nothing', () => {
    // Ana was asked to confirm Ben's answer when Ben disputed
    show(revealed({ dispute: dispute(), disputable: null }, [{ ...ana, state: 'Confirming' }, { ...ben, state: 'Waiting' }]));
    actions.confirm(true);
    actions.skip();
    expect(sent).toEqual([]);
    expect(useNotifications.getState().toasts.map((t) => t.title)).toContain('The table is voting on a dispute.');
  });

  it('a viewer without a seat sees the vote but has no buttons', () => {
    show(revealed({ dispute: dispute(), disputable: null }, [player('cleo', { creator: true }), ben]));
    renderApp(<HitSection />);
    expect(screen.getByTestId('dispute-panel')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take 1969' })).toBeNull();
  });

  it('after the decision: the moment says where the card went, then play resumes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      show(revealed({ dispute: dispute(), disputable: null }));
      renderApp(<HitSection />);
      const anaWon = { ...ana, hits: [...ana.hits, card] };
      show(revealed({ dispute: dispute({ outcome: 'changed' }), disputable: null }, [anaWon, ben]));
      expect(screen.getByTestId('dispute-result').textContent).toBe('The table took 1969: the card goes to you');
      act(() => vi.advanceTimersByTime(5000));
      expect(screen.queryByTestId('dispute-decision')).toBeNull();
      expect(screen.getByTestId('hit-card')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a screen opened after the decision shows the table as it is (no moment)', () => {
    show(revealed({ dispute: dispute({ outcome: 'kept' }), disputable: null }));
    renderApp(<HitSection />);
    expect(screen.queryByTestId('dispute-decision')).toBeNull();
  });
});

describe('settings', () => {
  beforeEach(() => {
    useCatalogue.setState({ packs: [], packsLoaded: true, packsError: null });
    vi.stubGlobal('fetch', vi.fn(async () => json({ hits: 100, audio: 100, youtube: 0 })));
  });

  it('has "Disputes per player" (0 = off) and "Time to vote" (0 = no limit), saved with the rest', async () => {
    show(game([{ ...ana }, player('ben')]));
    renderApp(<GameSettingsDialog open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Game settings' });
    const disputes = within(dialog).getByLabelText('Disputes per player') as HTMLInputElement;
    const time = within(dialog).getByLabelText('Time to vote (seconds)') as HTMLInputElement;
    expect([disputes.value, time.value]).toEqual(['2', '60']);
    expect(within(dialog).getByText('0 to 10; 0 means no disputes')).toBeTruthy();
    fireEvent.change(disputes, { target: { value: '0' } });
    fireEvent.change(time, { target: { value: '90' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(sent.at(-1)).toMatchObject({ type: 'update', payload: { settings: { disputes: 0, dispute_timeout: 90 } } });
  });
});
