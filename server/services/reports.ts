import { randomUUID } from 'node:crypto';
import { isoNow, type Db } from '../db/index.ts';
import type { HitIssuesTable } from '../db/schema.ts';
import type { EventPublisher } from '../events/bus.ts';
import type { Logger } from '../logger.ts';
import type { DisputeReports } from '../rooms/host-ports.ts';
import type { CatalogueService } from './catalogue.ts';
import { YEAR_REASONS } from './hit-history.ts';
import type { HitPayload } from '../../shared/protocol/game.ts';
import type { HitHistory, HitIssue, IssueKind, ReviewQueue, SourceAnswer, VoteCount } from '../../shared/protocol/reports.ts';

/**
 * Reports about hits and the review queue (docs/disputes.md#reports): filing
 * (a table's dispute, "report a problem", the reference API's issues, the
 * server's automatic ones), the queue, accepting (the hit's year is set through
 * the catalogue, with its history row), dismissing and deleting. Every report
 * that enters or leaves the open list is announced on the global stream
 * (`create_hit_issue`, `delete_hit_issue`) to read_issues subscribers only.
 */

/** What the service needs besides the database: where events go, and the catalogue that sets years. */
export interface ReportsDeps {
  events?: Pick<EventPublisher, 'publishGlobal'>;
  catalogue?: Pick<CatalogueService, 'setYear'>;
}

/** The outcome of accepting or dismissing: the closed report, or why not. */
export type ResolveResult = { ok: true; issue: HitIssue } | { ok: false; reason: 'not_found' | 'closed' };

/** The automatic report of a hit whose YouTube download failed for good (the reference server's message). */
export const DOWNLOAD_FAILED_MESSAGE = 'hit failed to download';

/** The permission the report events need (docs/api.md#sse). */
const READ_ISSUES = 'read_issues';

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
  private readonly deps: ReportsDeps;

  constructor(db: Db, log: Logger, deps: ReportsDeps = {}) {
    this.db = db;
    this.log = log;
    this.deps = deps;
  }

  private created(issue: HitIssue): void {
    void this.deps.events?.publishGlobal({ event: 'create_hit_issue', data: issue, permission: READ_ISSUES });
  }

  private gone(hitId: string, issueId: string): void {
    void this.deps.events?.publishGlobal({ event: 'delete_hit_issue', data: { hit_id: hitId, issue_id: issueId }, permission: READ_ISSUES });
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
    const issue = issueOf(row);
    this.created(issue);
    return issue;
  }

  /**
   * Files the server's own report (a failed download): an open automatic report
   * of the hit with the same message only gets its `last_modified` bumped (no
   * event), as the reference server does. Null when the hit does not exist.
   */
  async fileAuto(hitId: string, kind: IssueKind, message: string): Promise<HitIssue | null> {
    const now = isoNow();
    const bumped = await this.db
      .updateTable('hit_issues')
      .set({ last_modified: now })
      .where('hit_id', '=', hitId)
      .where('type', '=', 'auto')
      .where('status', '=', 'open')
      .where('message', '=', message)
      .returningAll()
      .execute();
    if (bumped[0]) return issueOf(bumped[0]);
    return this.fileReport({ hit_id: hitId, type: 'auto', kind, message });
  }

  /** Deletes a hit's open automatic reports with `message` (its audio became ready), announcing each. */
  async clearAuto(hitId: string, message: string): Promise<number> {
    const gone = await this.db
      .deleteFrom('hit_issues')
      .where('hit_id', '=', hitId)
      .where('type', '=', 'auto')
      .where('status', '=', 'open')
      .where('message', '=', message)
      .returning('id')
      .execute();
    for (const g of gone) this.gone(hitId, g.id);
    return gone.length;
  }

  /** Deletes a report of hit `hitId`; false when there is none. Announced when it was open. */
  async deleteIssue(hitId: string, issueId: string): Promise<boolean> {
    const gone = await this.db.deleteFrom('hit_issues').where('id', '=', issueId).where('hit_id', '=', hitId).returning('status').execute();
    if (!gone[0]) return false;
    if (gone[0].status === 'open') this.gone(hitId, issueId);
    return true;
  }

  /** The open reports of each of `hitIds`, oldest first (`parts=issues`: the reference server's order). */
  async openIssues(hitIds: readonly string[]): Promise<Map<string, HitIssue[]>> {
    const out = new Map<string, HitIssue[]>(hitIds.map((id) => [id, []]));
    for (let i = 0; i < hitIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('hit_issues')
        .selectAll()
        .where('hit_id', 'in', hitIds.slice(i, i + 500))
        .where('status', '=', 'open')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      for (const r of rows) out.get(r.hit_id)?.push(issueOf(r));
    }
    return out;
  }

  /** The review queue: hits with open reports, the most reported first, then the newest report first; reports newest first. */
  async queue(): Promise<ReviewQueue> {
    const rows = await this.db.selectFrom('hit_issues').selectAll().where('status', '=', 'open').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    const byHit = new Map<string, HitIssue[]>();
    for (const r of rows) {
      const list = byHit.get(r.hit_id);
      if (list) list.push(issueOf(r));
      else byHit.set(r.hit_id, [issueOf(r)]);
    }
    const hits = await this.hitPayloads([...byHit.keys()]);
    const items = [...byHit.entries()]
      .flatMap(([id, reports]) => {
        const hit = hits.get(id);
        return hit ? [{ hit, reports }] : [];
      })
      // a stable sort: hits with as many reports keep the order of their newest report (the rows' order)
      .sort((a, b) => b.reports.length - a.reports.length);
    return { items, open: rows.length };
  }

  private async hitPayloads(ids: readonly string[]): Promise<Map<string, HitPayload>> {
    const out = new Map<string, HitPayload>();
    for (let i = 0; i < ids.length; i += 500) {
      const slice = ids.slice(i, i + 500);
      const rows = await this.db.selectFrom('hits').select(['id', 'title', 'artist', 'belongs_to', 'year']).where('id', 'in', slice).execute();
      for (const r of rows) out.set(r.id, { ...r, year: Number(r.year), packs: [] });
      const links = await this.db.selectFrom('hit_packs').select(['hit_id', 'pack_id']).where('hit_id', 'in', slice).orderBy('pack_id').execute();
      for (const l of links) out.get(l.hit_id)?.packs.push(l.pack_id);
    }
    return out;
  }

  /**
   * Accepts an open report: sets the hit's year to `year` (default: the
   * report's; neither: nothing is set) through the catalogue, with a history row
   * naming `by` and the reason, and closes it and the hit's other open reports
   * that proposed the same year.
   */
  async accept(hitId: string, issueId: string, body: { year?: number | undefined; reason: string }, by: string | null): Promise<ResolveResult> {
    const claimed = await this.claim(hitId, issueId, 'accepted', by, body.reason);
    if (!claimed.ok) return claimed;
    const year = body.year ?? claimed.issue.year;
    if (year === null) return claimed;
    try {
      await this.deps.catalogue?.setYear(hitId, year, { by, reason: body.reason || YEAR_REASONS.accepted });
    } catch (err) {
      // the year could not be written: the report goes back to the queue, so that accepting it again can
      await this.reopen(claimed.issue);
      throw err;
    }
    const others = await this.db
      .selectFrom('hit_issues')
      .select('id')
      .where('hit_id', '=', hitId)
      .where('status', '=', 'open')
      .where('year', '=', year)
      .execute();
    for (const o of others) await this.claim(hitId, o.id, 'accepted', by, body.reason);
    return claimed;
  }

  /** Puts a report closed a moment ago back into the open list. */
  private async reopen(issue: HitIssue): Promise<void> {
    const [row] = await this.db
      .updateTable('hit_issues')
      .set({ status: 'open', resolved_by: null, resolved_at: null, reason: null, last_modified: issue.last_modified })
      .where('id', '=', issue.id)
      .returningAll()
      .execute();
    if (row) this.created(issueOf(row));
  }

  /** Dismisses an open report with a reason (kept in the hit's history); the year stays. */
  dismiss(hitId: string, issueId: string, reason: string, by: string | null): Promise<ResolveResult> {
    return this.claim(hitId, issueId, 'dismissed', by, reason);
  }

  /** Closes an open report, once: of two curators resolving it together, one gets `closed`. */
  private async claim(hitId: string, issueId: string, status: 'accepted' | 'dismissed', by: string | null, reason: string): Promise<ResolveResult> {
    const now = isoNow();
    const [row] = await this.db
      .updateTable('hit_issues')
      .set({ status, resolved_by: by, resolved_at: now, reason, last_modified: now })
      .where('id', '=', issueId)
      .where('hit_id', '=', hitId)
      .where('status', '=', 'open')
      .returningAll()
      .execute();
    if (row) {
      this.gone(hitId, issueId);
      return { ok: true, issue: issueOf(row) };
    }
    const exists = await this.db.selectFrom('hit_issues').select('id').where('id', '=', issueId).where('hit_id', '=', hitId).executeTakeFirst();
    return { ok: false, reason: exists ? 'closed' : 'not_found' };
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

/**
 * A hit's reports as a game's table may see them in the evidence (docs/disputes.md#evidence),
 * without read_issues: the earlier disputes and their outcomes, without who
 * reported or closed them and without their free text.
 */
export function tableReports(reports: readonly HitIssue[]): HitIssue[] {
  return reports
    .filter((r) => r.kind === 'dispute')
    .map((r) => ({ ...r, message: '', reporter: null, resolution: r.resolution ? { ...r.resolution, by: null } : null }));
}
