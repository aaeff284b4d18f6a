import type { Db } from '../../db/index.ts';
import type { Logger } from '../../logger.ts';
import type { YearEvidence } from '../../rooms/host-ports.ts';
import type { Evidence, HitHistory } from '../../../shared/protocol/reports.ts';
import type { Hit } from '../../../shared/rules/index.ts';

/**
 * Year evidence (docs/disputes.md#evidence). CONTRACT SKELETON: the outside
 * sources, their cache and the catalogue's own evidence are built in #30's
 * evidence part; until then nothing is known.
 */
export class EvidenceService implements YearEvidence {
  readonly db: Db;
  readonly log: Logger;
  /** The catalogue's own evidence: the year, its changes and the reports (ReportsService.historyOf). */
  readonly history: (hitId: string) => Promise<HitHistory | null>;

  constructor(db: Db, log: Logger, history: (hitId: string) => Promise<HitHistory | null>) {
    this.db = db;
    this.log = log;
    this.history = history;
  }

  prefetch(_hit: Pick<Hit, 'id' | 'title' | 'artist' | 'year'>): void {}

  async gather(hit: Pick<Hit, 'id' | 'title' | 'artist' | 'year'>): Promise<Omit<Evidence, 'hit'>> {
    const known = await this.history(hit.id);
    return { year: known?.year ?? null, changes: known?.changes ?? [], reports: known?.reports ?? [], sources: [], missing: [] };
  }
}
