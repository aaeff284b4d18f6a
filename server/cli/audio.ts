import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { ffmpegPath } from '../services/audio/ffmpeg.ts';
import { importFolder } from '../services/audio/folder-import.ts';
import { probeAudio } from '../services/audio/transcode.ts';
import { CliError } from './users.ts';

/**
 * `import-folder` of the admin CLI: a local music folder into the catalogue, each
 * file queued for processing (docs/api.md#b9). The running server's worker picks the
 * jobs up within seconds; without a running server they wait for its next start.
 */

/** Help text of `import-folder`. */
export const AUDIO_USAGE = `usage:
  npm run cli -- import-folder DIR [--pack NAME]

  Reads the tags of every audio file under DIR (title, artist, and year or date),
  creates a hit per file or links it to the hit with the same title and artist,
  and queues the audio for processing. Files are used where they are: keep the
  folder. Prints the files skipped and why.

  --pack NAME        put the imported hits in this pack (created when missing)`;

/** Runs `import-folder`; returns the exit code (0, even when files were skipped). */
export async function runImportFolderCommand(db: Db, config: Pick<Config, 'FFMPEG_PATH'>, argv: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { pack: { type: 'string' } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new CliError(`import-folder needs exactly one folder\n\n${AUDIO_USAGE}`);
  if (values.pack !== undefined && values.pack.trim() === '') throw new CliError('--pack needs a name');
  const ffmpeg = ffmpegPath(config.FFMPEG_PATH);
  let report;
  try {
    report = await importFolder(db, positionals[0]!, { pack: values.pack, check: (file) => probeAudio({ ffmpeg, timeoutMs: 60_000 }, file) });
  } catch (err) {
    if ((err as Error).message.startsWith('not a folder')) throw new CliError((err as Error).message);
    throw err;
  }
  const { out } = io;
  const queued = report.created.length + report.linked.length;
  out(`${report.folder}: ${report.files} audio file${report.files === 1 ? '' : 's'}${report.ignored ? ` (${report.ignored} other file${report.ignored === 1 ? '' : 's'} ignored)` : ''}`);
  out(`  new hits:           ${report.created.length}`);
  out(`  linked to hits:     ${report.linked.length}`);
  out(`  already imported:   ${report.unchanged.length}`);
  out(`  skipped:            ${report.skipped.length}`);
  for (const f of report.created) out(`  + ${f.file}: ${f.artist} – ${f.title} (${f.year})`);
  for (const f of report.linked) out(`  = ${f.file}: ${f.artist} – ${f.title} (${f.year})${f.note ? `; ${f.note}` : ''}`);
  for (const s of report.skipped) out(`  ! ${s.file}: skipped, ${s.reason}`);
  if (report.pack) out(`pack "${report.pack.name}"${report.pack.created ? ' (new)' : ''}: ${report.pack.id}`);
  out(
    queued > 0
      ? `${queued} hit${queued === 1 ? '' : 's'} queued for processing: the running server processes them (or its next start); progress in GET /api/hits/audio/status`
      : 'nothing queued',
  );
  return 0;
}
