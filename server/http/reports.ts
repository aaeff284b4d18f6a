import { Router, type Response } from 'express';
import type { CaptchaService } from '../services/captcha.ts';
import type { ReportsService, ResolveResult } from '../services/reports.ts';
import { Permission } from '../services/users.ts';
import { CATALOGUE_HTTP_ERRORS, CATALOGUE_ROUTES } from '../../shared/protocol/routes-catalogue.ts';
import type { HttpError, RouteSpec } from '../../shared/protocol/routes.ts';
import { hasPermission } from './auth.ts';
import { sendError, sendSuccess } from './errors.ts';
import { mount } from './routes.ts';
import type { RateLimits } from './security.ts';

/**
 * Reports about hits (docs/disputes.md#reports): the reference server's hit
 * issues (`POST`/`DELETE /api/hits/{id}/issues`), "report a problem" from a
 * hit's page, a hit's year history, and the review queue with accept and
 * dismiss. The ReportsService does the work and sends the events.
 */

export interface ReportsRouterDeps {
  reports: ReportsService;
  /** The ALTCHA check of the reference API's issues, the registration's (REGISTRATION_CAPTCHA). */
  captcha: CaptchaService;
  limits: Pick<RateLimits, 'search' | 'reports'>;
}

/** The refusal `code` that `route` declares (the route table is the one place its status and message are written). */
function declared(route: RouteSpec, code: string): HttpError {
  const found = route.errors.find((e): e is HttpError => 'code' in e && e.code === code);
  if (!found) throw new Error(`${route.id} declares no ${code}`);
  return found;
}

const C = CATALOGUE_ROUTES;
const CAPTCHA_FAILED = declared(C.reportHitIssue, 'captcha_failed');
const MESSAGE_REQUIRED = declared(C.reportHitIssue, 'issue_message_required');
const ISSUE_NOT_FOUND = declared(C.deleteHitIssue, 'issue_not_found');
const ISSUE_CLOSED = declared(C.acceptReport, 'issue_closed');
const { hitNotFound: HIT_NOT_FOUND, hitIdNotFound: HIT_ID_NOT_FOUND } = CATALOGUE_HTTP_ERRORS;

/** The caller's name, for the reports and the history (routes with a permission always have a caller). */
const nameOf = (res: Response): string | null => res.locals.user?.name ?? null;

/** Answers an accept or dismiss. */
function resolved(res: Response, result: ResolveResult): void {
  if (result.ok) res.json(result.issue);
  else sendError(res, result.reason === 'closed' ? ISSUE_CLOSED : ISSUE_NOT_FOUND);
}

export function reportsRouter(deps: ReportsRouterDeps): Router {
  const { reports, captcha } = deps;
  const r = Router();
  const limits = { search: deps.limits.search, reports: deps.limits.reports };

  // the reference server's order: permission (the access check), captcha, message, hit
  mount(r, C.reportHitIssue, async ({ params, body }, _req, res) => {
    if ((await captcha.check(body.altcha_token)) !== 'ok') return sendError(res, CAPTCHA_FAILED);
    const message = body.message.trim();
    if (message === '') return sendError(res, MESSAGE_REQUIRED);
    const issue = await reports.fileReport({
      hit_id: params.hitId,
      type: 'custom',
      kind: body.kind ?? 'other',
      message,
      year: body.year ?? null,
      reporter: nameOf(res),
    });
    if (!issue) return sendError(res, HIT_NOT_FOUND);
    res.json(issue);
  });

  mount(r, C.deleteHitIssue, async ({ params }, _req, res) => {
    if (!(await reports.deleteIssue(params.hitId, params.issueId))) return sendError(res, ISSUE_NOT_FOUND);
    sendSuccess(res, C.deleteHitIssue.reply.message);
  });

  mount(r, C.reportProblem, async ({ params, body }, _req, res) => {
    const issue = await reports.fileReport({
      hit_id: params.hitId,
      type: 'custom',
      kind: body.kind,
      message: body.message,
      year: body.kind === 'wrong_year' ? (body.year ?? null) : null,
      reporter: nameOf(res),
    });
    if (!issue) return sendError(res, HIT_NOT_FOUND);
    res.json(issue);
  }, { limits });

  mount(r, C.getHitHistory, async ({ params }, _req, res) => {
    const history = await reports.historyOf(params.hitId);
    if (!history) return sendError(res, HIT_ID_NOT_FOUND);
    const mayRead = hasPermission(res, Permission.READ_ISSUES) || hasPermission(res, Permission.WRITE_HITS);
    // the answer depends on who asks
    res.set('Cache-Control', 'private, no-cache');
    res.json(mayRead ? history : { ...history, reports: [] });
  }, { limits });

  mount(r, C.reviewQueue, async (_input, _req, res) => {
    res.set('Cache-Control', 'private, no-cache');
    res.json(await reports.queue());
  }, { limits });

  mount(r, C.acceptReport, async ({ params, body }, _req, res) => {
    resolved(res, await reports.accept(params.hitId, params.issueId, body, nameOf(res)));
  });

  mount(r, C.dismissReport, async ({ params, body }, _req, res) => {
    resolved(res, await reports.dismiss(params.hitId, params.issueId, body.reason, nameOf(res)));
  });

  return r;
}
