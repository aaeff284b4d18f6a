import { randomUUID } from 'node:crypto';
import { isoNow, type Db } from '../db/index.ts';
import type { HitIssuesTable } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { DisputeReports } from '../rooms/host-ports.ts';
import type { HitHistory, HitIssue, IssueKind, SourceAnswer, VoteCount } from '../../shared/protocol/reports.ts';

/**
 * Reports about hits and the review queue (docs/disputes.md#reports).
 * CONTRACT SKELETON: filing and reading are real; events, the queue,
 * accepting and dismissing are built in #30's reports part.
 */

/** A report to file: the reference server's fields and Hitline's. */
export interface NewReport {
  hit_id: string;
  type: 'auto' | 'custom';
  kind: IssueKind;
  message: string;
  year?: number | null;
  reporter?: string | null;
  game_id?: string | null;
  outcome?: 'kept' | 'changed' | null;
  votes?: VoteCount | null;
  evidence?: SourceAnswer[];
}

type IssueRow = Omit<HitIssuesTable, 'kind' | 'status'> & { kind: string; status: string };

/** A stored row as the wire's HitIssue. */
export function issueOf(row: IssueRow): HitIssue {
  const votes = row.votes ? (JSON.parse(row.votes) as { outcome?: 'kept' | 'changed' | null; count?: VoteCount }) : null;
  return {
    id: row.id,
    hit_id: row.hit_id,
    type: row.type,
    message: row.message,
    created_at: row.created_at,
    last_modified: row.last_modified,
    kind: row.kind as HitIssue['kind'],
    status: row.status as HitIssue['status'],
    year: row.year,
    reporter: row.reporter,
    game_id: row.game_id,
    outcome: votes?.outcome ?? null,
    votes: votes?.count ?? null,
    evidence: row.evidence ? (JSON.parse(row.evidence) as SourceAnswer[]) : [],
    resolution: row.resolved_at ? { by: row.resolved_by, at: row.resolved_at, reason: row.reason ?? '' } : null,
  };
}

export class ReportsService implements DisputeReports {
  readonly db: Db;
  readonly log: Logger;

  constructor(db: Db, log: Logger) {
    this.db = db;
    this.log = log;
  }

  /** Files a report; null when the hit does not exist. */
  async fileReport(r: NewReport): Promise<HitIssue | null> {
    const hit = await this.db.selectFrom('hits').select('id').where('id', '=', r.hit_id).executeTakeFirst();
    if (!hit) return null;
    const now = isoNow();
    const row: IssueRow = {
      id: randomUUID(),
      hit_id: r.hit_id,
      type: r.type,
      message: r.message,
      created_at: now,
      last_modified: now,
      kind: r.kind,
      status: 'open',
      year: r.year ?? null,
      reporter: r.reporter ?? null,
      game_id: r.game_id ?? null,
      votes: r.votes || r.outcome ? JSON.stringify({ outcome: r.outcome ?? null, count: r.votes ?? null }) : null,
      evidence: r.evidence?.length ? JSON.stringify(r.evidence) : null,
      resolved_by: null,
      resolved_at: null,
      reason: null,
    };
    await this.db.insertInto('hit_issues').values(row).execute();
    return issueOf(row);
  }

  async fileDispute(d: Parameters<DisputeReports['fileDispute']>[0]): Promise<void> {
    await this.fileReport({
      hit_id: d.hit.id,
      type: 'custom',
      kind: 'dispute',
      message: `${d.reporter} disputed ${d.hit.year}, proposing ${d.year}`,
      year: d.year,
      reporter: d.reporter,
      game_id: d.game,
      outcome: d.outcome,
      votes: d.votes,
      evidence: d.evidence,
    });
  }

  /** A hit's year changes (oldest first) and reports (newest first); null for an unknown hit. */
  async historyOf(hitId: string): Promise<HitHistory | null> {
    const hit = await this.db.selectFrom('hits').select(['id', 'year']).where('id', '=', hitId).executeTakeFirst();
    if (!hit) return null;
    const changes = await this.db.selectFrom('hit_history').selectAll().where('hit_id', '=', hitId).orderBy('at').orderBy('id').execute();
    const reports = await this.db.selectFrom('hit_issues').selectAll().where('hit_id', '=', hitId).orderBy('created_at', 'desc').execute();
    return {
      hit_id: hit.id,
      year: hit.year,
      changes: changes.map((c) => ({ at: c.at, from: c.from_year, to: c.to_year, by: c.by_name, reason: c.reason })),
      reports: reports.map(issueOf),
    };
  }
}
