import { describe, expect, it } from 'vitest';
import { applyAction, type Action, type Game } from '../../shared/rules/index.ts';
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

  it('phones take, swap and give back the seats of Local games, and play them', () => {
    const accepted = { control: 0, release: 0, byPhone: 0, refused: 0 };
    for (let seed = 1; seed <= 400; seed++) {
      const setup = setupGame(seed);
      if (setup.game.mode !== 'Local') continue;
      let g = setup.game;
      for (const step of playGame(seed).steps) {
        const r = applyAction(g, step.action, { now: step.now });
        const a = (typeof step.action === 'object' && step.action !== null ? step.action : {}) as { type?: string; by?: string };
        if (!r.ok) {
          if (a.type === 'control' || a.type === 'release') accepted.refused++;
          continue;
        }
        if (a.type === 'control' || a.type === 'release') accepted[a.type]++;
        else if (g.players.some((p) => p.controller && p.controller === a.by)) accepted.byPhone++;
        g = r.game;
      }
    }
    // in the about 130 Local games among the first 400 seeds
    expect(accepted.control).toBeGreaterThan(40);
    expect(accepted.release).toBeGreaterThan(5);
    expect(accepted.byPhone).toBeGreaterThan(60);
    expect(accepted.refused).toBeGreaterThan(40);
  }, 30_000);

  it('disputes are raised, voted on, changed and kept, by votes, timeouts and leavers', () => {
    const seen = { dispute: 0, vote: 0, changed: 0, kept: 0, timeout: 0 };
    for (let seed = 1; seed <= 100; seed++) {
      const setup = setupGame(seed);
      let g = setup.game;
      for (const step of playGame(seed).steps) {
        const r = applyAction(g, step.action, { now: step.now });
        if (!r.ok) continue;
        for (const e of r.events) {
          if (e.event === 'vote') seen.vote++;
          if (e.event !== 'dispute') continue;
          if (e.data.dispute?.outcome === null) seen.dispute++;
          else if (e.data.dispute) seen[e.data.dispute.outcome]++;
          if (e.data.cause === 'timeout') seen.timeout++;
        }
        g = r.game;
      }
    }
    expect(seen.dispute).toBeGreaterThan(25);
    expect(seen.vote).toBeGreaterThan(25);
    expect(seen.changed).toBeGreaterThan(10);
    expect(seen.kept).toBeGreaterThan(10);
    expect(seen.timeout).toBeGreaterThan(0);
  }, 30_000);

  it('every changed year re-judges exactly: the round replayed with that year from its start, without the dispute, gives the same table', () => {
    const cards = (hits: readonly { id: string; year: number }[]) => hits.map((h) => `${h.id}@${h.year}`);
    const table = (g: Game) => ({
      state: g.state,
      players: g.players.map((p) => ({ id: p.id, hits: cards(p.hits), tokens: p.tokens, state: p.state, turn: p.turn_player, guess: p.guess?.id ?? null, connected: p.connected })),
      winner: g.winner?.id ?? null,
      standings: g.standings?.map((p) => ({ id: p.id, hits: cards(p.hits), tokens: p.tokens })) ?? null,
      current: g.current?.id ?? null,
      hit: g.hit ? cards([g.hit]) : null,
      discard: cards(g.discard),
      deck_at: g.deck_at,
      draws: g.draws,
    });
    let compared = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const setup = setupGame(seed);
      let g = setup.game;
      // the round so far: the game before its start, and the actions accepted since (with their times)
      let round: { before: Game; steps: { action: Action; now: number }[]; shown: string[]; years: Map<string, number> } | null = null;
      for (const step of playGame(seed).steps) {
        const r = applyAction(g, step.action, { now: step.now });
        if (!r.ok) continue;
        const action = step.action as Action;
        const voting = g.dispute?.outcome === null;
        if (action.type === 'start') round = { before: g, steps: [], shown: [], years: new Map() };
        const ownStep = action.type === 'dispute' || action.type === 'vote' || (voting && action.type === 'timeout');
        if (round && !ownStep) round.steps.push({ action, now: step.now });
        for (const e of r.events) if (e.data.hit && e.event !== 'change_state') round?.shown.push(e.data.hit.id);
        const decided = r.events.find((e) => e.event === 'dispute' && e.data.dispute?.outcome === 'changed');
        const d = decided?.data.dispute;
        g = r.game;
        if (r.deleted) break;
        // a card seen before in this round (skipped, claimed) would carry the new year there too in the reference
        if (!d || !round || round.shown.includes(d.hit.id)) continue;
        // every year changed in this round, this one too
        const years = round.years.set(d.hit.id, d.year);
        let ref = round.before;
        for (const { action: a, now } of round.steps) {
          const fixed = a.type === 'start' ? { ...a, hits: a.hits.map((h) => (years.has(h.id) ? { ...h, year: years.get(h.id)! } : h)) } : a;
          const rr = applyAction(ref, fixed, { now });
          if (rr.ok) ref = rr.game;
        }
        expect(table(g), `seed ${seed}`).toEqual(table(ref));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5);
  }, 60_000);

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
    it('a phone playing a real seat, or two seats', () => {
      const g = running();
      const phone = '00000000-0000-4000-8000-000000000020';
      expect(checkInvariants({ ...g, players: g.players.map((p, i) => (i === 0 ? { ...p, controller: phone } : p)) }, [], [null], true)).toMatch(/a phone plays a real seat/);
      const twice = { ...g, mode: 'Local' as const, players: g.players.map((p) => ({ ...p, virtual: !p.creator, controller: p.creator ? null : phone })) };
      expect(checkInvariants(twice, [], [null], true)).toBe('a phone plays two seats');
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
