import { readFileSync } from 'node:fs';
import { parseBuffer } from 'music-metadata';
import { ClipCache, processedSource } from './server/http/audio-clips.ts';
import { ffmpegPath } from './server/services/audio/ffmpeg.ts';
const dir = process.argv[2]!;
const hit = '11111111-1111-4111-8111-111111111111';
const N = Number(process.argv[3] ?? 16);
const c = new ClipCache(dir, ffmpegPath(undefined));
function runs(a: Buffer, b: Buffer, filler: boolean): number {
  const W = 32, L = 64; const idx = new Map<string, number[]>();
  for (let q = 0; q + W <= b.length; q += W) { const k = b.toString('latin1', q, q + W); const l = idx.get(k); if (l) l.push(q); else idx.set(k, [q]); }
  const fill = (k: number) => { const cnt = new Uint16Array(256); for (let j = k; j < k + L; j++) if (++cnt[a[j]!]! > 32) return true; return false; };
  let best = 0;
  for (let i = 0; i + W <= a.length; i++) for (const q of idx.get(a.toString('latin1', i, i + W)) ?? []) {
    let s = 0; while (i - s > 0 && q - s > 0 && a[i - s - 1] === b[q - s - 1]) s++; let e = W; while (i + e < a.length && q + e < b.length && a[i + e] === b[q + e]) e++;
    let ok = !filler; if (filler) for (let k = i - s; k + L <= i + e; k++) if (!fill(k)) { ok = true; break; }
    if (ok) best = Math.max(best, s + e);
  }
  return best;
}
for (const f of ['opus', 'mp3'] as const) {
  const src = (await processedSource(dir, hit, f))!;
  const full = readFileSync(src.path);
  const clips: Buffer[] = [];
  for (let g = 0; g < N; g++) clips.push(readFileSync((await c.clip(src, 20, { game: `G${g}`, draw: 1 })).path));
  const sizes = clips.map((b) => b.length);
  const durs = await Promise.all(clips.map(async (b) => (await parseBuffer(b, { mimeType: f === 'opus' ? 'audio/ogg' : 'audio/mpeg', size: b.length }, { duration: true })).format.duration!));
  let rawMax = 0, realMax = 0;
  for (let i = 0; i < clips.length; i++) { rawMax = Math.max(rawMax, runs(clips[i]!, full, false)); realMax = Math.max(realMax, runs(clips[i]!, full, true));
    for (let j = i + 1; j < clips.length; j++) { rawMax = Math.max(rawMax, runs(clips[i]!, clips[j]!, false)); realMax = Math.max(realMax, runs(clips[i]!, clips[j]!, true)); } }
  console.log(f, 'sizes', Math.min(...sizes), Math.max(...sizes), 'distinct', new Set(sizes).size, 'of', sizes.length, 'durations', Math.min(...durs).toFixed(3), Math.max(...durs).toFixed(3), 'longest common run any', rawMax, 'non-filler', realMax);
}
