import { randomUUID } from 'node:crypto';
import { isoNow, type Db } from '../db/index.ts';

/**
 * A hit's year history (docs/disputes.md#reports): one row each time its year is
 * set, by creation, an edit, an import or an accepted report. Written in the
 * transaction of the write that sets the year, so a year never changes without
 * its row.
 */

/** Why a year was set, as the history shows it (an accepted report's reason is the curator's own). */
export const YEAR_REASONS = { created: 'created', edited: 'edited', import: 'import', accepted: 'report accepted' } as const;

/** Who set a year and why: `by` is a user's name, null for the server and the command line. */
export interface YearChangeBy {
  by: string | null;
  reason: string;
}

/** Notes that hit `hitId`'s year went from `from` (null: the hit was made) to `to`; nothing when it stayed. */
export async function recordYearChange(trx: Db, hitId: string, from: number | null, to: number, who: YearChangeBy, at = isoNow()): Promise<void> {
  if (from === to) return;
  await trx.insertInto('hit_history').values({ id: randomUUID(), hit_id: hitId, at, from_year: from, to_year: to, by_name: who.by, reason: who.reason }).execute();
}
