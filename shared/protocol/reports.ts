import { z } from 'zod';
import { boundedText, GameIdSchema, UuidSchema } from './common.ts';
import { HitPayloadSchema, YearSchema } from './game.ts';

/**
 * Reports about hits, their evidence and their history (docs/disputes.md).
 *
 * A report is the reference server's hit issue (`id`, `hit_id`, `type`,
 * `message`, `created_at`, `last_modified`) with Hitline's fields, so both
 * clients see one queue: a year dispute of a game, a "report a problem" from a
 * hit's page, an issue posted with the reference API, an automatic one (a
 * failed download) or one filed by `audit-years`.
 */

const Timestamp = z.iso.datetime({ offset: true });

/** What a report is about: a table's year `dispute`, or a problem a user reports. */
export const ISSUE_KINDS = ['dispute', 'wrong_year', 'wrong_song', 'bad_audio', 'other'] as const;
export const IssueKindSchema = z.enum(ISSUE_KINDS);
/** The problems a user can pick on a hit's page (a dispute comes from a game only). */
export const PROBLEM_KINDS = ['wrong_year', 'wrong_song', 'bad_audio', 'other'] as const;
export const ProblemKindSchema = z.enum(PROBLEM_KINDS);

/** `open` until a curator accepts it (the year is set) or dismisses it (with a reason). */
export const ISSUE_STATUSES = ['open', 'accepted', 'dismissed'] as const;
export const IssueStatusSchema = z.enum(ISSUE_STATUSES);

/**
 * One outside source's answer about a hit's year (an evidence line): which
 * source, the earliest year it knows (null: it found nothing), the date as the
 * source gives it (`1975`, `1975-10`, `1975-10-31`), what the date is of, a
 * link to the source's page, and when it was looked up.
 */
export const SourceAnswerSchema = z.strictObject({
  source: z.string().min(1).max(40),
  label: z.string().min(1).max(80),
  year: YearSchema.nullable(),
  date: z.string().max(10).nullable(),
  detail: z.string().max(500),
  url: z.url().nullable(),
  found_at: Timestamp,
});

/** A source that has no answer to show: still looking, or unreachable (no network, rate-limited, timed out). */
export const SourceStatusSchema = z.strictObject({
  source: z.string().min(1).max(40),
  label: z.string().min(1).max(80),
  state: z.enum(['pending', 'unavailable']),
});

/** The table's votes on a dispute, counted. */
export const VoteCountSchema = z.strictObject({
  take: z.int().min(0),
  keep: z.int().min(0),
  voters: z.int().min(0),
});

/**
 * `GET /api/hits/{id}?parts=issues`, `GET /api/hits/search?parts=issues`,
 * `POST /api/hits/{id}/issues`, the review queue and the global
 * `create_hit_issue` event: a report. The first six fields are the reference
 * server's; the rest are absent on what its API made (`kind` is then `other`).
 */
export const HitIssueSchema = z.strictObject({
  id: UuidSchema,
  hit_id: UuidSchema,
  /** `auto`: filed by the server (a failed download, the audit); `custom`: by a person or a table. */
  type: z.enum(['auto', 'custom']),
  message: z.string(),
  created_at: Timestamp,
  last_modified: Timestamp,
  kind: IssueKindSchema,
  status: IssueStatusSchema,
  /** The year proposed (a dispute, a wrong-year report, the audit), else null. */
  year: YearSchema.nullable(),
  /** The reporter's name; null for the server's own reports and anonymous reference-API ones. */
  reporter: z.string().nullable(),
  /** The game a dispute was raised in, else null. */
  game_id: GameIdSchema.nullable(),
  /** A dispute's outcome at the table ("kept"/"changed") and its votes, else null. */
  outcome: z.enum(['kept', 'changed']).nullable(),
  votes: VoteCountSchema.nullable(),
  /** The outside sources' answers known when it was filed. */
  evidence: z.array(SourceAnswerSchema),
  /** Who accepted or dismissed it, when and why; null while open. */
  resolution: z
    .strictObject({
      by: z.string().nullable(),
      at: Timestamp,
      reason: z.string(),
    })
    .nullable(),
});

/** `delete_hit_issue` global event data (the reference server's shape). */
export const DeletedIssueSchema = z.strictObject({ hit_id: UuidSchema, issue_id: UuidSchema });

/** A change of a hit's year: when, from (null: the hit was made), to, by whom (a name; null: the server) and why. */
export const YearChangeSchema = z.strictObject({
  at: Timestamp,
  from: YearSchema.nullable(),
  to: YearSchema,
  by: z.string().nullable(),
  reason: z.string(),
});

/**
 * `GET /api/hits/{id}/history`: the hit's year changes, oldest first, and its
 * reports of every status, newest first (what a hit's page shows).
 */
export const HitHistorySchema = z.strictObject({
  hit_id: UuidSchema,
  year: YearSchema,
  changes: z.array(YearChangeSchema),
  reports: z.array(HitIssueSchema),
});

/**
 * `GET /api/games/{id}/evidence`: what is known about the year of the card
 * that may be disputed (or is) now, only after its reveal. The catalogue's
 * year and its history, the hit's earlier reports with their outcomes, the
 * outside sources' answers, and the sources still looking or unreachable.
 */
export const EvidenceSchema = z.strictObject({
  hit: HitPayloadSchema,
  /** The catalogue's year now (it may have changed since the card was dealt). */
  year: YearSchema.nullable(),
  changes: z.array(YearChangeSchema),
  reports: z.array(HitIssueSchema),
  sources: z.array(SourceAnswerSchema),
  missing: z.array(SourceStatusSchema),
});

/**
 * `POST /api/hits/{id}/issues` body (the reference server's): a message and an
 * ALTCHA solution. Hitline's clients may add `kind` and `year` (a wrong-year
 * report proposes one).
 */
export const IssueBodySchema = z.object({
  message: z.string().max(2000),
  altcha_token: z.string().max(10_000).optional(),
  kind: ProblemKindSchema.optional(),
  year: YearSchema.optional(),
});

/** `POST /api/hits/{id}/reports` body ("report a problem", a signed-in user, no ALTCHA): the kind, what is wrong, and a year for `wrong_year`. */
export const ProblemBodySchema = z
  .object({
    kind: ProblemKindSchema,
    message: boundedText(0, 2000).default(''),
    year: YearSchema.optional(),
  })
  .refine((b) => b.kind !== 'wrong_year' || b.year !== undefined, { error: 'year is required for a wrong year', path: ['year'] });

/** `POST /api/hits/{id}/issues/{issueId}/accept` body: the year to set (default: the report's), and why. */
export const AcceptBodySchema = z.object({
  year: YearSchema.optional(),
  reason: boundedText(0, 500).default(''),
});

/** `POST /api/hits/{id}/issues/{issueId}/dismiss` body: why (required). */
export const DismissBodySchema = z.object({
  reason: boundedText(1, 500),
});

/** One line of the review queue: a hit, its open reports (newest first) and how many there are. */
export const ReviewItemSchema = z.strictObject({
  hit: HitPayloadSchema,
  reports: z.array(HitIssueSchema).min(1),
});

/** `GET /api/reports`: hits with open reports, the most reported first, then the newest report first. */
export const ReviewQueueSchema = z.strictObject({
  items: z.array(ReviewItemSchema),
  /** Open reports in all. */
  open: z.int().min(0),
});

export type IssueKind = z.infer<typeof IssueKindSchema>;
export type ProblemKind = z.infer<typeof ProblemKindSchema>;
export type IssueStatus = z.infer<typeof IssueStatusSchema>;
export type SourceAnswer = z.infer<typeof SourceAnswerSchema>;
export type SourceStatus = z.infer<typeof SourceStatusSchema>;
export type VoteCount = z.infer<typeof VoteCountSchema>;
export type HitIssue = z.infer<typeof HitIssueSchema>;
export type YearChange = z.infer<typeof YearChangeSchema>;
export type HitHistory = z.infer<typeof HitHistorySchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;
export type IssueBody = z.infer<typeof IssueBodySchema>;
export type ProblemBody = z.output<typeof ProblemBodySchema>;
export type AcceptBody = z.output<typeof AcceptBodySchema>;
export type DismissBody = z.output<typeof DismissBodySchema>;
export type ReviewItem = z.infer<typeof ReviewItemSchema>;
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;
