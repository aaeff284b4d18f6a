import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { SFX_NAMES } from '../../client/src/audio/sfx.ts';

/**
 * The sound cues (docs/product.md#states) are files the player loads by name: a missing or
 * misnamed one would be skipped silently at run time, so this is where it shows.
 * scripts/make-sfx.ts makes them; the bounds here are the ones it promises.
 * Runs in the client project's happy-dom environment like its neighbours (the
 * shared setup clears localStorage, which the node environment lacks); the
 * reads go through Node's fs all the same.
 */

const dir = join(import.meta.dirname, '..', '..', 'assets', 'sfx');
const MIN_SECONDS = 0.1;
const MAX_SECONDS = 1.5;
/** Opus at ~48 kbit/s (constrained VBR may overshoot a little) … */
const MAX_KBITS = 56;
/** … plus the Ogg pages and Opus headers, which weigh a lot in a 0.1 s file. */
const HEADER_BYTES = 640;

describe('sound cue files', () => {
  it('has exactly the sixteen cues the player asks for (the fifteen of docs/product.md#states and the countdown\'s tick)', () => {
    expect(SFX_NAMES).toHaveLength(16);
    const files = readdirSync(dir).filter((f) => f.endsWith('.opus')).sort();
    expect(files).toEqual(SFX_NAMES.map((n) => `${n}.opus`).sort());
  });

  it.each(SFX_NAMES)('%s.opus decodes as short mono 48 kHz Opus', async (name) => {
    const file = join(dir, `${name}.opus`);
    const { format } = await parseFile(file, { duration: true });
    expect(format.container).toBe('Ogg');
    expect(format.codec).toBe('Opus');
    expect(format.numberOfChannels).toBe(1);
    // Opus always decodes at 48 kHz; the header keeps the input rate, which was 48 kHz too
    expect(format.sampleRate).toBe(48_000);
    const seconds = format.duration ?? 0;
    expect(seconds).toBeGreaterThanOrEqual(MIN_SECONDS);
    expect(seconds).toBeLessThanOrEqual(MAX_SECONDS);
    expect(statSync(file).size).toBeLessThanOrEqual(Math.round((seconds * MAX_KBITS * 1000) / 8 + HEADER_BYTES));
  });
});
