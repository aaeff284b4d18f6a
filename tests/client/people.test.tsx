import { ChakraProvider } from '@chakra-ui/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useCallback, useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { announcer, GATHER_MS } from '../../client/src/a11y/announcer.ts';
import { followGameNews } from '../../client/src/a11y/game-news.ts';
import { onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { RenameDialog } from '../../client/src/components/RenameDialog.tsx';
import { UserMenu } from '../../client/src/components/UserMenu.tsx';
import { usePageTitle } from '../../client/src/components/page-title.ts';
import { applyLanguage, loadNamespace } from '../../client/src/i18n.ts';
import { AddPlayerDialog } from '../../client/src/routes/game/AddPlayerDialog.tsx';
import { gameHeadline, gameTitle } from '../../client/src/routes/game/headline.ts';
import { JoinDialog, useAskGuestToJoin } from '../../client/src/routes/game/JoinDialog.tsx';
import { useAskWhoIsPlaying, WhoIsPlayingDialog } from '../../client/src/routes/game/WhoIsPlayingDialog.tsx';
import { useGame } from '../../client/src/stores/game.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { useSettings } from '../../client/src/stores/settings.ts';
import { useUi } from '../../client/src/stores/ui.ts';
import { system } from '../../client/src/theme.ts';
import type { GamePayload, GameUpdate } from '../../shared/protocol/game.ts';
import { roomEvent, type RoomEvent } from '../../shared/protocol/room.ts';
import { game, hit, ids, player, roomJson, users } from './game-fixtures.ts';
import { json, renderApp } from './render.tsx';

/**
 * People, not ids (issue 26 §3) on the client: the game's state in words, the
 * join dialog (a guest's name and everybody's emoji), "Who is playing?" for a
 * Local game's host, the emoji of added seats, a guest's rename from the user
 * menu, and what is said when a player's name changes.
 */

const sent: { type: string; payload: unknown }[] = [];
const guest = { ...users.ana, id: ids.ana, name: 'gladly-brave-otter', virtual: true };
const account = { ...users.ana, id: ids.ana, name: 'Ana', virtual: false };

beforeAll(async () => {
  await loadNamespace('people');
});

beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ user: guest, ready: true });
  useSettings.setState({ welcome: true });
  useGame.getState().reset('AbCd1234');
  sent.length = 0;
  useGame.getState().setSender((type, payload) => sent.push({ type, payload }));
  useGame.getState().setStatus('connected');
});
afterEach(() => {
  useGame.getState().reset(null);
  vi.unstubAllGlobals();
});

const show = (g: GamePayload): void => {
  act(() => useGame.setState({ game: g }));
};

/** The reply of PATCH /api/users/me: the caller with his new name. */
const renamed = (name: string) => json({ ...guest, name });

// ---------------------------------------------------------------------------

describe("the game's state in words (heading and document title)", () => {
  const ana = (facts = {}) => player('ana', { creator: true, ...facts });
  const ben = (facts = {}) => player('ben', facts);
  const cleo = (facts = {}) => player('cleo', facts);
  const words = (g: GamePayload, me: string | undefined = ids.ana) => [gameHeadline(g, me), gameTitle(g, me)];

  it('Open: who starts it ("you" at the creator\'s own screen, Local too), or how the last round ended', () => {
    expect(words(game([ana(), ben()]))).toEqual(['Start when everyone is here', 'Start when everyone is here']);
    expect(words(game([ana(), ben()]), ids.ben)).toEqual(['Waiting for Ana to start', 'Waiting for Ana to start']);
    expect(gameHeadline(game([ana(), ben()]), undefined)).toBe('Waiting for Ana to start');
    expect(words(game([ana(), ben({ virtual: true })], { mode: 'Local' }))[0]).toBe('Start when everyone is here');
    const over = (winner: ReturnType<typeof player> | null, mode: GamePayload['mode'] = 'Public') => game([ana(), ben()], { mode, winner, standings: [ana(), ben()] });
    expect(words(over(ben()))).toEqual(['Game over: Ben wins', 'Game over: Ben wins']);
    expect(words(over(ana()))[0]).toBe('Game over: you win!');
    expect(words(over(ana()), ids.ben)[0]).toBe('Game over: Ana wins');
    // a Local game's screen is everybody's: names, not "you"
    expect(words(over(ana(), 'Local'))[0]).toBe('Game over: Ana wins');
    expect(words(over(null))[0]).toBe('Game over: nobody wins');
  });

  it('running: the heading names the phase and who is waited on; the title only whose turn it is, the same through the turn', () => {
    const guessing = game([ana({ turn_player: true, state: 'Guessing' }), ben(), cleo()], { state: 'Guessing' });
    expect(words(guessing)).toEqual(['Your turn', 'Your turn']);
    expect(words(guessing, ids.ben)).toEqual(["Ana's turn", "Ana's turn"]);
    const intercepting = game([ana({ turn_player: true }), ben({ state: 'Intercepting' }), cleo({ state: 'Intercepting' })], { state: 'Intercepting' });
    expect(words(intercepting)).toEqual(['Ben and Cleo may intercept', 'Your turn']);
    expect(words(intercepting, ids.ben)).toEqual(["You may intercept Ana's guess", "Ana's turn"]);
    expect(words(game([ana({ turn_player: true }), ben({ state: 'Intercepting' }), cleo()], { state: 'Intercepting' }), ids.cleo)[0]).toBe('Ben may intercept');
    const confirming = game([ana({ turn_player: true }), ben({ state: 'Confirming' }), cleo()], { state: 'Confirming' });
    expect(words(confirming, ids.cleo)).toEqual(["Ben checks Ana's answer", "Ana's turn"]);
    expect(words(confirming, ids.ben)).toEqual(["You check Ana's answer", "Ana's turn"]);
    expect(words(confirming)).toEqual(['Ben checks your answer', 'Your turn']);
    // a year dispute pauses the game: the table is waited on, the turn stays (docs/rules.md#disputes)
    const disputed = { ...confirming, dispute: { hit: hit(1975), year: 1974, by: ids.ben, votes: [], until: null, outcome: null, voters: 3 } };
    expect(words(disputed)).toEqual(['The table votes', 'Your turn']);
    expect(words({ ...disputed, dispute: { ...disputed.dispute, outcome: 'kept' as const } })[0]).toBe('Ben checks your answer');
  });

  it('Local: every seat by its name; the creator checks every answer at the one screen', () => {
    const local = (state: GamePayload['state'], facts: Partial<GamePayload> = {}) =>
      game([ana({ turn_player: true, state: state === 'Confirming' ? 'Confirming' : 'Waiting' }), ben({ virtual: true, state: state === 'Intercepting' ? 'Intercepting' : 'Waiting' })], { state, mode: 'Local', ...facts });
    expect(words(local('Guessing'))).toEqual(["Ana's turn", "Ana's turn"]);
    expect(words(local('Intercepting'))[0]).toBe('Ben may intercept');
    expect(words(local('Confirming'))[0]).toBe("Checking Ana's answer");
  });

  it('says it in German', async () => {
    await act(() => applyLanguage('de'));
    try {
      const g = game([ana({ turn_player: true }), ben({ state: 'Intercepting' }), cleo({ state: 'Intercepting' })], { state: 'Intercepting' });
      expect(words(g, ids.ben)).toEqual(['Du darfst den Tipp von Ana abfangen', 'Ana ist dran']);
      expect(words(g)).toEqual(['Ben und Cleo dürfen abfangen', 'Du bist dran']);
      expect(words(game([ana(), ben()]), ids.ben)[0]).toBe('Warten, bis Ana startet');
    } finally {
      await act(() => applyLanguage('en'));
    }
  });

  it('the title is announced when the page is entered, not each time it changes (the turn is announced by the game)', () => {
    vi.useFakeTimers();
    try {
      function Titled({ title }: { title: string }) {
        usePageTitle(title, { announce: 'once' });
        return null;
      }
      // (another page first: the first page of a visit is never announced)
      function Other() {
        usePageTitle('Game lobby');
        return null;
      }
      const first = render(<Other />);
      first.unmount();
      announcer.clear();
      const view = render(<Titled title="Waiting for Ana to start" />);
      act(() => vi.advanceTimersByTime(GATHER_MS));
      expect(announcer.getSnapshot().polite.map((m) => m.text)).toEqual(['Waiting for Ana to start']);
      announcer.clear();
      view.rerender(<Titled title="Your turn" />);
      act(() => vi.advanceTimersByTime(GATHER_MS));
      expect(document.title).toBe('Your turn – Hitline');
      expect(announcer.getSnapshot().polite).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

// ---------------------------------------------------------------------------

describe('the join dialog', () => {
  function Harness() {
    const [open, setOpen] = useState(false);
    const ask = useCallback(() => setOpen(true), []);
    useAskGuestToJoin(ask);
    return <JoinDialog open={open} onClose={() => setOpen(false)} />;
  }
  const dialog = () => screen.queryByRole('dialog');
  const joinButton = () => within(dialog()!).getByRole('button', { name: 'Join' });
  const outsider = () => game([player('ben', { creator: true })]);

  it('asks a guest who came by the link what to call him, his name prefilled: one tap on Join accepts it, with his initials', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    show(outsider());
    renderApp(<Harness />);
    const d = await screen.findByRole('dialog', { name: 'What should we call you?' });
    expect((within(d).getByRole('textbox', { name: /Your name/ }) as HTMLInputElement).value).toBe('gladly-brave-otter');
    // the emoji: radio buttons of one group, under their legend, the initials first and chosen
    const group = within(d).getByRole('group', { name: 'Your emoji' });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios).toHaveLength(17);
    expect(new Set(radios.map((r) => r.name)).size).toBe(1);
    expect(radios[0]).toMatchObject({ checked: true, value: '' });
    expect(radios[0]!.getAttribute('aria-label')).toBe('Initials');
    expect(radios[0]!.closest('label')?.textContent).toBe('GO');
    expect(radios.map((r) => r.getAttribute('aria-label'))).toContain('Fox');
    fireEvent.click(joinButton());
    await waitFor(() => expect(dialog()).toBeNull());
    expect(sent).toEqual([{ type: 'join', payload: { avatar: '' } }]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a new name renames the guest first, then he joins with the emoji he chose', async () => {
    const fetch = vi.fn(async () => renamed('Zoë'));
    vi.stubGlobal('fetch', fetch);
    show(outsider());
    renderApp(<Harness />);
    const d = await screen.findByRole('dialog', { name: 'What should we call you?' });
    fireEvent.change(within(d).getByRole('textbox'), { target: { value: '  Zoë ' } });
    fireEvent.click(within(d).getByRole('radio', { name: 'Fox' }));
    expect(within(d).getByRole('radio', { name: 'Initials' }).closest('label')?.textContent).toBe('Z');
    fireEvent.click(joinButton());
    await waitFor(() => expect(sent).toEqual([{ type: 'join', payload: { avatar: '🦊' } }]));
    expect(fetch).toHaveBeenCalledWith('/api/users/me', expect.objectContaining({ method: 'PATCH', body: JSON.stringify({ name: 'Zoë' }) }));
    await waitFor(() => expect(dialog()).toBeNull());
  });

  it('a name an account has, or a name the rules refuse, is said on the field; nothing is sent', async () => {
    const fetch = vi.fn(async () => json({ type: 'error', code: 'username_look_alike', message: 'username looks the same as one already in use' }, 409));
    vi.stubGlobal('fetch', fetch);
    show(outsider());
    renderApp(<Harness />);
    const d = await screen.findByRole('dialog', { name: 'What should we call you?' });
    const field = within(d).getByRole('textbox');
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.click(joinButton());
    expect(await within(d).findByText('Enter a name.')).toBeTruthy();
    fireEvent.change(field, { target: { value: '\u0410na' } });
    expect(await within(d).findByText(/mixes Latin, Greek and Cyrillic letters/)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(field, { target: { value: '0scar' } });
    fireEvent.click(joinButton());
    expect(await within(d).findByText("This name looks like an account's name. Choose another one.")).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    expect(sent).toEqual([]);
    expect(dialog()).toBeTruthy();
  });

  it('an account joins under its name and chooses an emoji only', async () => {
    useSession.setState({ user: account });
    show(outsider());
    function Open() {
      return <JoinDialog open onClose={() => undefined} />;
    }
    renderApp(<Open />);
    const d = await screen.findByRole('dialog', { name: 'Join as Ana' });
    expect(within(d).queryByRole('textbox')).toBeNull();
    expect(within(d).getByText('You play under your account name, Ana.')).toBeTruthy();
    fireEvent.click(within(d).getByRole('radio', { name: 'Rocket' }));
    fireEvent.click(within(d).getByRole('button', { name: 'Join' }));
    expect(sent).toEqual([{ type: 'join', payload: { avatar: '🚀' } }]);
  });

  it('asks by itself only a guest who is not seated, at an open game with room, after the welcome', async () => {
    const cases: [string, () => void, boolean][] = [
      ['an account', () => useSession.setState({ user: account }), false],
      ['a seated guest', () => show(game([player('ben', { creator: true }), player('ana')])), false],
      ['a running game', () => show(game([player('ben', { creator: true, turn_player: true })], { state: 'Guessing' })), false],
      ['a Local game', () => show(game([player('ben', { creator: true })], { mode: 'Local' })), false],
      ['while the welcome is open', () => useSettings.setState({ welcome: false }), false],
    ];
    for (const [what, arrange, asked] of cases) {
      show(outsider());
      useSession.setState({ user: guest });
      useSettings.setState({ welcome: true });
      arrange();
      const view = renderApp(<Harness />);
      await act(async () => undefined);
      expect(!!dialog(), what).toBe(asked);
      view.unmount();
    }
    // the welcome dismissed: now it asks
    show(outsider());
    useSettings.setState({ welcome: false });
    renderApp(<Harness />);
    await act(async () => undefined);
    expect(dialog()).toBeNull();
    act(() => useSettings.setState({ welcome: true }));
    expect(await screen.findByRole('dialog', { name: 'What should we call you?' })).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------

describe('a Local game: who is playing, then every seat with its name and emoji', () => {
  function Harness() {
    const [who, setWho] = useState(false);
    const [add, setAdd] = useState(false);
    const ask = useCallback(() => setWho(true), []);
    useAskWhoIsPlaying(ask);
    return (
      <>
        <WhoIsPlayingDialog open={who} onClose={() => setWho(false)} onNext={() => setAdd(true)} />
        <AddPlayerDialog open={add} onClose={() => setAdd(false)} />
      </>
    );
  }
  const renderAt = (state: unknown) =>
    render(
      <ChakraProvider value={system}>
        <MemoryRouter initialEntries={[{ pathname: '/game/AbCd1234', state }]}>
          <Harness />
        </MemoryRouter>
      </ChakraProvider>,
    );
  const host = () => game([player('ana', { creator: true })], { mode: 'Local' });

  it('the lobby\'s new Local game asks its host first (his own name, renamed if he gives another), then opens "Add a player"', async () => {
    const fetch = vi.fn(async () => renamed('Ana'));
    vi.stubGlobal('fetch', fetch);
    show(host());
    renderAt({ created: true });
    const d = await screen.findByRole('dialog', { name: 'Who is playing?' });
    const field = within(d).getByRole('textbox', { name: /Your name/ }) as HTMLInputElement;
    expect(field.value).toBe('gladly-brave-otter');
    fireEvent.change(field, { target: { value: 'Ana' } });
    fireEvent.click(within(d).getByRole('radio', { name: 'Guitar' }));
    fireEvent.click(within(d).getByRole('button', { name: 'Next: add a player' }));
    const add = await screen.findByRole('dialog', { name: 'Add a player' });
    expect(fetch).toHaveBeenCalledWith('/api/users/me', expect.objectContaining({ method: 'PATCH', body: JSON.stringify({ name: 'Ana' }) }));
    expect(sent).toEqual([{ type: 'avatar', payload: { avatar: '🎸' } }]);
    // each seat: its name and emoji; "Add, then another" keeps the dialog for the next one
    fireEvent.change(within(add).getByRole('textbox'), { target: { value: 'Ben' } });
    fireEvent.click(within(add).getByRole('radio', { name: 'Panda' }));
    fireEvent.click(within(add).getByRole('button', { name: 'Add, then another' }));
    expect(sent.at(-1)).toEqual({ type: 'join_local', payload: { name: 'Ben', avatar: '🐼' } });
    expect((within(add).getByRole('textbox') as HTMLInputElement).value).toBe('');
    expect((within(add).getByRole('radio', { name: 'Initials' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(add).getByRole('textbox'), { target: { value: 'Cleo' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add player' }));
    expect(sent.at(-1)).toEqual({ type: 'join_local', payload: { name: 'Cleo', avatar: '' } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks nobody on a game not just created (a reload, a link), nor once seats were added; an account keeps its name', async () => {
    show(host());
    const view = renderAt(null);
    await act(async () => undefined);
    expect(screen.queryByRole('dialog')).toBeNull();
    view.unmount();
    show(game([player('ana', { creator: true }), player('ben', { virtual: true })], { mode: 'Local' }));
    const seated = renderAt({ created: true });
    await act(async () => undefined);
    expect(screen.queryByRole('dialog')).toBeNull();
    seated.unmount();
    useSession.setState({ user: account });
    show(host());
    renderAt({ created: true });
    const d = await screen.findByRole('dialog', { name: 'Who is playing?' });
    expect(within(d).queryByRole('textbox')).toBeNull();
    expect(within(d).getByText('You play under your account name, Ana.')).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------

describe("a guest's name from the user menu", () => {
  it('a guest finds "Change name" first in the user menu', async () => {
    renderApp(<UserMenu />);
    const button = screen.getByRole('button', { name: 'Known as gladly-brave-otter' });
    // as with the keyboard: Enter opens the menu with its first item highlighted, Enter chooses it
    button.focus();
    await act(async () => fireEvent.keyDown(button, { key: 'Enter', code: 'Enter' }));
    await screen.findByRole('menuitem', { name: 'Change name' });
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Change name', 'Log in', 'Register']);
    await act(async () => new Promise((r) => setTimeout(r, 20)));
    await act(async () => fireEvent.keyDown(screen.getByRole('menu'), { key: 'Enter', code: 'Enter' }));
    await waitFor(() => expect(useUi.getState().dialog).toBe('rename'));
    act(() => useUi.getState().closeDialog());
  });

  it('an account\'s menu has no rename', async () => {
    useSession.setState({ user: account });
    renderApp(<UserMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Logged in as Ana' }));
    await screen.findByRole('menuitem', { name: 'Log out' });
    expect(screen.queryByRole('menuitem', { name: 'Change name' })).toBeNull();
  });

  it('the rename dialog saves the new name and says so; a refused one stays on the field', async () => {
    const heard: Notification[] = [];
    const off = onNotification((n) => heard.push(n));
    const answers = [json({ type: 'error', code: 'username_taken', message: 'username is already in use' }, 409), renamed('Jo')];
    const fetch = vi.fn(async () => answers.shift()!);
    vi.stubGlobal('fetch', fetch);
    act(() => useUi.getState().openDialog('rename'));
    renderApp(<RenameDialog />);
    const d = await screen.findByRole('dialog', { name: 'Change your name' });
    const field = within(d).getByRole('textbox') as HTMLInputElement;
    expect(field.value).toBe('gladly-brave-otter');
    fireEvent.change(field, { target: { value: 'Ana' } });
    fireEvent.click(within(d).getByRole('button', { name: 'Save' }));
    expect(await within(d).findByText('An account has this name. Choose another one.')).toBeTruthy();
    expect(useUi.getState().dialog).toBe('rename');
    fireEvent.change(field, { target: { value: 'Jo' } });
    fireEvent.click(within(d).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useUi.getState().dialog).toBeNull());
    expect(fetch).toHaveBeenLastCalledWith('/api/users/me', expect.objectContaining({ method: 'PATCH', body: JSON.stringify({ name: 'Jo' }) }));
    expect(heard.map((n) => n.text)).toContain('You are now called Jo.');
    off();
  });
});

// ---------------------------------------------------------------------------

describe('what the table says about people', () => {
  it('a player who took another name is announced by both names; one\'s own new name is not (he chose it)', () => {
    const heard: Notification[] = [];
    const off = onNotification((n) => heard.push(n));
    const stopNews = followGameNews();
    let seq = 1;
    const ev = (event: RoomEvent['event'], data: GameUpdate): RoomEvent => roomEvent(++seq, { event, data });
    const ana = player('ana', { creator: true });
    const ben = player('ben');
    useGame.getState().applyState(roomJson(game([ana, ben]), seq));
    const benNow = { ...ben, name: 'Benedikt' };
    useGame.getState().applyState(roomJson(game([ana, benNow]), seq));
    useGame.getState().applyEvent(ev('change_state', { state: 'Open', players: [ana, benNow] }));
    const anaNow = { ...ana, name: 'Anna' };
    useGame.getState().applyState(roomJson(game([anaNow, benNow]), seq));
    useGame.getState().applyEvent(ev('change_state', { state: 'Open', players: [anaNow, benNow] }));
    expect(heard.map((n) => n.text)).toEqual(['Ben is now called Benedikt.']);
    off();
    stopNews();
  });
});
