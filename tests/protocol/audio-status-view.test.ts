import { describe, expect, it } from 'vitest';
import { AudioStatusSchema } from '../../server/http/audio-admin.ts';
import { AudioStatusViewSchema } from '../../shared/protocol/catalogue.ts';

/**
 * The status page reads `GET /api/hits/audio/status` with an open schema of
 * its own (shared/protocol); whatever the server's strict schema allows must
 * pass it, so the two cannot drift apart unnoticed.
 */
describe('AudioStatusViewSchema', () => {
  const reply = {
    available: 3,
    downloading: 1,
    processing: 0,
    states: { none: 10, queued: 1, fetching: 0, processing: 0, ready: 3, failed: 1 },
    sources: { youtube: { enabled: false, reason: 'no yt-dlp on the PATH (install it, or set YTDLP_PATH): YouTube downloads are off' }, upload: { enabled: true, max_bytes: 52428800 }, folder: { enabled: true } },
    processing_settings: { loudness_lufs: -14, true_peak_dbtp: -1, max_seconds: 300, max_source_seconds: 1800, formats: ['opus', 'mp3'] },
    failures: [
      {
        id: '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01',
        title: 'Africa',
        artist: 'Toto',
        source: 'youtube',
        reason: 'the YouTube source is off',
        cause: 'no_ytdlp',
        attempts: 1,
        failed_at: '2026-01-01T10:00:00.000Z',
      },
    ],
  };

  it('reads every reply the server schema allows', () => {
    expect(AudioStatusSchema.parse(reply)).toEqual(reply);
    const view = AudioStatusViewSchema.parse(reply);
    expect(view.failures[0]?.reason).toBe('the YouTube source is off');
    expect(view.sources.youtube.enabled).toBe(false);
    expect(view.failures[0]?.cause).toBe('no_ytdlp');
    // a cause this client does not know yet (a newer server's) reads as "other"
    expect(AudioStatusViewSchema.parse({ ...reply, failures: [{ ...reply.failures[0], cause: 'solar_flare' }] }).failures[0]?.cause).toBe('other');
    const empty = { ...reply, failures: [], sources: { ...reply.sources, youtube: { enabled: true } } };
    expect(AudioStatusViewSchema.safeParse(AudioStatusSchema.parse(empty)).success).toBe(true);
  });
});
