import type { Generated } from 'kysely';

/** Table types for kysely. Timestamps are ISO-8601 UTC strings; booleans are 0/1 integers. */

export interface UsersTable {
  id: string;
  name: string;
  /** Lower-cased name of registered users (unique); null for guests. */
  name_key: string | null;
  /** Confusable skeleton of registered users' names (services/look-alike.ts), indexed, not unique; null for guests. */
  name_skeleton: string | null;
  /** Argon2id PHC string; null for guests. */
  password: string | null;
  /** 1 = guest, 0 = registered. */
  guest: number;
  permissions: number;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the session token (hex); the token itself is never stored. */
  token_hash: string;
  user_id: string;
  /** Rolling validity (valid_until of the user cookie). */
  expires_at: string;
  /** Hard end of the session when it is not used (idle limit). */
  idle_until: string;
  created_at: string;
}

export interface PacksTable {
  id: string;
  name: string;
  /** Lower-cased name (unique, case-insensitive). */
  name_key: string;
  created_at: string;
  updated_at: string;
}

export interface HitsTable {
  id: string;
  title: string;
  artist: string;
  year: number;
  belongs_to: string;
  /** 11-character YouTube id, unique when present. */
  yt_id: string | null;
  playback_offset: number;
  /** none | queued | fetching | processing | ready | failed */
  audio_state: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface HitPacksTable {
  hit_id: string;
  pack_id: string;
}

/** Where a hit's audio comes from. */
export type AudioSource = 'youtube' | 'upload' | 'file';

/**
 * One hit's audio job (migration 0004). Its state is `hits.audio_state`; a row
 * exists for every hit that was ever queued.
 */
export interface AudioJobsTable {
  hit_id: string;
  /** youtube (yt-dlp), upload (the hit editor), file (a local music folder). */
  source: AudioSource;
  /** The original audio: `<AUDIO_DIR>/sources/<hitId>.<ext>`, or a music folder's file; null until a YouTube download finished. */
  source_path: string | null;
  /** Random token of the worker holding the job; null when no worker holds it. */
  claim: string | null;
  /** Failed attempts since the job was last queued by hand. */
  attempts: Generated<number>;
  /** Earliest start (ISO): now, or later while backing off after a transient failure. */
  run_after: string;
  /** Readable reason of the last failure. */
  error: string | null;
  /** Seconds of processed audio (ready hits). */
  duration: number | null;
  /** Integrated loudness of the source part before normalisation, LUFS. */
  input_lufs: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * A game that is not over (migration 0005): restored on start-up by the process
 * named `process`. `base` is the engine state (JSON) after action `base_seq`.
 */
export interface GamesTable {
  id: string;
  /** PROCESS_NAME of the server process hosting the game. */
  process: string;
  base: string;
  base_seq: number;
  /** Engine state and connected players at the snapshot (for a look into the database). */
  state: string;
  players: number;
  /** ISO time of the snapshot; the log's entries carry the time of each later action. */
  updated_at: string;
}

/** An action accepted after the game's base snapshot, the `n`th since: `{"action":…,"now":<ms>,"seq":<room seq after it>}`. */
export interface GameActionsTable {
  game_id: string;
  n: number;
  action: string;
  /** The stored hits a logged start names (`hit_sets.hash`); null for other actions. */
  hit_set: string | null;
}

/** Playable hits as a game's start took them (JSON), stored once for every game that started from them. */
export interface HitSetsTable {
  hash: string;
  hits: string;
}

/** A server process's last sign of life (ISO), written every few seconds. */
export interface ServerProcessesTable {
  name: string;
  seen_at: string;
}

/** A value generated once for the whole installation (migration 0007), e.g. `altcha_hmac_key`. */
export interface ServerSecretsTable {
  name: string;
  value: string;
}

/** A solved ALTCHA challenge (its signature), refused if sent again until it expires (ISO). */
export interface CaptchaSpentTable {
  signature: string;
  expires_at: string;
}

/**
 * A report about a hit (docs/disputes.md#reports): the reference server's
 * hit issue (`type`, `message`) with Hitline's fields. `kind`: dispute |
 * wrong_year | wrong_song | bad_audio | other; `status`: open | accepted |
 * dismissed; `votes` and `evidence` are JSON (a dispute's); `reporter` the
 * user's name, `resolved_by` the curator's.
 */
export interface HitIssuesTable {
  id: string;
  hit_id: string;
  type: 'auto' | 'custom';
  message: string;
  created_at: string;
  last_modified: string;
  kind: Generated<string>;
  year: number | null;
  status: Generated<string>;
  reporter: string | null;
  game_id: string | null;
  votes: string | null;
  evidence: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  reason: string | null;
}

/** A change of a hit's year: from (null when the hit was made), to, who (a name, null for the server itself) and why. */
export interface HitHistoryTable {
  id: string;
  hit_id: string;
  at: string;
  from_year: number | null;
  to_year: number;
  by_name: string | null;
  reason: string;
}

/** An outside source's answer for a hit (`hit_key`: see services/evidence), cached; `answer` is JSON. */
export interface YearEvidenceTable {
  hit_key: string;
  source: string;
  answer: string;
  found_at: string;
}

/** `audit-years`: each hit's place in the resumable queue (`state`: pending | done | failed). */
export interface AuditQueueTable {
  hit_id: string;
  state: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  packs: PacksTable;
  hits: HitsTable;
  hit_packs: HitPacksTable;
  audio_jobs: AudioJobsTable;
  games: GamesTable;
  game_actions: GameActionsTable;
  hit_sets: HitSetsTable;
  server_processes: ServerProcessesTable;
  server_secrets: ServerSecretsTable;
  captcha_spent: CaptchaSpentTable;
  hit_issues: HitIssuesTable;
  hit_history: HitHistoryTable;
  year_evidence: YearEvidenceTable;
  audit_queue: AuditQueueTable;
}
