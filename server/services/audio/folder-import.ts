import { randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { parseFile } from 'music-metadata';
import { latestHitYear } from '../../../shared/rules/constants.ts';
import { isoNow, type Db } from '../../db/index.ts';
import { packNameKey } from '../catalogue-yaml/rows.ts';
import { formatSeconds } from './errors.ts';
import { queueJob } from './jobs.ts';
import { MAX_SOURCE_SECONDS } from './transcode.ts';

/**
 * Import of a local music folder (`npm run cli -- import-folder DIR [--pack NAME]`):
 * how a host with their own music plays with no streaming account and no
 * internet. Every audio file's tags (music-metadata) give title, artist and year;
 * the file becomes its hit's audio source (referenced where it is, not copied) and
 * is queued for processing. Files that cannot become a hit are reported with the
 * reason.
 */

/** File extensions looked at; anything else in the folder (covers, playlists) is ignored. */
export const AUDIO_EXTENSIONS = new Set(['.mp3', '.m4a', '.aac', '.mp4', '.flac', '.ogg', '.oga', '.opus', '.wav', '.aif', '.aiff', '.wma', '.webm', '.mka', '.ape', '.wv']);

/** One imported file. */
export interface ImportedFile {
  file: string;
  id: string;
  title: string;
  artist: string;
  year: number;
  /** Set when the tags' year differs from the catalogue's, which is kept. */
  note?: string;
}

/** What {@link importFolder} did. Paths are relative to the folder. */
export interface FolderImportReport {
  folder: string;
  /** Audio files looked at. */
  files: number;
  /** New hits. */
  created: ImportedFile[];
  /** Existing hits (same title and artist) that got this file as their audio source. */
  linked: ImportedFile[];
  /** Existing hits that already have this file as their source: nothing to do. */
  unchanged: ImportedFile[];
  skipped: { file: string; reason: string }[];
  /** Other files (not audio by their extension). */
  ignored: number;
  pack?: { id: string; name: string; created: boolean };
}

/** Options of {@link importFolder}. */
export interface FolderImportOptions {
  /** Put every imported hit in this pack (created when missing, matched case-insensitively). */
  pack?: string | undefined;
  /**
   * A deeper check of each file (ffmpeg: is it audio, how long); throws with a
   * reason to skip it. Without it only music-metadata looks at the files.
   */
  check?: (file: string) => Promise<unknown>;
}

/** Title/artist identity: case-, accent-width- and space-insensitive. */
const key = (title: string, artist: string) => `${norm(title)}\u0000${norm(artist)}`;
const norm = (s: string) => s.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();

/** The year of a tag value: `1987`, `1987-05-01`, `1987/05/01`, `05/01/1987`. */
function yearOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 && value <= 9999 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d{4})\b/.exec(value) ?? /\b(\d{4})\s*$/.exec(value);
  const y = m ? Number(m[1]) : NaN;
  return y >= 1 && y <= 9999 ? y : undefined;
}

/** The tags a hit needs, or why the file cannot be one. */
async function readTags(file: string): Promise<{ title: string; artist: string; year: number } | { reason: string }> {
  let meta;
  try {
    meta = await parseFile(file, { duration: true, skipCovers: true });
  } catch (err) {
    return { reason: `unreadable (${(err as Error).message})` };
  }
  const duration = meta.format.duration;
  if (duration === undefined || !(duration > 0)) return { reason: 'unreadable (no audio found)' };
  if (duration > MAX_SOURCE_SECONDS) return { reason: `too long (${formatSeconds(duration)}; the limit is ${formatSeconds(MAX_SOURCE_SECONDS)})` };
  const c = meta.common;
  const title = c.title?.trim() ?? '';
  const artist = (c.artist ?? c.artists?.join(', ') ?? c.albumartist ?? '').trim();
  // the original release year is the one the game is about (a 2011 remaster of a 1969 song is from 1969)
  const year = yearOf(c.originalyear) ?? yearOf(c.originaldate) ?? yearOf(c.year) ?? yearOf(c.date);
  const missing = [title ? null : 'title', artist ? null : 'artist', year ? null : 'year'].filter((m) => m !== null);
  if (missing.length === 3) return { reason: 'no tags (title, artist and year are missing)' };
  if (missing.length > 0) return { reason: `no ${missing.join(' and ')} in the tags` };
  // as the API and the catalogue import refuse it: a year to come is a typo in the tags
  if (year! > latestHitYear()) return { reason: `the tags' year ${year} is after the current year` };
  return { title, artist, year: year! };
}

/** Every file under `dir` as absolute paths, in a stable, human order (which file of two duplicates wins). */
async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const collator = new Intl.Collator('en', { numeric: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort((a, b) => collator.compare(relative(dir, a), relative(dir, b)) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Imports the audio files under `dir` (recursively) into the catalogue: a hit per
 * file, matched to an existing hit by title and artist (ignoring case), created
 * otherwise; its file linked as the audio source and queued. Skips files without
 * title, artist or year, unreadable ones, ones too long, and a second file of the
 * same title and artist. Catalogue writes happen in one transaction.
 */
export async function importFolder(db: Db, dir: string, options: FolderImportOptions = {}): Promise<FolderImportReport> {
  const folder = resolve(dir);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`not a folder: ${dir}`);
  const rel = (file: string) => relative(folder, file);

  const report: FolderImportReport = { folder, files: 0, created: [], linked: [], unchanged: [], skipped: [], ignored: 0 };
  const found: { file: string; title: string; artist: string; year: number }[] = [];
  const firstOf = new Map<string, string>();
  for (const file of await walk(folder)) {
    if (!AUDIO_EXTENSIONS.has(extname(file).toLowerCase())) {
      report.ignored++;
      continue;
    }
    report.files++;
    const tags = await readTags(file);
    if ('reason' in tags) {
      report.skipped.push({ file: rel(file), reason: tags.reason });
      continue;
    }
    const k = key(tags.title, tags.artist);
    const first = firstOf.get(k);
    if (first !== undefined) {
      report.skipped.push({ file: rel(file), reason: `duplicate of ${first} (same title and artist)` });
      continue;
    }
    if (options.check) {
      try {
        await options.check(file);
      } catch (err) {
        report.skipped.push({ file: rel(file), reason: (err as Error).message });
        continue;
      }
    }
    firstOf.set(k, rel(file));
    found.push({ file, ...tags });
  }

  const now = isoNow();
  await db.transaction().execute(async (trx) => {
    const hits = await trx
      .selectFrom('hits')
      .leftJoin('audio_jobs', 'audio_jobs.hit_id', 'hits.id')
      .select(['hits.id', 'hits.title', 'hits.artist', 'hits.year', 'hits.audio_state', 'audio_jobs.source', 'audio_jobs.source_path'])
      .orderBy('hits.id')
      .execute();
    const byKey = new Map<string, (typeof hits)[number][]>();
    for (const h of hits) {
      const k = key(h.title, h.artist);
      byKey.set(k, [...(byKey.get(k) ?? []), h]);
    }

    let packId: string | undefined;
    if (options.pack !== undefined && found.length > 0) {
      const name = options.pack.trim();
      const existing = await trx.selectFrom('packs').select(['id', 'name']).where('name_key', '=', packNameKey(name)).executeTakeFirst();
      if (existing) {
        packId = existing.id;
        report.pack = { id: existing.id, name: existing.name, created: false };
      } else {
        packId = randomUUID();
        await trx.insertInto('packs').values({ id: packId, name, name_key: packNameKey(name), created_at: now, updated_at: now }).execute();
        report.pack = { id: packId, name, created: true };
      }
    }
    const addToPack = async (hitId: string) => {
      if (!packId) return;
      const r = await trx.insertInto('hit_packs').values({ hit_id: hitId, pack_id: packId }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) await trx.updateTable('hits').set({ updated_at: now }).where('id', '=', hitId).execute();
    };

    for (const f of found) {
      const matches = byKey.get(key(f.title, f.artist)) ?? [];
      if (matches.length > 1) {
        report.skipped.push({ file: rel(f.file), reason: `matches ${matches.length} hits of the catalogue with the same title and artist` });
        continue;
      }
      const hit = matches[0];
      if (!hit) {
        const id = randomUUID();
        await trx
          .insertInto('hits')
          .values({ id, title: f.title, artist: f.artist, year: f.year, belongs_to: '', yt_id: null, playback_offset: 0, created_at: now, updated_at: now })
          .execute();
        await addToPack(id);
        await queueJob(trx, id, 'file', f.file, now);
        report.created.push({ file: rel(f.file), id, title: f.title, artist: f.artist, year: f.year });
        continue;
      }
      const entry: ImportedFile = { file: rel(f.file), id: hit.id, title: hit.title, artist: hit.artist, year: hit.year };
      if (hit.year !== f.year) entry.note = `the tags say ${f.year}; the catalogue's ${hit.year} is kept`;
      await addToPack(hit.id);
      const same = hit.source === 'file' && hit.source_path === f.file && hit.audio_state !== 'failed' && hit.audio_state !== 'none';
      if (same) {
        report.unchanged.push(entry);
        continue;
      }
      await queueJob(trx, hit.id, 'file', f.file, now);
      report.linked.push(entry);
    }
  });
  return report;
}
