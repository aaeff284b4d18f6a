/**
 * Local stand-ins of MusicBrainz and Wikidata for tests: real HTTP servers
 * answering as the services document it (MusicBrainz web service v2 search
 * JSON; the Wikidata query service's SPARQL JSON results), so no test reaches
 * the internet. Switches: answer 503 ("slow down"), answer late, refuse a
 * request without a descriptive User-Agent, and answer 503 to a request that
 * comes less than a second after the one before, as MusicBrainz does. Every
 * request is recorded with its time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  at: number;
  path: string;
  params: URLSearchParams;
  userAgent: string | undefined;
}

export interface StandIn {
  url: string;
  requests: Recorded[];
  /** The next N requests get 503 (with Retry-After: 1). */
  busy: number;
  /** Every answer waits this long first. */
  delayMs: number;
  /** Answer 503 to a request less than `paceMs` after the one before (0: never). */
  paceMs: number;
  close(): Promise<void>;
}

/** What the services ask of a User-Agent: `Application/version ( contact )`. */
export const DESCRIPTIVE_UA = /^[A-Za-z][\w.-]*\/[\w.-]+ \( [^()]+ \)$/;

function standIn(answer: (path: string, params: URLSearchParams) => unknown): Promise<StandIn> {
  const sockets = new Set<import('node:net').Socket>();
  const state: StandIn = { url: '', requests: [], busy: 0, delayMs: 0, paceMs: 0, close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = performance.now();
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const previous = state.requests.at(-1);
    const userAgent = req.headers['user-agent'];
    state.requests.push({ at, path: url.pathname, params: url.searchParams, userAgent });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      }, state.delayMs);
    };
    if (!userAgent || !DESCRIPTIVE_UA.test(userAgent)) return send(403, { error: 'a descriptive User-Agent is required' });
    if (state.busy > 0) {
      state.busy--;
      return send(503, { error: 'rate limited' }, { 'Retry-After': '1' });
    }
    if (state.paceMs > 0 && previous && at - previous.at < state.paceMs) return send(503, { error: 'rate limited' }, { 'Retry-After': '1' });
    const body = answer(url.pathname, url.searchParams);
    if (body === undefined) return send(404, { error: 'not found' });
    send(200, body);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      state.close = () =>
        new Promise<void>((done) => {
          for (const s of sockets) s.destroy();
          server.close(() => done());
        });
      resolve(state);
    });
  });
}

/** One song as the stand-ins know it. */
export interface MbRecording {
  id: string;
  title: string;
  artist: string;
  'first-release-date'?: string;
  disambiguation?: string;
  /** Secondary types of the release groups the recording is on (one entry per release). */
  groups?: string[][];
}
export interface MbRelease {
  id: string;
  title: string;
  artist: string;
  date?: string;
  status?: string;
  primary?: string;
  secondary?: string[];
}

/** The fields of a Lucene query such as `recording:"x" AND artist:"y"`, unescaped. */
function luceneFields(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of query.matchAll(/(\w+):"((?:[^"\\]|\\.)*)"/g)) out[m[1]!] = m[2]!.replace(/\\(.)/g, '$1');
  return out;
}

const loose = (a: string, b: string) => a.toLowerCase().includes(b.toLowerCase()) || b.toLowerCase().includes(a.toLowerCase());

/** MusicBrainz: `GET /ws/2/recording?query=…&fmt=json` and `GET /ws/2/release?query=…&fmt=json`. */
export function musicBrainzStandIn(data: { recordings: MbRecording[]; releases: MbRelease[] }): Promise<StandIn> {
  return standIn((path, params) => {
    if (params.get('fmt') !== 'json') return undefined;
    const q = luceneFields(params.get('query') ?? '');
    const credit = (name: string) => [{ name, joinphrase: '', artist: { id: 'a0000000-0000-4000-8000-000000000000', name, 'sort-name': name } }];
    if (path === '/ws/2/recording') {
      const found = data.recordings.filter((r) => loose(r.title, q.recording ?? '') && loose(r.artist, q.artist ?? ''));
      return {
        created: new Date().toISOString(),
        count: found.length,
        offset: 0,
        recordings: found.map((r) => ({
          id: r.id,
          score: 100,
          title: r.title,
          length: 354000,
          disambiguation: r.disambiguation,
          video: null,
          'artist-credit': credit(r.artist),
          'first-release-date': r['first-release-date'],
          releases: (r.groups ?? [[]]).map((types, i) => ({
            id: `${r.id.slice(0, -2)}${String(i).padStart(2, '0')}`,
            title: r.title,
            status: 'Official',
            'release-group': { id: r.id, 'primary-type': 'Album', 'secondary-types': types },
          })),
        })),
      };
    }
    if (path === '/ws/2/release') {
      const found = data.releases.filter((r) => loose(r.title, q.release ?? '') && loose(r.artist, q.artist ?? ''));
      return {
        created: new Date().toISOString(),
        count: found.length,
        offset: 0,
        releases: found.map((r) => ({
          id: r.id,
          score: 100,
          title: r.title,
          status: r.status ?? 'Official',
          date: r.date,
          country: 'GB',
          'artist-credit': credit(r.artist),
          'release-group': { id: r.id, 'primary-type': r.primary ?? 'Single', ...(r.secondary ? { 'secondary-types': r.secondary } : {}) },
        })),
      };
    }
    return undefined;
  });
}

export interface WdItem {
  id: string;
  title: string;
  performer: string;
  /** wikibase:timeValue, e.g. `1975-10-31T00:00:00Z`, and its precision (9 year, 10 month, 11 day). */
  date: string;
  precision: number;
}

/** Wikidata's query service: `GET /sparql?format=json&query=…` for the query server/services/evidence/wikidata.ts sends. */
export function wikidataStandIn(items: WdItem[]): Promise<StandIn> {
  return standIn((path, params) => {
    if (path !== '/sparql' || params.get('format') !== 'json') return undefined;
    const title = /VALUES \?title \{ "((?:[^"\\]|\\.)*)"@/.exec(params.get('query') ?? '')?.[1]?.replace(/\\(.)/g, '$1');
    if (title === undefined) return undefined;
    const found = items.filter((i) => i.title === title);
    return {
      head: { vars: ['item', 'performerLabel', 'date', 'precision'] },
      results: {
        bindings: found.map((i) => ({
          item: { type: 'uri', value: `http://www.wikidata.org/entity/${i.id}` },
          performerLabel: { 'xml:lang': 'en', type: 'literal', value: i.performer },
          date: { datatype: 'http://www.w3.org/2001/XMLSchema#dateTime', type: 'literal', value: i.date },
          precision: { datatype: 'http://www.w3.org/2001/XMLSchema#integer', type: 'literal', value: String(i.precision) },
        })),
      },
    };
  });
}

/** Songs both stand-ins know; the catalogue's tests give them other years. */
export const MB_DATA: { recordings: MbRecording[]; releases: MbRelease[] } = {
  recordings: [
    { id: 'b1a9c0e9-d987-4042-ae91-78d6a3267d69', title: 'Bohemian Rhapsody', artist: 'Queen', 'first-release-date': '1975-11-21', groups: [[]] },
    { id: 'ebf79ba5-085e-48d2-9eb8-2d992fbf0f6d', title: 'Bohemian Rhapsody', artist: 'Queen', 'first-release-date': '1975-10-31', groups: [[], ['Compilation']] },
    { id: 'c0ffee00-0000-4000-8000-000000000001', title: 'Bohemian Rhapsody', artist: 'Queen', 'first-release-date': '1974-06-01', disambiguation: 'live, 1974 rehearsal' },
    { id: 'c0ffee00-0000-4000-8000-000000000002', title: 'Bohemian Rhapsody (Remastered 2011)', artist: 'Queen', 'first-release-date': '1970-01-01' },
    { id: 'c0ffee00-0000-4000-8000-000000000003', title: 'Bohemian Rhapsody', artist: 'Queen', 'first-release-date': '1973-01-01', groups: [['Live']] },
    { id: 'c0ffee00-0000-4000-8000-000000000004', title: 'Bohemian Rhapsody', artist: 'The Muppets', 'first-release-date': '1972-01-01' },
    { id: 'c0ffee00-0000-4000-8000-000000000005', title: 'Take On Me', artist: 'a-ha', 'first-release-date': '1984-10-19' },
    { id: 'c0ffee00-0000-4000-8000-000000000006', title: 'Only One Knows', artist: 'Solo Act', 'first-release-date': '1990-05' },
  ],
  releases: [
    { id: 'c0ffee00-0000-4000-8000-000000000101', title: 'Bohemian Rhapsody', artist: 'Queen', date: '1975-10-31', primary: 'Single' },
    { id: 'c0ffee00-0000-4000-8000-000000000102', title: 'Bohemian Rhapsody', artist: 'Queen', date: '1971', primary: 'Album', secondary: ['Compilation'] },
    { id: 'c0ffee00-0000-4000-8000-000000000103', title: 'Bohemian Rhapsody', artist: 'Queen', date: '1969', status: 'Bootleg' },
    { id: 'c0ffee00-0000-4000-8000-000000000104', title: 'Take On Me', artist: 'a-ha', date: '1984-10', primary: 'Single' },
  ],
};

export const WD_DATA: WdItem[] = [
  { id: 'Q187745', title: 'Bohemian Rhapsody', performer: 'Queen', date: '1975-10-31T00:00:00Z', precision: 11 },
  { id: 'Q99999901', title: 'Bohemian Rhapsody', performer: 'Panic! at the Disco', date: '1960-01-01T00:00:00Z', precision: 11 },
  { id: 'Q99999902', title: 'Bohemian Rhapsody', performer: 'Queen', date: '1900-01-01T00:00:00Z', precision: 7 },
  { id: 'Q726125', title: 'Take On Me', performer: 'a-ha', date: '1985-01-01T00:00:00Z', precision: 9 },
];
