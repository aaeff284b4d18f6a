import { randomUUID } from 'node:crypto';
import { sql, SqliteAdapter, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import { lookAlikeKey } from '../services/look-alike.ts';
import type { Database } from './schema.ts';
import { installPostgresSearchSchema, installSqliteSearchSchema } from './search-schema.ts';

/**
 * Schema migrations, in order. Written with kysely's schema builder so the same
 * migrations run on SQLite and PostgreSQL. Never edit a released migration: add one.
 */
const migrations: Record<string, Migration> = {
  '0001_users_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.unique())
        .addColumn('password', 'text')
        .addColumn('guest', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('permissions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('idle_until', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    },
  },
  '0002_catalogue': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('packs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('hits')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('artist', 'text', (c) => c.notNull())
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('belongs_to', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('yt_id', 'text', (c) => c.unique())
        .addColumn('playback_offset', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('audio_state', 'text', (c) => c.notNull().defaultTo('none'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('hit_packs')
        .addColumn('hit_id', 'text', (c) => c.notNull().references('hits.id').onDelete('cascade'))
        .addColumn('pack_id', 'text', (c) => c.notNull().references('packs.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('hit_packs_pk', ['hit_id', 'pack_id'])
        .execute();
      await db.schema.createIndex('hit_packs_pack').on('hit_packs').column('pack_id').execute();
    },
  },
  '0003_catalogue_search': {
    async up(db: Kysely<unknown>) {
      // one transaction: SQLite migrations run without one, and a half-built search index would stay half-built
      await db.transaction().execute(async (trx) => {
        // covering (pack_id, hit_id): decks and pack counts read the links of a pack without touching the table's rows
        await trx.schema.createIndex('hit_packs_pack_hit').on('hit_packs').columns(['pack_id', 'hit_id']).execute();
        await trx.schema.dropIndex('hit_packs_pack').execute();
        // the full-text index and the sort indexes depend on the database (search-schema.ts)
        if (isSqlite(trx)) await installSqliteSearchSchema(trx);
        else await installPostgresSearchSchema(trx);
      });
    },
  },
  '0004_audio_jobs': {
    async up(db: Kysely<unknown>) {
      // The audio pipeline's queue (docs/api.md#b9). The job's state is hits.audio_state (one
      // source of truth for the games and the progress counts); this table holds the rest.
      await db.transaction().execute(async (trx) => {
        await trx.schema
          .createTable('audio_jobs')
          .addColumn('hit_id', 'text', (c) => c.primaryKey().references('hits.id').onDelete('cascade'))
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('source_path', 'text')
          .addColumn('claim', 'text')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('run_after', 'text', (c) => c.notNull())
          .addColumn('error', 'text')
          .addColumn('duration', 'real')
          .addColumn('input_lufs', 'real')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await trx.schema.createIndex('audio_jobs_run_after').on('audio_jobs').column('run_after').execute();
        // the queue's claim, the progress counts and audio-mode decks all filter hits by audio state
        await trx.schema.createIndex('hits_audio_state').on('hits').column('audio_state').execute();
      });
    },
  },
  '0005_games': {
    async up(db: Kysely<unknown>) {
      // Running games survive a restart: a base snapshot of the engine state
      // (written at creation, at every start and after a restore) plus the actions accepted
      // since, replayed on start-up. The engine is pure and seeded, so a replay is exact.
      await db.transaction().execute(async (trx) => {
        await trx.schema
          .createTable('games')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('process', 'text', (c) => c.notNull())
          .addColumn('base', 'text', (c) => c.notNull())
          .addColumn('base_seq', 'integer', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('players', 'integer', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await trx.schema.createIndex('games_process').on('games').column('process').execute();
        await trx.schema
          .createTable('game_actions')
          .addColumn('game_id', 'text', (c) => c.notNull().references('games.id').onDelete('cascade'))
          .addColumn('n', 'integer', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('game_actions_pk', ['game_id', 'n'])
          .execute();
        // each process notes every few seconds that it is alive: after a crash, the time
        // it went down tells how far to move the restored games' deadlines
        await trx.schema
          .createTable('server_processes')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('seen_at', 'text', (c) => c.notNull())
          .execute();
      });
    },
  },
  '0006_hit_sets': {
    async up(db: Kysely<unknown>) {
      // A game's start takes the playable hits of its packs, the one big part of an
      // action. Games started from the same hits share one stored copy, and the start
      // is logged like any other action, naming its copy, instead of writing a new base
      // with the whole deck at every start (budget P1). A copy goes when no log names
      // it (the partial index finds the names).
      await db.transaction().execute(async (trx) => {
        await trx.schema
          .createTable('hit_sets')
          .addColumn('hash', 'text', (c) => c.primaryKey())
          .addColumn('hits', 'text', (c) => c.notNull())
          .execute();
        await trx.schema.alterTable('game_actions').addColumn('hit_set', 'text').execute();
        await trx.schema
          .createIndex('game_actions_hit_set')
          .on('game_actions')
          .column('hit_set')
          .where(sql.ref('hit_set'), 'is not', null)
          .execute();
      });
    },
  },
  '0007_captcha': {
    async up(db: Kysely<unknown>) {
      await db.transaction().execute(async (trx) => {
        // values generated once and shared by every process on the database (the ALTCHA HMAC key)
        await trx.schema
          .createTable('server_secrets')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
        // solved ALTCHA challenges, kept until they expire so that each is accepted once, on any process
        await trx.schema
          .createTable('captcha_spent')
          .addColumn('signature', 'text', (c) => c.primaryKey())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await trx.schema.createIndex('captcha_spent_expires_at').on('captcha_spent').column('expires_at').execute();
      });
    },
  },
  '0008_name_skeletons': {
    async up(db: Kysely<unknown>) {
      // An account name may not look like another's ("асе" in Cyrillic beside "ace"):
      // registration compares confusable skeletons (services/look-alike.ts), each
      // account's stored here and indexed. Not unique: accounts made before the rule
      // may share one, and they keep their names.
      await db.transaction().execute(async (trx) => {
        await trx.schema.alterTable('users').addColumn('name_skeleton', 'text').execute();
        await trx.schema.createIndex('users_name_skeleton').on('users').column('name_skeleton').execute();
        const users = trx as unknown as Kysely<Database>;
        let after = '';
        for (;;) {
          const page = await users.selectFrom('users').select(['id', 'name']).where('guest', '=', 0).where('id', '>', after).orderBy('id').limit(500).execute();
          for (const u of page) await users.updateTable('users').set({ name_skeleton: lookAlikeKey(u.name) }).where('id', '=', u.id).execute();
          if (page.length < 500) break;
          after = page[page.length - 1]!.id;
        }
      });
    },
  },
  '0009_reports_evidence': {
    async up(db: Kysely<unknown>) {
      // Year disputes and problem reports (docs/disputes.md#reports): the reference
      // server's hit_issues with Hitline's fields, a hit's year history, the outside
      // sources' answers (cached per hit and source) and the audit's resumable queue.
      await db.transaction().execute(async (trx) => {
        await trx.schema
          .createTable('hit_issues')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('hit_id', 'text', (c) => c.notNull().references('hits.id').onDelete('cascade'))
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_modified', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull().defaultTo('other'))
          .addColumn('year', 'integer')
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
          .addColumn('reporter', 'text')
          .addColumn('game_id', 'text')
          .addColumn('votes', 'text')
          .addColumn('evidence', 'text')
          .addColumn('resolved_by', 'text')
          .addColumn('resolved_at', 'text')
          .addColumn('reason', 'text')
          .execute();
        await trx.schema.createIndex('hit_issues_hit').on('hit_issues').columns(['hit_id', 'status']).execute();
        await trx.schema.createIndex('hit_issues_open').on('hit_issues').columns(['status', 'created_at']).execute();
        await trx.schema
          .createTable('hit_history')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('hit_id', 'text', (c) => c.notNull())
          .addColumn('at', 'text', (c) => c.notNull())
          .addColumn('from_year', 'integer')
          .addColumn('to_year', 'integer', (c) => c.notNull())
          .addColumn('by_name', 'text')
          .addColumn('reason', 'text', (c) => c.notNull())
          .execute();
        await trx.schema.createIndex('hit_history_hit').on('hit_history').columns(['hit_id', 'at']).execute();
        // the hits made before the history: their year as they were made (when, not by whom: nobody kept that)
        const rows = trx as unknown as Kysely<Database>;
        let after = '';
        for (;;) {
          const page = await rows.selectFrom('hits').select(['id', 'year', 'created_at']).where('id', '>', after).orderBy('id').limit(500).execute();
          if (page.length > 0) {
            await rows
              .insertInto('hit_history')
              .values(page.map((h) => ({ id: randomUUID(), hit_id: h.id, at: h.created_at, from_year: null, to_year: h.year, by_name: null, reason: 'created' })))
              .execute();
          }
          if (page.length < 500) break;
          after = page[page.length - 1]!.id;
        }
        await trx.schema
          .createTable('year_evidence')
          .addColumn('hit_key', 'text', (c) => c.notNull())
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('answer', 'text', (c) => c.notNull())
          .addColumn('found_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('year_evidence_pk', ['hit_key', 'source'])
          .execute();
        await trx.schema
          .createTable('audit_queue')
          .addColumn('hit_id', 'text', (c) => c.primaryKey())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
      });
    },
  },
};

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
