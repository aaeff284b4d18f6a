import { createRequire } from 'node:module';

/**
 * Which ffmpeg to run: `FFMPEG_PATH` when configured, else the static build that
 * ships inside the `@ffmpeg-installer/ffmpeg` npm package (no system package needed).
 */
export function ffmpegPath(configured: string | undefined): string {
  if (configured) return configured;
  const require = createRequire(import.meta.url);
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}
