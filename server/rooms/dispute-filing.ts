import type { Game, GameEvent } from '../../shared/rules/index.ts';
import type { GameHostDeps } from './host-ports.ts';

/**
 * Files each dispute an action decided (docs/rules.md#disputes) in the review
 * queue, with its votes and the outside sources' answers known by then. Runs
 * in the background, after the action was stored: a report that cannot be
 * filed is logged, and the game goes on. A vote ended without a decision (the
 * round was stopped, another card revealed: cause `absent`) is no verdict of
 * the table and files nothing.
 */
export function fileDecidedDisputes(deps: Pick<GameHostDeps, 'evidence' | 'reports' | 'log'>, game: string, before: Game, events: readonly GameEvent[]): void {
  for (const e of events) {
    const d = e.event === 'dispute' ? e.data.dispute : undefined;
    if (!d || d.outcome === null || e.data.cause === 'absent') continue;
    const outcome = d.outcome;
    const take = d.votes.filter((v) => v.take).length;
    const reporter = before.players.find((p) => p.id === d.by)?.name ?? '';
    void (async () => {
      try {
        const { sources } = await deps.evidence.gather(d.hit);
        await deps.reports.fileDispute({ game, hit: { id: d.hit.id, year: d.hit.year }, year: d.year, outcome, votes: { take, keep: d.votes.length - take, voters: d.voters }, reporter, evidence: sources });
      } catch (err) {
        deps.log.error({ err, game, hit: d.hit.id }, 'filing a decided dispute failed');
      }
    })();
  }
}
