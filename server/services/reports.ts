import type { Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { DisputeReports } from '../rooms/host-ports.ts';

/**
 * Reports about hits and the review queue (docs/disputes.md#reports).
 * CONTRACT SKELETON: built in #30's reports part.
 */
export class ReportsService implements DisputeReports {
  readonly db: Db;
  readonly log: Logger;

  constructor(db: Db, log: Logger) {
    this.db = db;
    this.log = log;
  }

  async fileDispute(_d: Parameters<DisputeReports['fileDispute']>[0]): Promise<void> {}
}
