import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { HitIssue, HitHistory, ReviewQueue } from '../../shared/protocol/reports.ts';
import { HitHistorySchema, ReviewQueueSchema } from '../../shared/protocol/reports.ts';
import HitsScreen from '../../client/src/routes/hits/HitsScreen.tsx';
import { withoutReport } from '../../client/src/routes/hits/ReviewQueue.tsx';
import { onNotification } from '../../client/src/a11y/notify.ts';
import { loadNamespace } from '../../client/src/i18n.ts';
import { closeGlobalEvents, openGlobalEvents } from '../../client/src/net/events.ts';
import { useCatalogue } from '../../client/src/stores/catalogue.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { json, renderApp } from './render.tsx';

/**
 * The catalogue's reports (docs/product.md#reports): the review queue with
 * accept and dismiss, "report a problem" and the history on a hit's page, and
 * who sees what. The server is the fetch stub answering as the route table
 * says (every answer is checked against the shared schemas here first).
 */

const HIT_A = '00000000-0000-4000-8000-0000000000a1';
const HIT_B = '00000000-0000-4000-8000-0000000000b2';
const at = (minute: number) => `2026-11-29T03:${String(minute).padStart(2, '0')}:00.000Z`;
let ids = 0;
const uuid = () => `10000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

function issue(hitId: string, fields: Partial<HitIssue>): HitIssue {
  return {
    id: uuid(),
    hit_id: hitId,
    type: 'custom',
    message: '',
    created_at: at(0),
    last_modified: at(0),
    kind: 'other',
    status: 'open',
    year: null,
    reporter: 'ana',
    game_id: null,
    outcome: null,
    votes: null,
    evidence: [],
    resolution: null,
    ...fields,
  };
}

const hitA = { id: HIT_A, title: 'Bohemian Rhapsody', artist: 'Queen', belongs_to: '', year: 1975, packs: [] };
const hitB = { id: HIT_B, title: 'Imagine', artist: 'John Lennon', belongs_to: '', year: 1971, packs: [] };

const dispute = issue(HIT_A, {
  kind: 'dispute',
  year: 1969,
  reporter: 'bob',
  created_at: at(30),
  message: 'It was on the radio before.',
  game_id: 'ABCD2345',
  outcome: 'kept',
  votes: { take: 2, keep: 1, voters: 3 },
  evidence: [
    { source: 'musicbrainz', label: 'MusicBrainz', year: 1975, date: '1975-10-31', detail: 'A Night at the Opera', url: 'https://musicbrainz.org/recording/x', found_at: at(29) },
  ],
});
const wrongYear = issue(HIT_A, { kind: 'wrong_year', year: 1974, reporter: 'cleo', created_at: at(10) });
const badAudio = issue(HIT_B, { kind: 'bad_audio', reporter: null, type: 'auto', created_at: at(40), message: 'download failed' });

let queue: ReviewQueue;
let history: HitHistory;
let calls: { method: string; path: string; body: unknown }[];
/** The answer of `POST …/reports`, when a test wants another. */
let reportAnswer: (() => Response) | null;

const user = (perms: Partial<Record<'write_hits' | 'read_issues' | 'write_issues', boolean>>) => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'curator',
  virtual: false,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false, ...perms },
});

const render = (path: string) =>
  renderApp(
    <Routes>
      <Route path="/hits/*" element={<HitsScreen />} />
    </Routes>,
    path,
  );

/** The global stream as the server drives it (one EventSource per tab). */
class ServerStream extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static last: ServerStream | null = null;
  readyState = 1;
  readonly url: string;
  constructor(url: string) {
    super();
    this.url = url;
    ServerStream.last = this;
  }
  send(name: string, data: unknown): void {
    this.dispatchEvent(new MessageEvent(name, { data: JSON.stringify({ [name]: data }) }));
  }
  close(): void {
    this.readyState = 2;
  }
}

beforeAll(async () => {
  await loadNamespace('hits');
});

beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ ready: true, user: user({ write_hits: true }) });
  useCatalogue.setState({ packs: [], packsLoaded: true });
  queue = ReviewQueueSchema.parse({ items: [{ hit: hitA, reports: [dispute, wrongYear] }, { hit: hitB, reports: [badAudio] }], open: 3 });
  history = HitHistorySchema.parse({ hit_id: HIT_A, year: 1975, changes: [], reports: [] });
  calls = [];
  reportAnswer = null;
  vi.stubGlobal('EventSource', ServerStream);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path: url.pathname, body });
      const closing = /^\/api\/hits\/([^/]+)\/issues\/([^/]+)\/(accept|dismiss)$/.exec(url.pathname);
      if (method === 'POST' && closing) {
        const report = queue.items.flatMap((i) => i.reports).find((r) => r.id === closing[2])!;
        queue = withoutReport(queue, report.id);
        const status = closing[3] === 'accept' ? 'accepted' : 'dismissed';
        return json({ ...report, status, resolution: { by: 'curator', at: at(50), reason: body?.reason ?? '' } });
      }
      if (url.pathname === '/api/reports') return json(queue);
      if (url.pathname === `/api/hits/${HIT_A}/history`) return json(history);
      if (url.pathname === `/api/hits/${HIT_A}/reports` && method === 'POST') {
        if (reportAnswer) return reportAnswer();
        return json(issue(HIT_A, { kind: body.kind, year: body.year ?? null, message: body.message }));
      }
      if (url.pathname === `/api/hits/${HIT_A}`) return json({ ...hitA, yt_id: '', playback_offset: 0, audio: 'none' });
      if (url.pathname === '/api/hits/search') return json({ results: [], total: 0, start: 1, end: 0 });
      if (url.pathname === '/api/hits/packs') return json({ packs: [] });
      return json({ type: 'error', code: 'not_found', message: 'not found' }, 404);
    }),
  );
});
afterEach(() => {
  closeGlobalEvents();
  vi.unstubAllGlobals();
});

const posts = () => calls.filter((c) => c.method === 'POST');

describe('the review queue', () => {
  it('groups the open reports by hit in the server’s order, each with what the curator needs to decide', async () => {
    render('/hits/reports');
    await screen.findByRole('heading', { level: 1, name: 'Review reports' });
    expect(await screen.findByText('3 open reports')).toBeTruthy();
    const hits = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(hits).toEqual(['Queen: Bohemian Rhapsody (1975)', 'John Lennon: Imagine (1971)']);
    const first = screen.getByRole('list', { name: 'Reports about Queen – Bohemian Rhapsody' });
    const items = within(first).getAllByRole('article');
    // newest first within the hit, as the server sent them
    expect(items.map((a) => a.querySelector('[id^="report-"]')?.textContent)).toEqual(['Dispute at a tableProposed year: 1969', 'Wrong yearProposed year: 1974']);
    const d = within(items[0]!);
    expect(d.getByText(/^Reported by bob, /)).toBeTruthy();
    expect(d.getByText('It was on the radio before.')).toBeTruthy();
    expect(d.getByText("The table kept the card's year: 2 of 3 wanted 1969.")).toBeTruthy();
    expect(d.getByText('MusicBrainz: 1975')).toBeTruthy();
    expect(d.getByRole('link', { name: 'Open at MusicBrainz' }).getAttribute('href')).toBe('https://musicbrainz.org/recording/x');
    expect(within(screen.getByRole('region', { name: 'Queen: Bohemian Rhapsody (1975)' })).getByText('2 reports')).toBeTruthy();
    // the server's own report names nobody
    const second = screen.getByRole('list', { name: 'Reports about John Lennon – Imagine' });
    expect(within(second).getByText(/^Filed by Hitline, /)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the hit: Queen – Bohemian Rhapsody' }).getAttribute('href')).toBe(`/hits/${HIT_A}`);
    // each button is named, and says which report it acts on
    const accept = within(items[0]!).getByRole('button', { name: 'Accept' });
    expect(document.getElementById(accept.getAttribute('aria-describedby')!)?.textContent).toBe('Dispute at a tableProposed year: 1969');
  });

  it('says when there is nothing to review', async () => {
    queue = { items: [], open: 0 };
    render('/hits/reports');
    expect(await screen.findByText('No open reports. Nice.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
  });

  it('accept: the proposed year prefilled and editable; a wrong year is refused; the report leaves the list', async () => {
    const said: string[] = [];
    const off = onNotification((n) => said.push(n.text));
    render('/hits/reports');
    const first = await screen.findByRole('list', { name: 'Reports about Queen – Bohemian Rhapsody' });
    fireEvent.click(within(within(first).getAllByRole('article')[0]!).getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept the report' });
    const year = within(dialog).getByRole('spinbutton', { name: 'Year to set' }) as HTMLInputElement;
    expect(year.value).toBe('1969');
    fireEvent.change(year, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(await within(dialog).findByText(/^A year from 1 to /)).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(year, { target: { value: '1970' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), { target: { value: ' single out in 1970 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({ method: 'POST', path: `/api/hits/${HIT_A}/issues/${dispute.id}/accept`, body: { year: 1970, reason: 'single out in 1970' } });
    await waitFor(() => expect(screen.queryByText("The table kept the card's year: 2 of 3 wanted 1969.")).toBeNull());
    expect(await screen.findByText('2 open reports')).toBeTruthy();
    expect(said).toContain('Report accepted: Queen – Bohemian Rhapsody is now from 1970.');
    // the closed report's buttons are gone: a keyboard user goes on with the next report
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-describedby')).toBe(`report-${wrongYear.id}`));
    expect(document.activeElement?.textContent).toBe('Accept');
    off();
  });

  it('accept without a year keeps it (a problem that is not about the year): the hit\'s own year is sent', async () => {
    render('/hits/reports');
    const second = await screen.findByRole('list', { name: 'Reports about John Lennon – Imagine' });
    fireEvent.click(within(second).getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept the report' });
    expect((within(dialog).getByRole('spinbutton', { name: 'Year to set' }) as HTMLInputElement).value).toBe('');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body).toEqual({ year: 1971, reason: '' });
    // the hit had one report: it leaves the queue
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'John Lennon: Imagine (1971)' })).toBeNull());
  });

  it('dismiss needs a reason, then calls the dismiss route and the report leaves', async () => {
    render('/hits/reports');
    const first = await screen.findByRole('list', { name: 'Reports about Queen – Bohemian Rhapsody' });
    fireEvent.click(within(within(first).getAllByRole('article')[1]!).getByRole('button', { name: 'Dismiss' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss the report' });
    expect(within(dialog).getByText('The year of Queen – Bohemian Rhapsody stays 1975.')).toBeTruthy();
    const reason = within(dialog).getByRole('textbox', { name: /^Reason/ });
    fireEvent.change(reason, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    const error = await within(dialog).findByText('Give a reason for dismissing the report.');
    // the field is described by its error, so a screen reader hears why
    expect(reason.getAttribute('aria-describedby')).toContain(error.id);
    expect(posts()).toEqual([]);
    fireEvent.change(reason, { target: { value: 'The album came out in 1975.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({ method: 'POST', path: `/api/hits/${HIT_A}/issues/${wrongYear.id}/dismiss`, body: { reason: 'The album came out in 1975.' } });
    await waitFor(() => expect(screen.queryByText('Proposed year: 1974')).toBeNull());
  });

  it('follows the global stream: a report closed elsewhere leaves, a new one reloads the queue', async () => {
    render('/hits/reports');
    await screen.findByText('3 open reports');
    await act(() => openGlobalEvents());
    const stream = ServerStream.last!;
    await act(async () => stream.send('delete_hit_issue', { hit_id: HIT_B, issue_id: badAudio.id }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'John Lennon: Imagine (1971)' })).toBeNull());
    expect(screen.getByText('2 open reports')).toBeTruthy();
    const fresh = issue(HIT_B, { kind: 'wrong_song', created_at: at(45) });
    queue = ReviewQueueSchema.parse({ items: [...queue.items.filter((i) => i.hit.id !== HIT_B), { hit: hitB, reports: [fresh] }], open: 3 });
    await act(async () => stream.send('create_hit_issue', fresh));
    expect(await screen.findByText('Wrong song')).toBeTruthy();
    expect(screen.getByText('3 open reports')).toBeTruthy();
  });

  it('is for curators only: others get no link and a refusal', async () => {
    useSession.setState({ ready: true, user: user({ read_issues: true }) });
    render('/hits/reports');
    expect(await screen.findByText(/Permission denied/)).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/reports')).toBe(false);
  });
});

describe('the way to the queue on the browse page', () => {
  it('a curator gets a link with the open count', async () => {
    render('/hits');
    const link = await screen.findByRole('link', { name: 'Reports, 3 open' });
    expect(link.getAttribute('href')).toBe('/hits/reports');
  });

  it('a player without write_hits gets none, and the queue is not asked for', async () => {
    useSession.setState({ ready: true, user: user({}) });
    render('/hits');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/hits/search')).toBe(true));
    expect(screen.queryByRole('link', { name: /^Reports/ })).toBeNull();
    expect(calls.some((c) => c.path === '/api/reports')).toBe(false);
  });
});

describe('report a problem on a hit’s page', () => {
  const open = async () => {
    render(`/hits/${HIT_A}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Report a problem' }));
    return screen.findByRole('dialog', { name: 'Report a problem' });
  };

  it('a wrong year needs the year (and another than the hit’s); then it is sent and thanked for', async () => {
    useSession.setState({ ready: true, user: user({}) });
    const said: string[] = [];
    const off = onNotification((n) => said.push(n.text));
    const dialog = await open();
    expect((within(dialog).getByRole('radio', { name: 'Wrong year' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText('Give the year it should be.')).toBeTruthy();
    const year = within(dialog).getByRole('spinbutton', { name: /^The right year/ });
    fireEvent.change(year, { target: { value: '1975' } });
    expect(await within(dialog).findByText('1975 is already its year.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(year, { target: { value: '1974' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^What do you know/ }), { target: { value: 'Single in 1974' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({ method: 'POST', path: `/api/hits/${HIT_A}/reports`, body: { kind: 'wrong_year', message: 'Single in 1974', year: 1974 } });
    await waitFor(() => expect(said).toContain('Thanks: your report about Queen – Bohemian Rhapsody is in the review queue.'));
    off();
  });

  it('another kind needs no year and sends none', async () => {
    const dialog = await open();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Bad audio' }));
    await waitFor(() => expect(within(dialog).queryByRole('spinbutton')).toBeNull());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body).toEqual({ kind: 'bad_audio', message: '' });
  });

  it('the rate limit (429) is said in the dialog, which keeps what was typed', async () => {
    reportAnswer = () => json({ type: 'error', code: 'rate_limited', message: 'Too many requests' }, 429, { 'Retry-After': '42' });
    const dialog = await open();
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: /^The right year/ }), { target: { value: '1974' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('You sent many reports just now. Please try again in 42 seconds.');
    expect((within(dialog).getByRole('spinbutton', { name: /^The right year/ }) as HTMLInputElement).value).toBe('1974');
  });

  it('is not offered to a user without write_issues', async () => {
    useSession.setState({ ready: true, user: user({ write_issues: false }) });
    render(`/hits/${HIT_A}`);
    await screen.findByRole('heading', { level: 1, name: 'Queen: Bohemian Rhapsody' });
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
  });
});

describe('the history on a hit’s page', () => {
  beforeEach(() => {
    history = HitHistorySchema.parse({
      hit_id: HIT_A,
      year: 1975,
      changes: [
        { at: at(1), from: null, to: 1974, by: null, reason: 'imported' },
        { at: at(20), from: 1974, to: 1975, by: 'dora', reason: 'The single came out in October 1975.' },
      ],
      reports: [
        { ...dispute, status: 'open' },
        { ...wrongYear, status: 'dismissed', resolution: { by: 'dora', at: at(21), reason: 'Album and single are 1975.' } },
      ],
    });
  });

  it('lists the year changes (from → to, who, when, why) and, for curators, the reports with their outcome', async () => {
    render(`/hits/${HIT_A}`);
    const section = await screen.findByRole('region', { name: 'History' });
    const changes = await within(section).findByRole('list', { name: 'Year changes' });
    const lines = within(changes).getAllByRole('listitem');
    expect(lines[0]!.textContent).toMatch(/^Added as 1974by Hitline, .*Why: imported$/);
    // the arrow is for the eye; a screen reader hears a sentence
    expect(within(lines[1]!).getByText('Year changed from 1974 to 1975')).toBeTruthy();
    expect(within(lines[1]!).getByText(/^by dora, /)).toBeTruthy();
    expect(within(lines[1]!).getByText('Why: The single came out in October 1975.')).toBeTruthy();
    const reports = within(section).getByRole('list', { name: 'Reports' });
    expect(within(reports).getByText('Open')).toBeTruthy();
    expect(within(reports).getByText('Dismissed')).toBeTruthy();
    expect(within(reports).getByText(/^Dismissed by dora, /)).toBeTruthy();
    expect(within(reports).getByText('Reason: Album and single are 1975.')).toBeTruthy();
    expect(within(section).getByText('1 open report about this hit.')).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'Review them' }).getAttribute('href')).toBe('/hits/reports');
  });

  it('a reader of reports (read_issues) sees them but not the way to the queue; a player sees only the year changes', async () => {
    useSession.setState({ ready: true, user: user({ read_issues: true }) });
    const { unmount } = render(`/hits/${HIT_A}`);
    let section = await screen.findByRole('region', { name: 'History' });
    expect(await within(section).findByRole('list', { name: 'Reports' })).toBeTruthy();
    expect(within(section).queryByRole('link', { name: 'Review them' })).toBeNull();
    unmount();
    useSession.setState({ ready: true, user: user({}) });
    render(`/hits/${HIT_A}`);
    section = await screen.findByRole('region', { name: 'History' });
    await within(section).findByRole('list', { name: 'Year changes' });
    expect(within(section).queryByRole('heading', { name: 'Reports' })).toBeNull();
    expect(within(section).queryByText('Dismissed')).toBeNull();
  });

  it('a report sent from the page shows in its history at once', async () => {
    useSession.setState({ ready: true, user: user({ read_issues: true }) });
    render(`/hits/${HIT_A}`);
    const section = await screen.findByRole('region', { name: 'History' });
    await within(section).findByRole('list', { name: 'Reports' });
    const before = calls.filter((c) => c.path.endsWith('/history')).length;
    fireEvent.click(screen.getByRole('button', { name: 'Report a problem' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report a problem' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Wrong song' }));
    await waitFor(() => expect(within(dialog).queryByRole('spinbutton')).toBeNull());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/history')).length).toBe(before + 1));
  });
});
