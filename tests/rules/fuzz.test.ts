import { describe, expect, it } from 'vitest';
import { applyAction, type Game } from '../../shared/rules/index.ts';
import { checkInvariants, describeFailure, fuzz, playGame, setupGame } from './fuzz-core.ts';

describe('seeded fuzz of the rules engine', () => {
  it('plays 1,000 random games without breaking an invariant', () => {
    const summary = fuzz(1000, 1);
    const report = summary.failures.map(describeFailure).join('\n');
    expect(report).toBe('');
    expect(summary.games).toBe(1000);
    // the driver must really play: most games reach a winner and many actions are accepted
    expect(summary.wins).toBeGreaterThan(700);
    expect(summary.accepted).toBeGreaterThan(30_000);
    console.log(`fuzz: ${summary.games} games, ${summary.actions} actions (${summary.accepted} accepted), ${summary.wins} won in ${(summary.ms / 1000).toFixed(1)} s`);
  }, 60_000);

  it('replays a seed to the same actions and state', () => {
    const a = playGame(77);
    const b = playGame(77);
    expect(JSON.stringify(b.steps)).toBe(JSON.stringify(a.steps));
    expect(a.failure).toBeNull();
  });

  describe('the invariant checker itself catches breaches', () => {
    const running = (): Game => {
      const setup = setupGame(5);
      let g = setup.game;
      const creator = g.players[0]!.id;
      for (const u of setup.users.slice(1, 3)) {
        const r = applyAction(g, g.mode === 'Local' ? { type: 'join_local', by: creator, name: u.slice(-4) } : { type: 'join', by: u, name: u }, { now: 1 });
        if (r.ok) g = r.game;
      }
      const r = applyAction(g, { type: 'start', by: creator, hits: setup.catalogue }, { now: 1 });
      if (!r.ok) throw new Error(r.error.message);
      return r.game;
    };

    it('a clean running game passes', () => {
      expect(checkInvariants(running(), [], [null], true)).toBeNull();
    });
    it('a card in two places', () => {
      const g = structuredClone(running());
      g.discard.push(g.players[0]!.hits[0]!);
      expect(checkInvariants(g, [], [null], true)).toBe('a card is in two places at once');
    });
    it('negative tokens', () => {
      const g = structuredClone(running());
      g.players[1]!.tokens = -1;
      expect(checkInvariants(g, [], [null], true)).toBe('tokens out of range: -1');
    });
    it('two turn players', () => {
      const g = structuredClone(running());
      for (const p of g.players) p.turn_player = true;
      expect(checkInvariants(g, [], [null], true)).toMatch(/turn players while running/);
    });
    it('two seated players with one colour', () => {
      const g = structuredClone(running());
      g.players[1]!.color = g.players[0]!.color;
      expect(checkInvariants(g, [], [null], true)).toBe('two seated players share a colour');
    });
    it('a colour past the palette', () => {
      const g = structuredClone(running());
      g.players[1]!.color = 10;
      expect(checkInvariants(g, [], [null], true)).toBe('colour out of range: 10');
    });
    it('an avatar that is not one emoji', () => {
      const g = structuredClone(running());
      g.players[1]!.avatar = 'AB';
      expect(checkInvariants(g, [], [null], true)).toBe('not an avatar: "AB"');
    });
    it('the hidden hit in an event', () => {
      const g = running();
      const leak = [{ event: 'skip' as const, data: { hit: { ...g.current!, packs: [] } } }];
      expect(checkInvariants(g, leak, [null], true)).toBe('an event contains the hidden hit');
    });
  });
});
