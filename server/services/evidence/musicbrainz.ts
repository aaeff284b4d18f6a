import { earliest, fold, getJson, partialDate, sameArtist, type Found, type HttpOptions, type YearQuery, type YearSource } from './source.ts';

/**
 * MusicBrainz (docs/disputes.md#evidence): its web service v2 searched twice
 * per song, both with a Lucene query on the title and the artist. A recording
 * search gives each recording's `first-release-date` (the earliest release
 * that carries that recording); a release search finds the song's own
 * release (the single) with its `date`. The earlier of the two is the answer.
 *
 * What the data marks as not the original is left out: recordings whose title
 * or disambiguation says remaster, live, remix, demo, cover, karaoke,
 * instrumental, acoustic or re-recording, recordings found only on live,
 * remix, DJ-mix or demo release groups, and releases that are compilations,
 * live, remix or soundtrack albums, bootlegs or pseudo-releases.
 */

interface Credit {
  name?: string;
  joinphrase?: string;
}
interface ReleaseGroup {
  'primary-type'?: string | null;
  'secondary-types'?: string[];
}
interface Release {
  id?: string;
  title?: string;
  status?: string | null;
  date?: string;
  score?: number;
  disambiguation?: string;
  'artist-credit'?: Credit[];
  'release-group'?: ReleaseGroup;
}
interface Recording {
  id?: string;
  title?: string;
  score?: number;
  disambiguation?: string;
  'first-release-date'?: string;
  'artist-credit'?: Credit[];
  releases?: Release[];
}

const NON_ORIGINAL = /\b(live|remaster(ed)?|remix(ed)?|demo|karaoke|instrumental|acoustic|cover|re-?record(ed|ing)?|rehearsal)\b/i;
/** Secondary types of a release group whose recordings are other takes than the original. */
const OTHER_TAKE = new Set(['Live', 'Remix', 'DJ-mix', 'Demo']);
/** Secondary types of a release group that re-release songs first released elsewhere. */
const RE_RELEASE = new Set(['Compilation', 'Live', 'Remix', 'Soundtrack', 'DJ-mix', 'Mixtape/Street', 'Demo']);
/** Search scores (0–100) below this are other songs. */
const MIN_SCORE = 80;

const credit = (c: Credit[] | undefined) => (c ?? []).map((p) => `${p.name ?? ''}${p.joinphrase ?? ''}`).join('');
const quoted = (text: string) => `"${text.replace(/[\\"]/g, '\\$&')}"`;

/** The same title, or the same before a "(…)" / " - …" addition that does not mark another take. */
function sameTitle(found: string, wanted: string): boolean {
  if (fold(found) === fold(wanted)) return true;
  const base = found.replace(/\s*(\(.*\)|\[.*\]|\s-\s.*)$/, '');
  return base !== found && fold(base) === fold(wanted) && !NON_ORIGINAL.test(found);
}

export class MusicBrainzSource implements YearSource {
  readonly name = 'musicbrainz';
  readonly label = 'MusicBrainz';

  private readonly base: string;
  private readonly http: HttpOptions;

  constructor(base: string, http: HttpOptions) {
    this.base = base;
    this.http = http;
  }

  async lookup(q: YearQuery, signal?: AbortSignal): Promise<Found> {
    const query = `${quoted(q.title)} AND artist:${quoted(q.artist)}`;
    const recordings = ((await this.search('recording', `recording:${query}`, signal)) as { recordings?: Recording[] }).recordings ?? [];
    const releases = ((await this.search('release', `release:${query}`, signal)) as { releases?: Release[] }).releases ?? [];
    const candidates = [
      ...recordings.filter((r) => this.originalRecording(r, q)).map((r) => ({
        date: partialDate(r['first-release-date'])!,
        detail: `first release of the recording “${r.title}” by ${credit(r['artist-credit'])}`,
        url: `${this.base}/recording/${encodeURIComponent(r.id ?? '')}`,
      })),
      ...releases.filter((r) => this.originalRelease(r, q)).map((r) => ({
        date: partialDate(r.date)!,
        detail: `release “${r.title}”${r['release-group']?.['primary-type'] ? ` (${r['release-group']['primary-type']})` : ''} by ${credit(r['artist-credit'])}`,
        url: `${this.base}/release/${encodeURIComponent(r.id ?? '')}`,
      })),
    ];
    const first = earliest(candidates);
    if (!first) return { year: null, date: null, detail: 'no matching recording or release', url: null };
    return { year: Number(first.date.slice(0, 4)), date: first.date, detail: first.detail, url: first.url };
  }

  private search(entity: 'recording' | 'release', query: string, signal?: AbortSignal): Promise<unknown> {
    return getJson(`${this.base}/ws/2/${entity}?query=${encodeURIComponent(query)}&fmt=json&limit=25`, this.http, signal);
  }

  private originalRecording(r: Recording, q: YearQuery): boolean {
    if (!r.id || (r.score ?? 100) < MIN_SCORE || !partialDate(r['first-release-date'])) return false;
    if (!sameTitle(r.title ?? '', q.title) || !sameArtist(credit(r['artist-credit']), q.artist)) return false;
    if (NON_ORIGINAL.test(r.disambiguation ?? '')) return false;
    const groups = (r.releases ?? []).map((rel) => rel['release-group']?.['secondary-types'] ?? []);
    return groups.length === 0 || groups.some((types) => !types.some((t) => OTHER_TAKE.has(t)));
  }

  private originalRelease(r: Release, q: YearQuery): boolean {
    if (!r.id || (r.score ?? 100) < MIN_SCORE || !partialDate(r.date)) return false;
    if (!sameTitle(r.title ?? '', q.title) || !sameArtist(credit(r['artist-credit']), q.artist)) return false;
    if (r.status === 'Bootleg' || r.status === 'Pseudo-Release' || NON_ORIGINAL.test(r.disambiguation ?? '')) return false;
    return !(r['release-group']?.['secondary-types'] ?? []).some((t) => RE_RELEASE.has(t));
  }
}
