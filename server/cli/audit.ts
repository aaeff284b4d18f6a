import { parseArgs } from 'node:util';
import { isoNow, type Db } from '../db/index.ts';
import type { EvidenceService } from '../services/evidence/index.ts';
import type { ReportsService } from '../services/reports.ts';
import type { SourceAnswer } from '../../shared/protocol/reports.ts';
import { CliError, type CliIo } from './users.ts';

/**
 * `audit-years` (docs/disputes.md#audit): every hit's year checked against the
 * outside sources, at their pace. The hits wait in `audit_queue`, so an
 * interrupted run (Ctrl+C, a crash) resumes where it stopped; where two
 * sources agree on a year other than the catalogue's, a report goes to the
 * review queue.
 */

export const AUDIT_USAGE = `usage:
  npm run cli -- audit-years [--pack NAME] [--restart]

  audit-years        asks the sources of EVIDENCE_SOURCES about every hit's year,
                     one request a second per source, and files a wrong-year
                     report where two sources agree on a year other than the
                     hit's; an interrupted audit (Ctrl+C) resumes on the next run,
                     hits a source could not answer are asked again then
  --pack NAME        only the hits of this pack (its name or id)
  --restart          starts a new audit even when the last one is unfinished`;

/** Hits in a row without any answer after which the audit stops. */
const GIVE_UP_AFTER = 3;

/** Queue states: `failed` = a source was unavailable; such hits are asked again by the next run. */
type QueueState = 'pending' | 'done' | 'failed';

/** The year two or more sources agree on (the most sources; on a tie, none). */
export function agreedYear(answers: SourceAnswer[]): number | null {
  const votes = new Map<number, Set<string>>();
  for (const a of answers) if (a.year !== null) votes.set(a.year, (votes.get(a.year) ?? new Set()).add(a.source));
  const ranked = [...votes].map(([year, s]) => ({ year, n: s.size })).sort((a, b) => b.n - a.n);
  const [best, next] = ranked;
  return best && best.n >= 2 && (!next || next.n < best.n) ? best.year : null;
}

async function fillQueue(db: Db, packId: string | null): Promise<number> {
  const now = isoNow();
  let hits = db.selectFrom('hits').select('hits.id');
  if (packId !== null) hits = hits.innerJoin('hit_packs', 'hit_packs.hit_id', 'hits.id').where('hit_packs.pack_id', '=', packId);
  const ids = (await hits.execute()).map((h) => h.id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('audit_queue').execute();
    for (let i = 0; i < ids.length; i += 500) {
      await trx
        .insertInto('audit_queue')
        .values(ids.slice(i, i + 500).map((hit_id) => ({ hit_id, state: 'pending' satisfies QueueState, updated_at: now })))
        .execute();
    }
  });
  return ids.length;
}

async function findPack(db: Db, name: string): Promise<string> {
  const pack = await db
    .selectFrom('packs')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', name), eb('name_key', '=', name.trim().toLowerCase())]))
    .executeTakeFirst();
  if (!pack) throw new CliError(`no pack "${name}"`);
  return pack.id;
}

export async function runAuditCommand(
  db: Db,
  services: { evidence: EvidenceService; reports: ReportsService },
  args: string[],
  io: Pick<CliIo, 'out'>,
  signal: AbortSignal,
): Promise<number> {
  const { values } = parseArgs({ args, options: { pack: { type: 'string' }, restart: { type: 'boolean', default: false } }, strict: true, allowPositionals: false });
  const { evidence, reports } = services;
  if (evidence.sources.length === 0) throw new CliError('no sources to ask: EVIDENCE_SOURCES is empty (docs/configuration.md)');
  if (evidence.sources.length < 2) io.out(`note: only ${evidence.sources[0]!.label} is asked; a report needs two sources that agree, so none will be filed`);

  const counts = await db.selectFrom('audit_queue').select(['state']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('state').execute();
  const count = (s: QueueState) => Number(counts.find((c) => c.state === s)?.n ?? 0);
  const unfinished = count('pending') + count('failed');
  if (values.restart || counts.length === 0) {
    const total = await fillQueue(db, values.pack === undefined ? null : await findPack(db, values.pack));
    io.out(`auditing ${total} hits${values.pack === undefined ? '' : ` of pack "${values.pack}"`} with ${evidence.sources.map((s) => s.label).join(' and ')}`);
  } else if (unfinished > 0) {
    io.out(`resuming the last audit: ${unfinished} of ${count('pending') + count('failed') + count('done')} hits left${values.pack === undefined ? '' : ' (--pack applies to a new audit: add --restart)'}`);
  } else {
    io.out(`the last audit is finished (${count('done')} hits); --restart audits again`);
    return 0;
  }

  const total = Number((await db.selectFrom('audit_queue').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  let done = Number((await db.selectFrom('audit_queue').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'done').executeTakeFirstOrThrow()).n);
  const queue = await db.selectFrom('audit_queue').select('hit_id').where('state', '!=', 'done').orderBy('updated_at').orderBy('hit_id').execute();
  let filed = 0;
  let failed = 0;
  /** Hits in a row that no source answered: the network or the sources are down, so the run stops. */
  let unanswered = 0;
  const mark = (hitId: string, state: QueueState) => db.updateTable('audit_queue').set({ state, updated_at: isoNow() }).where('hit_id', '=', hitId).execute();

  for (const { hit_id } of queue) {
    if (signal.aborted) break;
    const hit = await db.selectFrom('hits').select(['id', 'title', 'artist', 'year']).where('id', '=', hit_id).executeTakeFirst();
    if (!hit) {
      // deleted since it was queued
      await mark(hit_id, 'done');
      done++;
      continue;
    }
    const { sources, unavailable } = await evidence.answers(hit, signal);
    if (signal.aborted) break;
    const said = sources.map((a) => `${a.label} ${a.year ?? '?'}`).concat(unavailable.map((u) => `${evidence.sources.find((s) => s.name === u)?.label ?? u} unavailable`));
    const year = agreedYear(sources);
    let verdict = year === null ? 'no two sources agree' : year === hit.year ? 'agrees' : `sources agree on ${year}`;
    if (year !== null && year !== hit.year) {
      // a curator who dismissed that year once is not asked again by every audit
      const known = await db.selectFrom('hit_issues').select('status').where('hit_id', '=', hit.id).where('status', 'in', ['open', 'dismissed']).where('year', '=', year).executeTakeFirst();
      if (known) verdict += known.status === 'open' ? ', already reported' : ', dismissed before';
      else {
        const agreeing = sources.filter((a) => a.year === year);
        await reports.fileReport({
          hit_id: hit.id,
          type: 'auto',
          kind: 'wrong_year',
          year,
          message: `${agreeing.map((a) => a.label).join(' and ')} give ${year}; the catalogue says ${hit.year} (audit-years)`,
          evidence: sources,
        });
        filed++;
        verdict += ', reported';
      }
    }
    const state: QueueState = unavailable.length > 0 && year === null ? 'failed' : 'done';
    await mark(hit.id, state);
    if (state === 'failed') failed++;
    done++;
    io.out(`audited ${done}/${total} ${hit.artist} – ${hit.title} (${hit.year}): ${said.join(', ') || 'no sources'} → ${verdict}`);
    unanswered = unavailable.length === evidence.sources.length ? unanswered + 1 : 0;
    if (unanswered >= GIVE_UP_AFTER) break;
  }

  const left = Number((await db.selectFrom('audit_queue').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '!=', 'done').executeTakeFirstOrThrow()).n);
  if (signal.aborted) {
    io.out(`stopped: ${left} hits left; run audit-years again to resume (${filed} reports filed)`);
    return 130;
  }
  if (unanswered >= GIVE_UP_AFTER) {
    io.out(`stopped: no source answered for ${GIVE_UP_AFTER} hits in a row (no network?); ${left} hits left; run audit-years again later to resume`);
    return 1;
  }
  io.out(`finished: ${filed} reports filed${failed > 0 ? `; ${failed} hits could not be checked (a source was unavailable): run audit-years again to retry them` : ''}`);
  return 0;
}
