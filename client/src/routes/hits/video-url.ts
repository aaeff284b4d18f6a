/**
 * The video URL of a hit (docs/product.md#validation): a YouTube watch URL (`/watch?v=ID`), a short
 * link (`youtu.be/ID`), an embed URL (`/embed/ID`, also on youtube-nocookie.com)
 * or an old `/v/ID` URL, where ID is 11 characters of [A-Za-z0-9_-] (the
 * server's yt_id, docs/api.md#b6). Parsed as a URL rather than matched with one
 * regular expression, so look-alike hosts ("youtube.com.example.org"), other
 * schemes and extra path segments are refused.
 */

/** docs/product.md#limits: a video id has 11 characters. */
export const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** Hosts that serve the forms above; `www.`, `m.` and `music.` prefixes are accepted. */
const YOUTUBE_HOSTS = new Set(['youtube.com', 'youtube-nocookie.com']);
const SHORT_HOST = 'youtu.be';

/** The video id of a URL in one of the accepted forms, or null. Surrounding spaces are ignored; the scheme may be left out. */
export function parseVideoUrl(input: string): string | null {
  const text = input.trim();
  if (text === '' || /\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '' || url.port !== '') return null;
  const host = url.hostname.toLowerCase().replace(/^(?:www|m|music)\./, '');
  const segments = url.pathname.split('/').slice(1);
  // a trailing slash ("/embed/ID/") is harmless
  if (segments.length > 1 && segments.at(-1) === '') segments.pop();
  const id = (candidate: string | null | undefined): string | null => (candidate && VIDEO_ID.test(candidate) ? candidate : null);

  if (host === SHORT_HOST) return segments.length === 1 ? id(segments[0]) : null;
  if (!YOUTUBE_HOSTS.has(host)) return null;
  if (segments.length === 1 && segments[0] === 'watch') return url.searchParams.getAll('v').length === 1 ? id(url.searchParams.get('v')) : null;
  if (segments.length === 2 && (segments[0] === 'embed' || segments[0] === 'v')) return id(segments[1]);
  return null;
}

/** The watch URL of a video id (what the editor shows for a stored yt_id). */
export const watchUrl = (id: string): string => `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`;

/** The privacy-enhanced embed URL, starting at the playback offset (whole seconds). */
export const embedUrl = (id: string, offset: number): string =>
  `https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}?start=${Math.max(0, Math.floor(offset))}`;
