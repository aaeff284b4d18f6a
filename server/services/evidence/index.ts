import type { Db } from '../../db/index.ts';
import type { Logger } from '../../logger.ts';
import type { YearEvidence } from '../../rooms/host-ports.ts';
import type { Evidence } from '../../../shared/protocol/reports.ts';
import type { Hit } from '../../../shared/rules/index.ts';

/**
 * Year evidence (docs/disputes.md#evidence). CONTRACT SKELETON: the outside
 * sources, their cache and the catalogue's own evidence are built in #30's
 * evidence part; until then nothing is known.
 */
export class EvidenceService implements YearEvidence {
  readonly db: Db;
  readonly log: Logger;

  constructor(db: Db, log: Logger) {
    this.db = db;
    this.log = log;
  }

  prefetch(_hit: Pick<Hit, 'id' | 'title' | 'artist' | 'year'>): void {}

  async gather(_hit: Pick<Hit, 'id' | 'title' | 'artist' | 'year'>): Promise<Omit<Evidence, 'hit'>> {
    return { year: null, changes: [], reports: [], sources: [], missing: [] };
  }
}
