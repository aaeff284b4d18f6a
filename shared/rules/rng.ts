/**
 * Seeded PRNG (mulberry32) kept as one uint32 inside the game state, so a seed and an
 * action list always replay to the same game. Functions return the next state with
 * the value; nothing here touches Math.random.
 */

/** Normalises any number to a valid uint32 seed. */
export function seedFrom(seed: number): number {
  return (Math.trunc(seed) >>> 0) || 0x9e3779b9;
}

/** One step: a float in [0, 1) and the next state. */
export function nextFloat(state: number): [number, number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, next];
}

/** A mutable cursor over the state, for use inside one engine step. */
export class Rng {
  state: number;
  constructor(state: number) {
    this.state = state >>> 0;
  }
  /** Float in [0, 1). */
  float(): number {
    const [value, next] = nextFloat(this.state);
    this.state = next;
    return value;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }
  /** Returns a new, uniformly shuffled array (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }
  /** A version-4-shaped UUID drawn from the seeded stream (virtual player ids). */
  uuid(): string {
    const hex = '0123456789abcdef';
    let s = '';
    for (let i = 0; i < 32; i++) {
      let d = this.int(16);
      if (i === 12) d = 4;
      if (i === 16) d = 8 + (d & 3);
      s += hex[d];
      if (i === 7 || i === 11 || i === 15 || i === 19) s += '-';
    }
    return s;
  }
}
