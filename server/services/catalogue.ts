import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ClueMode, Hit } from '../../shared/rules/index.ts';
import { isoNow, type Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';

/**
 * The catalogue as the games need it: packs, and the hits a deck is built from.
 * (The full catalogue API — search, editing, import/export — builds on this.)
 */

const uuid = z.uuid();
/** One hit of a `hits.yml` file (api.md Part B §5.1); yt_id is optional in Hitline. */
const YamlHit = z.object({
  artist: z.string().min(1),
  title: z.string().min(1),
  belongs_to: z.string().default(''),
  year: z.int().min(1).max(9999),
  packs: z.array(uuid),
  playback_offset: z.int().min(0).default(0),
  id: uuid,
  yt_id: z.string().regex(/^[A-Za-z0-9_-]{11}$/).nullish(),
  last_modified: z.string().optional(),
});
const YamlPack = z.object({ id: uuid, name: z.string().min(1), last_modified: z.string().optional() });
const YamlFile = z.object({ hits: z.array(YamlHit), packs: z.array(YamlPack) });

export interface PackInfo {
  id: string;
  name: string;
  hits: number;
}

export class CatalogueService {
  readonly db: Db;
  readonly log: Logger;

  constructor(db: Db, log: Logger) {
    this.db = db;
    this.log = log;
  }

  /** Every pack id (the default pack selection of a new game). */
  async packIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('packs').select('id').orderBy('name').execute();
    return rows.map((r) => r.id);
  }

  /** Packs with their hit counts. */
  async packs(): Promise<PackInfo[]> {
    const rows = await this.db
      .selectFrom('packs')
      .leftJoin('hit_packs', 'hit_packs.pack_id', 'packs.id')
      .select(({ fn }) => ['packs.id', 'packs.name', fn.count<number>('hit_packs.hit_id').as('hits')])
      .groupBy(['packs.id', 'packs.name'])
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, hits: Number(r.hits) }));
  }

  /**
   * The hits a game in `clueMode` may deal from `packIds`: in `audio` mode only hits
   * whose audio is ready, in `card` mode every hit. Catalogue edits after this call
   * never reach a running game (A8).
   */
  async playableHits(packIds: readonly string[], clueMode: ClueMode): Promise<Hit[]> {
    if (packIds.length === 0) return [];
    let q = this.db
      .selectFrom('hits')
      .innerJoin('hit_packs', 'hit_packs.hit_id', 'hits.id')
      .select(['hits.id', 'hits.title', 'hits.artist', 'hits.belongs_to', 'hits.year', 'hits.yt_id', 'hit_packs.pack_id'])
      .where('hit_packs.pack_id', 'in', [...packIds]);
    if (clueMode === 'audio') q = q.where('hits.audio_state', '=', 'ready');
    const rows = await q.orderBy('hits.id').execute();
    const byId = new Map<string, Hit>();
    for (const r of rows) {
      const hit = byId.get(r.id);
      if (hit) hit.packs.push(r.pack_id);
      else byId.set(r.id, { id: r.id, title: r.title, artist: r.artist, belongs_to: r.belongs_to, year: r.year, yt_id: r.yt_id, packs: [r.pack_id] });
    }
    return [...byId.values()];
  }

  /** How many hits of `packIds` have ready audio (decides a new game's default clue mode). */
  async countWithAudio(packIds: readonly string[]): Promise<number> {
    if (packIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('hits')
      .innerJoin('hit_packs', 'hit_packs.hit_id', 'hits.id')
      .select(({ fn }) => fn.count<number>('hits.id').distinct().as('n'))
      .where('hit_packs.pack_id', 'in', [...packIds])
      .where('hits.audio_state', '=', 'ready')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Audio progress for `process_hits`: ready hits, hits waiting for or in download, hits being processed. */
  async progress(): Promise<{ available: number; downloading: number; processing: number }> {
    const rows = await this.db
      .selectFrom('hits')
      .select(['audio_state', ({ fn }) => fn.countAll<number>().as('n')])
      .groupBy('audio_state')
      .execute();
    const count = (...states: string[]) => rows.filter((r) => states.includes(r.audio_state)).reduce((a, r) => a + Number(r.n), 0);
    return { available: count('ready'), downloading: count('queued', 'fetching'), processing: count('processing') };
  }

  /** Loads a `hits.yml` file into an empty catalogue (first start). Returns the hits added. */
  async loadDemoIfEmpty(file: string): Promise<number> {
    const existing = await this.db.selectFrom('hits').select('id').limit(1).executeTakeFirst();
    if (existing) return 0;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      this.log.warn({ file }, 'no demo catalogue found; starting with an empty catalogue');
      return 0;
    }
    const data = YamlFile.parse(parse(text));
    const now = isoNow();
    await this.db.transaction().execute(async (trx) => {
      for (const p of data.packs) {
        await trx.insertInto('packs').values({ id: p.id, name: p.name, name_key: p.name.toLowerCase(), created_at: now, updated_at: now }).execute();
      }
      for (const h of data.hits) {
        await trx
          .insertInto('hits')
          .values({
            id: h.id,
            title: h.title,
            artist: h.artist,
            year: h.year,
            belongs_to: h.belongs_to,
            yt_id: h.yt_id ?? null,
            playback_offset: h.playback_offset,
            created_at: now,
            updated_at: now,
          })
          .execute();
        if (h.packs.length) await trx.insertInto('hit_packs').values(h.packs.map((pack_id) => ({ hit_id: h.id, pack_id }))).execute();
      }
    });
    this.log.info({ hits: data.hits.length, packs: data.packs.length }, 'demo catalogue loaded');
    return data.hits.length;
  }
}
