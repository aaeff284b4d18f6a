import type { Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

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
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
