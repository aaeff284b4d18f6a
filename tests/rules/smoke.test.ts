import { describe, expect, it } from 'vitest';
import { viewGame } from '../../shared/rules/index.ts';
import { act, makeHits, newGame, uid } from './helpers.ts';

describe('smoke', () => {
  it('plays a first turn', () => {
    let g = newGame();
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    const started = act(g, { type: 'start', by: uid(1), hits: makeHits(100) });
    g = started.game;
    expect(g.state).toBe('Guessing');
    expect(started.events.map((e) => e.event)).toEqual(['change_state']);
    const turn = g.players.find((p) => p.turn_player)!;
    const placed = act(g, { type: 'guess', by: turn.id, slot: 1 });
    expect(placed.game.state).toBe('Intercepting');
    const view = JSON.stringify(viewGame(placed.game, null));
    expect(view).not.toContain(placed.game.current!.id);
  });
});
