import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginScreen } from '../../client/src/routes/login/LoginScreen.tsx';
import { registerProblems, RegisterScreen } from '../../client/src/routes/register/RegisterScreen.tsx';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { Route, Routes } from 'react-router';
import { onNotification } from '../../client/src/a11y/notify.ts';
import { json, renderApp } from './render.tsx';

const guest = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'kindly-brave-otter',
  virtual: true,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false },
};

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });

beforeEach(() => resetSessionForTests());
afterEach(() => vi.unstubAllGlobals());

/** The notification listeners a test added. */
const listening: (() => void)[] = [];
afterEach(() => listening.splice(0).forEach((off) => off()));

/** The register screen at /register, with the lobby at / ; returns what was announced. */
function renderRegister(): string[] {
  const said: string[] = [];
  listening.push(onNotification((n) => said.push(n.text)));
  renderApp(
    <Routes>
      <Route path="/register" element={<RegisterScreen />} />
      <Route path="/" element={<h1>The lobby</h1>} />
    </Routes>,
    '/register',
  );
  return said;
}

describe('login form', () => {
  it('keeps submit disabled while a field is empty', () => {
    renderApp(<LoginScreen />);
    const submit = screen.getByRole('button', { name: 'Log in' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    type(/^Username/, 'ana');
    expect(submit.disabled).toBe(true);
    type(/^Password/, 'secret-password');
    expect(submit.disabled).toBe(false);
    type(/^Username/, '   ');
    expect(submit.disabled).toBe(true);
  });

  it('shows a failure in a polite live region', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ type: 'error', code: 'incorrect_credentials', message: 'incorrect user credentials' }, 401)));
    renderApp(<LoginScreen />);
    type(/^Username/, 'ana');
    type(/^Password/, 'wrong-password');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const status = await screen.findByText('An error occurred: Incorrect user credentials.');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
  });

  it('clears the server error as soon as a field is edited', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ type: 'error', code: 'incorrect_credentials', message: 'incorrect user credentials' }, 401)));
    renderApp(<LoginScreen />);
    type(/^Username/, 'ana');
    type(/^Password/, 'wrong-password');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('An error occurred: Incorrect user credentials.'));
    type(/^Password/, 'right-password');
    expect(screen.getByRole('status').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('An error occurred: Incorrect user credentials.'));
    type(/^Username/, 'ben');
    expect(screen.getByRole('status').textContent).toBe('');
  });
});

describe('login form under throttling', () => {
  it('says how long to wait when the server answers 429 with Retry-After', async () => {
    const tooMany = (seconds: string) => json({ type: 'error', code: 'rate_limited', message: `too many failed logins for this account; try again in ${seconds} seconds` }, 429, { 'Retry-After': seconds });
    const answers = [tooMany('7'), tooMany('1')];
    vi.stubGlobal('fetch', vi.fn(async () => answers.shift()!));
    renderApp(<LoginScreen />);
    type(/^Username/, 'ana');
    type(/^Password/, 'secret-password');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Too many attempts. Try again in 7 seconds.'));
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Too many attempts. Try again in 1 second.'));
  });
});

describe('register form', () => {
  it('checks emptiness, lengths and the repeated password', () => {
    const ok = { username: 'ana', password: '12345678', repeat: '12345678' };
    expect(registerProblems(ok)).toEqual([]);
    expect(registerProblems({ ...ok, repeat: '' })).toEqual(['empty']);
    expect(registerProblems({ ...ok, repeat: '12345679' })).toEqual(['mismatch']);
    expect(registerProblems({ ...ok, username: 'an' })).toEqual(['username_length']);
    expect(registerProblems({ ...ok, username: 'a'.repeat(33) })).toEqual(['username_length']);
    expect(registerProblems({ ...ok, username: `  ${'a'.repeat(32)}  ` })).toEqual([]);
    expect(registerProblems({ ...ok, password: '1234567', repeat: '1234567' })).toEqual(['password_length']);
    expect(registerProblems({ ...ok, password: 'x'.repeat(257), repeat: 'x'.repeat(257) })).toEqual(['password_length']);
  });

  it('is pre-filled with the guest name, shows the hints and enables submit only when valid', () => {
    // the screen asks for a captcha challenge at once: none here
    vi.stubGlobal('fetch', vi.fn(async () => json({ type: 'error', code: 'captcha_off', message: 'off' }, 404)));
    useSession.setState({ user: guest, ready: true });
    renderApp(<RegisterScreen />);
    expect(field(/^Username/).value).toBe('kindly-brave-otter');
    expect(screen.getAllByText('3 to 32 characters.')).toHaveLength(1);
    expect(screen.getByText('8 to 256 characters.')).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Register' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    type(/^Password/, 'longenough');
    type(/^Repeat password/, 'longenougH');
    expect(submit.disabled).toBe(true);
    expect(screen.getByText('The passwords do not match.')).toBeTruthy();
    type(/^Repeat password/, 'longenough');
    expect(submit.disabled).toBe(false);
    type(/^Password/, 'short');
    type(/^Repeat password/, 'short');
    expect(submit.disabled).toBe(true);
  });

  it('registers, says so and goes on to the lobby, as logging in does', async () => {
    const fetch = vi.fn(async () => json({ type: 'success', message: 'user registered' }));
    vi.stubGlobal('fetch', fetch);
    useSession.setState({ user: guest, ready: true });
    const said = renderRegister();
    type(/^Username/, 'Ana');
    type(/^Password/, 'longenough');
    type(/^Repeat password/, 'longenough');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('heading', { name: 'The lobby' });
    expect(said).toContain('Welcome, Ana! Your account has been created and you are logged in.');
    expect(fetch).toHaveBeenCalledWith('/api/users/register', expect.objectContaining({ method: 'POST', body: JSON.stringify({ username: 'Ana', password: 'longenough' }) }));
  });

  it('shows the server error in the live region', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ type: 'error', code: 'username_taken', message: 'username is already in use' }, 409)));
    useSession.setState({ user: guest, ready: true });
    renderApp(<RegisterScreen />);
    type(/^Password/, 'longenough');
    type(/^Repeat password/, 'longenough');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('An error occurred: That username is already in use.'));
  });

  it('clears the server error as soon as a field is edited; a later success goes on to the lobby', async () => {
    const fetch = vi.fn(async () => json({ type: 'error', code: 'username_taken', message: 'username is already in use' }, 409));
    vi.stubGlobal('fetch', fetch);
    useSession.setState({ user: guest, ready: true });
    const said = renderRegister();
    const taken = 'An error occurred: That username is already in use.';
    type(/^Username/, 'curator');
    type(/^Password/, 'longenough');
    type(/^Repeat password/, 'longenough');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(taken));
    type(/^Username/, 'curator2');
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByText(taken)).toBeNull();

    // any field: the password fields too
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(taken));
    type(/^Repeat password/, 'longenougH');
    expect(screen.getByRole('status').textContent).toBe('');

    fetch.mockImplementation(async () => json({ type: 'success', message: 'user registered' }));
    type(/^Repeat password/, 'longenough');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('heading', { name: 'The lobby' });
    expect(said.filter((text) => text.startsWith('Welcome'))).toEqual(['Welcome, curator2! Your account has been created and you are logged in.']);
  });
});

describe('register form: the captcha', () => {
  const KEY = 'the test server key, 32 characters or more';

  /** A fetch standing in for the server: fresh challenges (or `altcha` as given), and `registerReply` for the registrations it records. */
  function server(altcha: () => Promise<Response>, registerReply: () => Response) {
    const sent: Record<string, unknown>[] = [];
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/altcha') return altcha();
      if (url === '/api/users/register') {
        sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return registerReply();
      }
      return json({ type: 'error', code: 'not_found', message: 'no' }, 404);
    });
    vi.stubGlobal('fetch', fetch);
    return { fetch, sent };
  }
  const challenge = async () => json(await createChallenge({ hmacKey: KEY, maxnumber: 20_000, expires: new Date(Date.now() + 300_000) }));
  const ok = () => json({ type: 'success', message: 'user registered' });

  function fillIn(): void {
    type(/^Password/, 'longenough');
    type(/^Repeat password/, 'longenough');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
  }

  it('solves the challenge in the background and sends the solution with the registration', async () => {
    const { fetch, sent } = server(challenge, ok);
    useSession.setState({ user: guest, ready: true });
    renderRegister();
    // asked for as soon as the screen opens, before anything is typed
    expect(fetch).toHaveBeenCalledWith('/api/altcha', expect.anything());
    fillIn();
    await screen.findByRole('heading', { name: 'The lobby' }, { timeout: 10_000 });
    expect(sent).toHaveLength(1);
    const token = sent[0]!.altcha_token as string;
    expect(await verifySolution(token, KEY)).toBe(true);
  }, 20_000);

  it('sends a new solution after a failed attempt', async () => {
    const replies = [json({ type: 'error', code: 'username_taken', message: 'username is already in use' }, 409), ok()];
    const { sent } = server(challenge, () => replies.shift()!);
    useSession.setState({ user: guest, ready: true });
    renderRegister();
    fillIn();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('An error occurred: That username is already in use.'), { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('heading', { name: 'The lobby' }, { timeout: 10_000 });
    expect(sent).toHaveLength(2);
    expect(sent[1]!.altcha_token).not.toBe(sent[0]!.altcha_token);
    for (const body of sent) expect(await verifySolution(body.altcha_token as string, KEY)).toBe(true);
  }, 30_000);

  it('registers without a token when the server serves no challenge', async () => {
    const { sent } = server(async () => json({ type: 'error', code: 'captcha_off', message: 'off' }, 404), ok);
    useSession.setState({ user: guest, ready: true });
    renderRegister();
    fillIn();
    await screen.findByRole('heading', { name: 'The lobby' });
    expect(sent).toEqual([{ username: 'kindly-brave-otter', password: 'longenough' }]);
  });
});
