import type { ProblemKind } from '../../../shared/protocol/reports.ts';
import { api } from './api.ts';

/**
 * The catalogue's report calls (docs/disputes.md#reports): the review queue,
 * accepting and dismissing a report, "report a problem" and a hit's history.
 * Only the lazy catalogue screens use them (budget P9).
 */

const opt = (signal?: AbortSignal) => (signal ? { signal } : {});

/** `GET /api/reports`: the open reports by hit, the most reported first (write_hits). */
export function reviewQueue(signal?: AbortSignal) {
  return api('get', '/api/reports', { schema: (s) => s.ReviewQueueSchema, ...opt(signal) });
}

/** `POST …/accept`: sets the hit's year (default: the report's) and closes the report. */
export function acceptReport(hitId: string, issueId: string, body: { year?: number; reason: string }) {
  return api('post', '/api/hits/{hitId}/issues/{issueId}/accept', { params: { hitId, issueId }, body, schema: (s) => s.HitIssueSchema });
}

/** `POST …/dismiss`: closes the report with a reason, the year stays. */
export function dismissReport(hitId: string, issueId: string, reason: string) {
  return api('post', '/api/hits/{hitId}/issues/{issueId}/dismiss', { params: { hitId, issueId }, body: { reason }, schema: (s) => s.HitIssueSchema });
}

/** `POST /api/hits/{id}/reports`: "report a problem" from a hit's page. */
export function reportProblem(hitId: string, body: { kind: ProblemKind; message: string; year?: number }) {
  return api('post', '/api/hits/{hitId}/reports', { params: { hitId }, body, schema: (s) => s.HitIssueSchema });
}

/** `GET /api/hits/{id}/history`: the year changes and (for read_issues or write_hits) the reports. */
export function hitHistory(hitId: string, signal?: AbortSignal) {
  return api('get', '/api/hits/{hitId}/history', { params: { hitId }, schema: (s) => s.HitHistorySchema, ...opt(signal) });
}
